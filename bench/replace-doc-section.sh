#!/usr/bin/env bash
# Replaces the lines between "<!-- NAME:start -->" and "<!-- NAME:end -->" in FILE with the contents of SECTION_FILE,
# keeping the marker lines and everything outside them (the hand-written parts of a document).
#   bench/replace-doc-section.sh docs/reliability.md soak /tmp/section.md
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 FILE NAME SECTION_FILE" >&2; exit 2; }
file=$1 name=$2 section=$3
grep -q "^<!-- $name:start -->\$" "$file" && grep -q "^<!-- $name:end -->\$" "$file" || {
    echo "$file has no <!-- $name:start --> ... <!-- $name:end --> section; add the two marker lines where it belongs" >&2
    exit 1
}
tmp=$(mktemp "$file.XXXXXX")
awk -v start="<!-- $name:start -->" -v end="<!-- $name:end -->" -v section="$section" '
    $0 == start { print; while ((getline line < section) > 0) print line; skipping = 1; next }
    $0 == end { skipping = 0 }
    !skipping { print }
' "$file" > "$tmp"
mv "$tmp" "$file"

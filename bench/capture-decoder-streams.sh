#!/usr/bin/env bash
# Records the pgoutput streams of the decoder benchmark's workloads (bench/decoder-workloads.sh) from a throwaway
# PostgreSQL 15 cluster, through the SQL interface (one message per row, no 'w' header):
#   SELECT data FROM pg_logical_slot_peek_binary_changes(slot, NULL, NULL, 'proto_version','1','publication_names','pub')
# Output: bench/jmh/src/main/resources/captures/<workload>.frames.gz, a gzip of frames, each a 4-byte big-endian
# length followed by that many payload bytes.
# Usage: bench/capture-decoder-streams.sh   (needs /usr/lib/postgresql/15/bin and python3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/jmh/src/main/resources/captures"
source "$here/pg-throwaway.sh"
source "$here/decoder-workloads.sh"

mkdir -p "$out"
pg_start
workload_schema
for workload in $WORKLOADS; do
    slot="capture_${workload//-/_}"
    psql_q "SELECT 1 FROM pg_create_logical_replication_slot('$slot', 'pgoutput')" >/dev/null
    workload_run "$workload"
    psql_q "COPY (SELECT encode(data, 'hex') FROM pg_logical_slot_peek_binary_changes('$slot', NULL, NULL,
              'proto_version', '1', 'publication_names', 'pub')) TO STDOUT" \
      | python3 -c '
import gzip, struct, sys
count = total = 0
with gzip.GzipFile(sys.argv[1], "wb", compresslevel=9, mtime=0) as out:
    for line in sys.stdin:
        payload = bytes.fromhex(line.strip())
        out.write(struct.pack(">I", len(payload)))
        out.write(payload)
        count += 1
        total += len(payload)
print(f"{sys.argv[1]}: {count} messages, {total} payload bytes")
' "$out/$workload.frames.gz"
    psql_q "SELECT pg_drop_replication_slot('$slot')" >/dev/null
done
psql_q "SELECT version()"

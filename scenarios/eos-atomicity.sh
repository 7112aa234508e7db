#!/usr/bin/env bash
# Atomicity of connector-defined transaction boundaries seen from outside (issue 16), at full size: one PostgreSQL
# transaction of 2 x ROWS_PER_TABLE rows over two tables (500,000 each by default: the issue's 1M-row transaction),
# emitted under exactly-once with transaction.boundary=connector, while an admin client samples the read_committed end
# offsets of both table topics and the transaction topic about every 10 ms: each must move once, all in the same
# sample; the control, transaction.boundary=poll, moves in many steps. The CI runs the same test at 100,000 per table.
#
#   scenarios/eos-atomicity.sh [ROWS_PER_TABLE] [PG_VERSION]
#
# The figures (samples, gap percentiles, steps per topic) are in the log line "transaction.boundary=...: N samples".
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-500000}
version=${2:-17}
log=$(mktemp /tmp/eos-atomicity.XXXXXX.log)
mvn -B -o -pl connector -am verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test='ConnectorTransactionBoundaryIT#aTwoTableTransaction*' -Dpg.versions="$version" \
    -Dboundary.rows.per.table="$rows" > "$log" 2>&1 || { tail -50 "$log"; echo "failed; full log: $log"; exit 1; }
grep -h "transaction.boundary=.*samples" connector/target/failsafe-reports/*ConnectorTransactionBoundaryIT-output.txt | sed -e 's/^.* - //' -e 's/ \[[0-9, ]*\]//g'
grep -E "Tests run:.*ConnectorTransactionBoundaryIT" "$log"
rm -f "$log"

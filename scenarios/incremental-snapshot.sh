#!/usr/bin/env bash
# Issue 18 at full size: IncrementalSnapshotIT with a 1,000,000-row table (CI reads 200,000), on every PostgreSQL
# version of PG_VERSIONS (default 17; the suite's servers are started by the tests). The signal arrives while a
# workload of inserts, updates and deletes runs over the whole table; the table rebuilt from its topic must equal the
# database, through the signal table and through the Kafka signal topic with a SELECT-only role (pause, resume and a
# task restart in the middle). The figures (rows/s under the workload, chunks) are in the test's log lines
# "Incremental snapshot of ... rows with a workload of ...".
#
#   scenarios/incremental-snapshot.sh [ROWS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
rows=${1:-1000000}
mvn -B -pl connector -am verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=IncrementalSnapshotIT \
    -Dincremental.rows="$rows" -Dpg.versions="${PG_VERSIONS:-17}" -Dpg.matrix=full
grep -h "Incremental snapshot of .* rows with a workload\|Incremental snapshot through the signal topic" \
    connector/target/failsafe-reports/io.github.pgoutput.connect.IncrementalSnapshotIT-output.txt || true

#!/usr/bin/env bash
# Snapshot reader throughput against PostgreSQL's own COPY export of the same table, measured in the same run.
#
#   bench/snapshot-benchmark.sh [--write]
#
# Env: ROWS (default 2000000), RUNS (default 3), PG_BIN (default /usr/lib/postgresql/15/bin).
# Starts a throwaway PostgreSQL (TCP on 127.0.0.1, since pgjdbc needs it), fills one table, then per run, alternately:
#   * COPY: psql -c "COPY (SELECT <columns> FROM bench) TO STDOUT" > /dev/null, wall time;
#   * reader: LargeSnapshotRun --count-only in a JVM with -Xmx256m: slot + exported snapshot, SnapshotReader (COPY text
#     parsed into SnapshotRow values, one table so one thread), rows counted and dropped. Its reading time runs
#     from the reader's start to its last row; the total adds slot creation and import (and is printed too).
# Prints best (median) rows/s and the ratio; with --write, appends the "Snapshot (reader only)" section to
# docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/pg-throwaway.sh

ROWS=${ROWS:-2000000}
RUNS=${RUNS:-3}
WRITE=${1:-}

mvn -q -o -pl connector -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/snapshot-bench-cp.txt -Dmdep.includeScope=test
CP="connector/target/classes:connector/target/test-classes:$(cat /tmp/snapshot-bench-cp.txt)"

PG_LISTEN=127.0.0.1 pg_start # pgjdbc needs TCP

COLUMNS="id, v, n, ts, flag"
psql_q "CREATE TABLE bench (id bigint PRIMARY KEY, v text, n numeric, ts timestamptz, flag boolean)"
psql_q "INSERT INTO bench SELECT g, repeat(md5(g::text), 3), g / 7.0, timestamptz '2026-01-01' + g * interval '1 s', g % 2 = 0 FROM generate_series(1, $ROWS) g"
psql_q "VACUUM (FREEZE, ANALYZE) bench"
table_mb=$(psql_q "SELECT pg_table_size('bench') / 1000000")
copy_bytes=$(psql_q "COPY (SELECT $COLUMNS FROM bench) TO STDOUT" | wc -c)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
results=$(mktemp)

for run in $(seq 1 "$RUNS"); do
  t0=$(date +%s.%N)
  psql_q "COPY (SELECT $COLUMNS FROM bench) TO STDOUT" > /dev/null
  t1=$(date +%s.%N)
  copy_s=$(python3 -c "print(f'{$t1 - $t0:.3f}')")
  reader=$(java -Xmx256m -cp "$CP" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn io.github.pgoutput.snapshot.LargeSnapshotRun \
      127.0.0.1 "$PGPORT_USED" postgres postgres public.bench --count-only | grep '^RESULT')
  echo "run $run: copy_seconds=$copy_s $reader" | tee -a "$results"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
version=$(psql_q "SELECT version()" | cut -d' ' -f1-4)

python3 - "$results" "$WRITE" "$ROWS" "$RUNS" "$load_before" "$load_after" "$table_mb" "$copy_bytes" "$version" <<'PY'
import re, statistics, sys, datetime, subprocess
path, write, rows, runs, load_before, load_after, table_mb, copy_bytes, version = sys.argv[1:]
rows = int(rows)
copy, read, total, heap = [], [], [], []
for line in open(path):
    kv = dict(re.findall(r'(\w+)=([0-9.]+)', line))
    assert int(kv['count']) == rows, f"reader saw {kv['count']} rows, expected {rows}"
    copy.append(rows / float(kv['copy_seconds']))
    read.append(rows / float(kv['readSeconds']))
    total.append(rows / float(kv['seconds']))
    heap.append(int(kv['peakHeapBytes']))
fmt = lambda xs: f"{max(xs):,.0f} ({statistics.median(xs):,.0f})"
ratio = max(read) / max(copy)
print(f"COPY to /dev/null rows/s: {fmt(copy)}")
print(f"reader rows/s (reading): {fmt(read)}; incl. slot creation and import: {fmt(total)}; ratio reader/COPY {ratio:.2f}")
if write == '--write':
    java = subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.splitlines()[0]
    now = datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M UTC')
    with open('docs/benchmarks.md', 'a') as out:
        out.write(f"""
## Snapshot (reader only)

Written by `bench/snapshot-benchmark.sh` on {now}; {runs} runs, each figure **best run (median run)**.
Machine: 2 cores shared with other jobs; {java}; {version} on the same machine.
Load average (1/5/15 min) before: {load_before}; after: {load_after}.

Table: {rows:,} rows of `(id bigint PRIMARY KEY, v text /* 96 chars */, n numeric, ts timestamptz, flag boolean)`,
{table_mb} MB on disk, {int(copy_bytes) / 1e6:.0f} MB as COPY text; vacuumed (frozen) first; the table was just written, so it is
likely in the page cache for every run (not checked).

| Reader | rows/s | ÷ COPY |
|---|---|---|
| PostgreSQL `COPY (SELECT …) TO STDOUT` via psql into /dev/null | {fmt(copy)} | 1.00 |
| `SnapshotReader` (COPY text parsed into `SnapshotRow`s, consumer drops them), reading only | {fmt(read)} | **{ratio:.2f}** |
| the same, incl. slot creation with exported snapshot and import | {fmt(total)} | {max(total) / max(copy):.2f} |

Peak heap of the reader JVM (`-Xmx256m`): {max(heap) / 2**20:.0f} MiB. One table, so one reader thread
(`snapshot.max.threads` parallelises across tables). The reader consumes the server's COPY output, so COPY's own rate
is its ceiling; the gap is the reader's work in Java (splitting, unescaping and decoding every value into a `String`,
handing rows to the consumer thread), which shares the 2 cores with the backend that produces the rows.
Kafka end-to-end figures and the Debezium comparison come with the connector integration.
""")
PY

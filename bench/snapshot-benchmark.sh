#!/usr/bin/env bash
# Snapshot reader throughput against PostgreSQL's own COPY export of the same table, measured in the same run.
#
#   bench/snapshot-benchmark.sh [--write]
#
# Env: ROWS (default 2000000), RUNS (default 3), PG_BIN (default /usr/lib/postgresql/15/bin).
# Starts a throwaway PostgreSQL (TCP on 127.0.0.1, since pgjdbc needs it), fills one table, then per run, alternately:
#   * COPY: psql -c "COPY (SELECT <columns> FROM bench) TO STDOUT" > /dev/null, wall time;
#   * reader: LargeSnapshotRun --count-only in a JVM with -Xmx256m: slot + exported snapshot, SnapshotReader (COPY text
#     parsed into SnapshotRow values), rows counted and dropped, once with one thread and once with
#     snapshot.max.threads=2 (the one table read in two block ranges at once); then as a resumable snapshot reads, in
#     key order, with one thread and with two (two key ranges at once). Its reading time runs from the reader's start
#     to its last row; the total adds slot creation and import (and is printed too).
# Prints best (median) rows/s and the ratios; with --write, replaces the "snapshot-reader" section of
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
  for order in blocks keys; do
    for threads in 1 2; do
      reader=$(java -Xmx256m -cp "$CP" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn io.github.pgoutput.snapshot.LargeSnapshotRun \
          127.0.0.1 "$PGPORT_USED" postgres postgres public.bench --count-only --threads "$threads" \
          $([ "$order" = keys ] && echo --key-order) | grep '^RESULT')
      echo "run $run: order=$order threads=$threads copy_seconds=$copy_s $reader" | tee -a "$results"
    done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
version=$(psql_q "SELECT version()" | cut -d' ' -f1-4)

python3 - "$results" "$WRITE" "$ROWS" "$RUNS" "$load_before" "$load_after" "$table_mb" "$copy_bytes" "$version" <<'PY'
import re, statistics, sys, datetime, subprocess
path, write, rows, runs, load_before, load_after, table_mb, copy_bytes, version = sys.argv[1:]
rows = int(rows)
copy, read, total, heap = [], {1: [], 2: []}, {1: [], 2: []}, []
keyed = {1: [], 2: []}
for line in open(path):
    kv = dict(re.findall(r'(\w+)=([0-9.]+)', line))
    assert int(kv['count']) == rows, f"reader saw {kv['count']} rows, expected {rows}"
    threads = int(kv['threads'])
    if 'order=keys' in line:
        keyed[threads].append(rows / float(kv['readSeconds']))
        continue
    if threads == 1:
        copy.append(rows / float(kv['copy_seconds']))
    read[threads].append(rows / float(kv['readSeconds']))
    total[threads].append(rows / float(kv['seconds']))
    heap.append(int(kv['peakHeapBytes']))
fmt = lambda xs: f"{max(xs):,.0f} ({statistics.median(xs):,.0f})"
for t in (1, 2):
    print(f"reader, {t} thread(s), rows/s (reading): {fmt(read[t])}; incl. slot creation and import: {fmt(total[t])};"
          f" ratio reader/COPY {max(read[t]) / max(copy):.2f}; in key order: {fmt(keyed[t])}")
print(f"COPY to /dev/null rows/s: {fmt(copy)}; two threads / one: {max(read[2]) / max(read[1]):.2f};"
      f" in key order {max(keyed[2]) / max(keyed[1]):.2f}")
if write == '--write':
    java = subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.splitlines()[0]
    now = datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M UTC')
    section = f"""
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
| `SnapshotReader`, one thread (COPY text parsed into `SnapshotRow`s, consumer drops them), reading only | {fmt(read[1])} | **{max(read[1]) / max(copy):.2f}** |
| the same, incl. slot creation with exported snapshot and import | {fmt(total[1])} | {max(total[1]) / max(copy):.2f} |
| `SnapshotReader`, `snapshot.max.threads=2`: the table in two block ranges read at once, reading only | {fmt(read[2])} | **{max(read[2]) / max(copy):.2f}** |
| the same, incl. slot creation with exported snapshot and import | {fmt(total[2])} | {max(total[2]) / max(copy):.2f} |
| a resumable snapshot's reading (`ORDER BY` the key), one thread, reading only | {fmt(keyed[1])} | **{max(keyed[1]) / max(copy):.2f}** |
| the same, `snapshot.max.threads=2`: two key ranges read at once, reading only | {fmt(keyed[2])} | **{max(keyed[2]) / max(copy):.2f}** |

Peak heap of a reader JVM (`-Xmx256m`): {max(heap) / 2**20:.0f} MiB. With two threads the one table is read in two
`ctid` ranges (TID Range Scans) over two connections that share the exported snapshot: {max(read[2]) / max(read[1]):.2f}×
one thread's rate. Two ranges gain only where
cores are idle: one range's backend and reader already keep both cores of this machine busy, so the split is for
machines with more cores, or tables read from disk. A resumable snapshot reads in key order (an index scan), so
that it can continue each key range after its last row; two key ranges give {max(keyed[2]) / max(keyed[1]):.2f}× its
one-thread rate, and one key-order thread gives {max(keyed[1]) / max(read[1]):.2f}× the block-order one. A single COPY is one reader's ceiling; the gap is the reader's work
in Java (splitting, unescaping and decoding every value into a `String`, handing rows to the consumer thread), which
shares the cores with the backends that produce the rows. The end-to-end snapshot through Kafka is W5 in the
side-by-side section.
"""
    import os, tempfile
    with tempfile.NamedTemporaryFile('w', delete=False, suffix='.md') as f:
        f.write(section)
    subprocess.run(['bash', 'bench/replace-doc-section.sh', 'docs/benchmarks.md', 'snapshot-reader', f.name], check=True)
    os.unlink(f.name)
PY

#!/usr/bin/env bash
# Database spill throughput against a plain COPY (and a plain SELECT) of the same bytes into an UNLOGGED table on the
# same server, measured in the same run; appended to the "Spill" section of docs/benchmarks.md with --write.
#
#   bench/spill-database-benchmark.sh [--write]
#
# Env: SIZE_MB (default 512), RUNS (default 3), PAYLOAD_BYTES (default 8192), PG_BIN (default PostgreSQL 15).
# Starts a throwaway cluster (bench/pg-throwaway.sh, listening on 127.0.0.1); each run is one DatabaseSpillThroughput:
# plain COPY + SELECT first, then the spill's append and read, so both see the same load and server state.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
PG_LISTEN=127.0.0.1
source "$here/pg-throwaway.sh"

SIZE_MB=${SIZE_MB:-512}
RUNS=${RUNS:-3}
PAYLOAD_BYTES=${PAYLOAD_BYTES:-8192}
WRITE=${1:-}

(cd "$root" && mvn -q -pl bench/jmh -am package -DskipTests)
pg_start
url="jdbc:postgresql://127.0.0.1:$PGPORT_USED/postgres?user=postgres"
server=$(psql_q "SHOW server_version")
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
results=$(mktemp)
for run in $(seq 1 "$RUNS"); do
  line=$(java -Xmx512m -cp "$root/bench/jmh/target/benchmarks.jar" io.github.pgoutput.benchmarks.DatabaseSpillThroughput \
      "$url" "$SIZE_MB" "$PAYLOAD_BYTES")
  echo "run $run: $line" | tee -a "$results"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$results" "$WRITE" "$SIZE_MB" "$PAYLOAD_BYTES" "$RUNS" "$load_before" "$load_after" "$server" "$root" <<'PY'
import re, statistics, subprocess, sys, datetime
path, write, size_mb, payload, runs, load_before, load_after, server, root = sys.argv[1:]
rows = [dict(re.findall(r'(\w+)=([\w.]+)', line)) for line in open(path)]
def fig(key):
    values = [float(r[key]) for r in rows]
    return max(values), statistics.median(values)
copy, select, app, rd = fig('plain_copy_mb_s'), fig('plain_select_mb_s'), fig('db_append_mb_s'), fig('db_read_mb_s')
# Ratios within each run (spill and plain measured back to back under the same load), as median [min-max].
def ratio(num, den):
    values = sorted(float(r[num]) / float(r[den]) * 100 for r in rows)
    return f"{statistics.median(values):.0f}% [{values[0]:.0f}–{values[-1]:.0f}%]"
java = subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.splitlines()[0]
cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), '?')
nproc = subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()
f = lambda pair: f"{pair[0]:,.1f} ({pair[1]:,.1f})"
text = f"""
### Database backend

Written by `bench/spill-database-benchmark.sh` on {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC: PostgreSQL {server}
(throwaway cluster in /tmp, default settings plus `fsync=off`; the tables are UNLOGGED, so they write no WAL) on the
same machine as the client ({nproc} cores, "{cpu}", {java}), over TCP on 127.0.0.1.
Load average before: {load_before}; after: {load_after}. MB/s as **best run (median run)** of {runs} runs; the ratio
is taken within each run (spill right after plain, same load) and shown as median [min–max] over the runs.

| Measure | MB/s | Spill ÷ plain, per run |
|---|---|---|
| Plain binary `COPY` of the payloads into an UNLOGGED table (one bytea column, no index) | {f(copy)} | |
| Database spill append (binary COPY in 1 MiB batches, 5 columns, primary key, CRC-32C per row) | {f(app)} | **{ratio('db_append_mb_s', 'plain_copy_mb_s')}** |
| Plain `SELECT payload` of that table, fetch size 256 | {f(select)} | |
| Database spill read: verification pass + delivering pass (same snapshot), fetch size 256 | {f(rd)} | **{ratio('db_read_mb_s', 'plain_select_mb_s')}** |

How measured: {size_mb} MiB in {payload}-byte payloads per run (`DatabaseSpillThroughput` in `bench/jmh/`); MB = 10^6
payload bytes. The spill's read ships every row twice (all-or-nothing: it checks every row's sequence number and
CRC-32C before the first one is handed out, and a transaction may exceed memory), so expect about half the plain
SELECT rate by design; the append pays for the primary key (xid, seq) that makes the ordered, bounded read possible.
Command: `SIZE_MB={size_mb} RUNS={runs} bench/spill-database-benchmark.sh --write`.
"""
print(text)
if write == '--write':
    with open(f'{root}/docs/benchmarks.md', 'a') as out:
        out.write(text)
PY
rm -f "$results"

#!/usr/bin/env bash
# Decoder throughput versus the rate a walsender emits the same pgoutput stream, written to the "Decoder" section
# of docs/benchmarks.md.
#
# 1. JMH (bench/jmh/, DecoderBenchmark) decodes each capture of bench/capture-decoder-streams.sh on one thread.
# 2. A throwaway PostgreSQL 15 cluster runs the same workloads (bench/decoder-workloads.sh) with fresh slots
#    created just before each workload; pg_recvlogical (proto_version 1, publication pub) reads each slot into
#    /dev/null until the workload's end LSN (-E). Its wall time gives the walsender's emission rate; the
#    message and byte counts come from pg_logical_slot_peek_binary_changes on the same slot, up to the same LSN.
#    RUNS (5) slots per workload. On a shared machine every figure is reported as best run and median run;
#    the ratios compare best with best, the closest either side gets to an unloaded machine.
#
# Usage: bench/decoder-benchmark.sh   (from anywhere; needs maven, java 17, python3, /usr/lib/postgresql/15/bin)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
source "$here/pg-throwaway.sh"
source "$here/decoder-workloads.sh"

JMH_OPTS=${JMH_OPTS:-"-f 1 -wi 3 -w 1s -i 10 -r 1s -t 1"}
RUNS=${RUNS:-5}   # fresh slots per workload for the walsender and SQL-interface timings
work=$(mktemp -d /tmp/decoder-benchmark.XXXXXX)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

echo "== building benchmarks.jar"
(cd "$root" && mvn -q -pl bench/jmh -am package -DskipTests)
jar="$root/bench/jmh/target/benchmarks.jar"

echo "== capture sizes"
java -cp "$jar" io.github.pgoutput.benchmarks.CaptureStats $WORKLOADS | tee "$work/captures.txt"

echo "== JMH: $JMH_OPTS"
# shellcheck disable=SC2086
java -jar "$jar" DecoderBenchmark $JMH_OPTS -rf json -rff "$work/jmh.json" | tail -4

echo "== walsender (pg_recvlogical)"
pg_start
workload_schema
: > "$work/walsender.txt"
for workload in $WORKLOADS; do
    base="ws_${workload//-/_}"
    for i in $(seq 1 "$RUNS"); do psql_q "SELECT 1 FROM pg_create_logical_replication_slot('${base}_$i', 'pgoutput')" >/dev/null; done
    workload_run "$workload"
    endpos=$(psql_q "SELECT pg_current_wal_lsn()")
    # The SQL interface decodes the same WAL inside the server, with no network and no client: an upper bound
    # for what the walsender could emit. Timed with psql's \timing (server round trip, no process start-up).
    counts="" peek_times=""
    for i in $(seq 1 "$RUNS"); do
        out=$(as_pg "$PG_BIN/psql" -h "$PGDATA_DIR" -p "$PGPORT_USED" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAtX \
            -c '\timing on' -c "SELECT count(*) || ' ' || sum(octet_length(data)) FROM pg_logical_slot_peek_binary_changes(
                  '${base}_$i', '$endpos', NULL, 'proto_version', '1', 'publication_names', 'pub')")
        counts=$(echo "$out" | head -1)
        peek_times="$peek_times,$(echo "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')"
    done
    times=""
    for i in $(seq 1 "$RUNS"); do
        # Timed from pg_recvlogical's "streaming initiated" (connected, START_REPLICATION accepted) to its exit
        # at the end LSN, so process start-up and connecting are left out.
        start=""
        while IFS= read -r line; do
            case "$line" in *"streaming initiated"*) start=$(date +%s%N) ;; esac
        done < <(as_pg "$PG_BIN/pg_recvlogical" -v -h "$PGDATA_DIR" -p "$PGPORT_USED" -U postgres -d postgres \
                     -S "${base}_$i" --start -o proto_version=1 -o publication_names=pub -E "$endpos" -f /dev/null 2>&1)
        end=$(date +%s%N)
        [ -n "$start" ] || { echo "pg_recvlogical never started streaming" >&2; exit 1; }
        times="$times $(( (end - start) / 1000 ))"
        psql_q "SELECT pg_drop_replication_slot('${base}_$i')" >/dev/null
    done
    echo "$workload $counts ${peek_times#,} $times" | tee -a "$work/walsender.txt"
done
pg_version=$(psql_q "SHOW server_version")
pg_stop
trap - EXIT

echo "== writing docs/benchmarks.md"
cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
java_version=$(java -version 2>&1 | tr '\n' ' ' | sed 's/ *$//')
python3 - "$work" "$root/docs/benchmarks.md" "$(nproc)" "$cpu_model" "$java_version" "$load_before" \
    "$(cut -d' ' -f1-3 /proc/loadavg)" "$pg_version" "$JMH_OPTS" "$RUNS" <<'PY'
import datetime, json, os, re, statistics, sys
work, doc, nproc, cpu, java, load_before, load_after, pg_version, jmh_opts, runs = sys.argv[1:]

captures = {}
for line in open(f"{work}/captures.txt"):
    name, messages, size = line.split()
    captures[name] = (int(messages), int(size))
decoder_ops = {}  # capture -> per-iteration ops/s (one op = the whole capture)
for result in json.load(open(f"{work}/jmh.json")):
    decoder_ops[result["params"]["capture"]] = [s for fork in result["primaryMetric"]["rawData"] for s in fork]
server = {}  # workload -> (messages, bytes, peek seconds per run, pg_recvlogical seconds per run)
for line in open(f"{work}/walsender.txt"):
    name, messages, size, peeks, *recv = line.split()
    server[name] = (int(messages), int(size), [float(ms) / 1e3 for ms in peeks.split(",")], [int(us) / 1e6 for us in recv])

def n(value):
    return f"{value:,.0f}"

rows, notes = [], []
for name, (messages, size) in captures.items():
    ops = decoder_ops[name]
    dec_best, dec_median = max(ops) * messages, statistics.median(ops) * messages
    mb_best, mb_median = max(ops) * size / 1e6, statistics.median(ops) * size / 1e6
    s_messages, s_size, peeks, recv = server[name]
    ws_best, ws_median = s_messages / min(recv), s_messages / statistics.median(recv)
    ws_mb_best = s_size / 1e6 / min(recv)
    sql_best, sql_median = s_messages / min(peeks), s_messages / statistics.median(peeks)
    rows.append(f"| {name} | {messages:,} | {size / 1e6:.1f} | {n(dec_best)} ({n(dec_median)}) | {mb_best:,.1f} ({mb_median:,.1f}) "
                f"| {n(ws_best)} ({n(ws_median)}) | {ws_mb_best:,.1f} | {n(sql_best)} ({n(sql_median)}) "
                f"| **{dec_best / ws_best:.1f}×** | {dec_best / sql_best:.1f}× |")
    # The server runs must emit the captured stream, or the ratios compare different work.
    if (s_messages, s_size) != (messages, size):
        notes.append(f"* ⚠ {name}: the server runs emitted {s_messages:,} messages / {s_size:,} bytes, the capture has "
                     f"{messages:,} / {size:,}.")

section = f"""## Decoder

Written by `bench/decoder-benchmark.sh` on {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC.

Machine: {nproc} cores (`nproc`), CPU "{cpu}" (`/proc/cpuinfo`); {java}. PostgreSQL {pg_version} on the same machine.
Load average (1/5/15 min) before: {load_before}; after: {load_after}. The machine is shared with other jobs, so
single runs swing by an order of magnitude: every figure is given as **best run (median run)**, and the ratios
compare best with best, the closest each side gets to an unloaded core.

Streams (recorded by `bench/capture-decoder-streams.sh` from PostgreSQL 15, proto_version 1, text format;
SQL in `bench/decoder-workloads.sh`):
* **insert-heavy**: 100,000 INSERTs of ~155-byte rows (6 columns) in 4 transactions.
* **toast-updates**: 10 UPDATEs of 10,000 rows each; two small columns change, a 3.2 kB TOASTed column is left
  unchanged (sent as `u`).

| Stream | Messages | Payload MB | Decoder messages/s, 1 thread | Decoder MB/s per core | Walsender messages/s | Walsender MB/s | SQL-interface decoding messages/s | Decoder ÷ walsender | Decoder ÷ SQL interface |
|---|---|---|---|---|---|---|---|---|---|
{chr(10).join(rows)}
{chr(10).join(notes)}
How measured:
* Decoder: JMH 1.37, `java -jar bench/jmh/target/benchmarks.jar DecoderBenchmark {jmh_opts}`. One operation
  decodes the whole capture (each frame a heap `ByteBuffer` view of one array, as pgjdbc hands them out), so
  messages/s = ops/s × messages; best and median over the measurement iterations. MB = 10^6 bytes of pgoutput
  payload (no `w` headers).
* Walsender: `pg_recvlogical -S <fresh slot> --start -o proto_version=1 -o publication_names=pub -E <end LSN> -f /dev/null`,
  wall time from its "streaming initiated" (`-v`) to its exit at the end LSN; {runs} slots created just before the
  workload, so each run decodes the same WAL. The walsender and pg_recvlogical share the machine's cores, and
  pg_recvlogical's own per-message work is part of this rate.
* SQL-interface decoding: `pg_logical_slot_peek_binary_changes` up to the same LSN on each of those slots,
  `count(*)` and `sum(octet_length(data))` (which give the message and byte counts), timed by psql's `\\timing`.
  The server decodes and serializes the same WAL with no socket and no client, so this bounds what a walsender
  could emit; the last column is the conservative ratio.
"""

text = open(doc).read() if os.path.exists(doc) else "# Benchmarks\n"
pattern = re.compile(r"^## Decoder\n.*?(?=^## |\Z)", re.S | re.M)
if pattern.search(text):
    text = pattern.sub(lambda _: section + "\n", text).rstrip() + "\n"
else:
    text = text.rstrip() + "\n\n" + section
os.makedirs(os.path.dirname(doc), exist_ok=True)
open(doc, "w").write(text)
print(section)
PY
rm -rf "$work"

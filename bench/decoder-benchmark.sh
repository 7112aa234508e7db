#!/usr/bin/env bash
# Decoder throughput versus the rate a walsender emits the same pgoutput stream, written to the "Decoder" section
# of docs/benchmarks.md.
#
# 1. JMH (benchmarks/, DecoderBenchmark) decodes each capture of bench/capture-decoder-streams.sh on one thread.
# 2. A throwaway PostgreSQL 15 cluster runs the same workloads (bench/decoder-workloads.sh) with fresh slots
#    created just before each workload; pg_recvlogical (proto_version 1, publication pub) reads each slot into
#    /dev/null until the workload's end LSN (-E). Its wall time gives the walsender's emission rate; the
#    message and byte counts come from pg_logical_slot_peek_binary_changes on the same slot, up to the same LSN.
#    Three slots per workload; the median time is reported.
#
# Usage: bench/decoder-benchmark.sh   (from anywhere; needs maven, java 17, python3, /usr/lib/postgresql/15/bin)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
source "$here/pg-throwaway.sh"
source "$here/decoder-workloads.sh"

JMH_OPTS=${JMH_OPTS:-"-f 1 -wi 3 -w 1s -i 8 -r 1s -t 1"}
work=$(mktemp -d /tmp/decoder-benchmark.XXXXXX)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

echo "== building benchmarks.jar"
(cd "$root" && mvn -q -pl benchmarks -am package -DskipTests)
jar="$root/benchmarks/target/benchmarks.jar"

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
    for i in 1 2 3; do psql_q "SELECT 1 FROM pg_create_logical_replication_slot('${base}_$i', 'pgoutput')" >/dev/null; done
    workload_run "$workload"
    endpos=$(psql_q "SELECT pg_current_wal_lsn()")
    counts=$(psql_q "SELECT count(*) || ' ' || sum(octet_length(data)) FROM pg_logical_slot_peek_binary_changes('${base}_1',
                     '$endpos', NULL, 'proto_version', '1', 'publication_names', 'pub')")
    times=""
    for i in 1 2 3; do
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
    echo "$workload $counts $times" | tee -a "$work/walsender.txt"
done
pg_version=$(psql_q "SHOW server_version")
pg_stop
trap - EXIT

echo "== writing docs/benchmarks.md"
cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
java_version=$(java -version 2>&1 | tr '\n' ' ' | sed 's/ *$//')
python3 - "$work" "$root/docs/benchmarks.md" "$(nproc)" "$cpu_model" "$java_version" "$load_before" \
    "$(cut -d' ' -f1-3 /proc/loadavg)" "$pg_version" "$JMH_OPTS" <<'PY'
import json, re, statistics, sys, datetime, os
work, doc, nproc, cpu, java, load_before, load_after, pg_version, jmh_opts = sys.argv[1:]
captures = {}
for line in open(f"{work}/captures.txt"):
    name, messages, size = line.split()
    captures[name] = (int(messages), int(size))
jmh = {}
for result in json.load(open(f"{work}/jmh.json")):
    m = result["primaryMetric"]
    iterations = [score for fork in m["rawData"] for score in fork]
    jmh[result["params"]["capture"]] = (statistics.median(iterations), min(iterations), max(iterations), m["score"])
walsender = {}
for line in open(f"{work}/walsender.txt"):
    parts = line.split()
    walsender[parts[0]] = (int(parts[1]), int(parts[2]), [int(t) for t in parts[3:]])

rows = []
for name, (messages, size) in captures.items():
    ops, low, high, mean = jmh[name]
    w_messages, w_bytes, micros = walsender[name]
    median_s = statistics.median(micros) / 1e6
    dec_mps, dec_mbs = ops * messages, ops * size / 1e6
    ws_mps, ws_mbs = w_messages / median_s, w_bytes / 1e6 / median_s
    rows.append(f"| {name} | {messages:,} | {size / 1e6:.1f} | {dec_mps:,.0f} ({low * messages:,.0f}–{high * messages:,.0f}; mean {mean * messages:,.0f}) | {dec_mbs:,.1f} "
                f"| {w_messages:,} in {median_s:.3f} s | {ws_mps:,.0f} | {ws_mbs:,.1f} | {dec_mps / ws_mps:.1f}× |")
    if w_messages != messages:  # the walsender run must send the captured stream, or the ratio means nothing
        rows.append(f"| ⚠ {name}: the walsender run sent {w_messages} messages, the capture has {messages} | | | | | | | | |")

section = f"""## Decoder

Written by `bench/decoder-benchmark.sh` on {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC.

Machine: {nproc} cores (`nproc`), {cpu}; {java}. PostgreSQL {pg_version} (Debian) on the same machine.
Load average (1/5/15 min) before: {load_before}, after: {load_after}. The machine is shared with other jobs, so
absolute figures are noisy; both sides of the ratio ran under the same conditions.

Streams (recorded by `bench/capture-decoder-streams.sh` from PostgreSQL 15, proto_version 1, text format;
workloads in `bench/decoder-workloads.sh`):
* **insert-heavy**: 100,000 INSERTs of ~155-byte rows (6 columns) in 4 transactions.
* **toast-updates**: 10 UPDATEs of 10,000 rows each; two small columns change, a 3.2 kB TOASTed column is left
  unchanged (sent as `u`).

| Stream | Messages | Payload MB | Decoder messages/s, 1 thread: median iteration (range; mean) | Decoder MB/s per core | Walsender: messages in median time | Walsender messages/s | Walsender MB/s | Decoder ÷ walsender |
|---|---|---|---|---|---|---|---|---|
{chr(10).join(rows)}

How measured:
* Decoder: JMH 1.37, `java -jar benchmarks/target/benchmarks.jar DecoderBenchmark {jmh_opts}`; one operation
  decodes the whole capture (every frame a heap `ByteBuffer` view of one array, as pgjdbc hands them out), so
  messages/s = ops/s × messages; the median iteration is reported because load from other jobs makes single
  iterations swing. MB = 10^6 bytes of pgoutput payload (no `w` headers).
* Walsender: `pg_recvlogical -S <fresh slot> --start -o proto_version=1 -o publication_names=pub -E <end LSN> -f /dev/null`,
  wall time from "streaming initiated" (`-v`) to exit at the end LSN, median of 3 slots created just before the
  workload; the walsender and pg_recvlogical share the machine's cores.
  Messages and bytes from `pg_logical_slot_peek_binary_changes` on the same slot up to the same LSN.
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

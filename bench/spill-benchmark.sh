#!/usr/bin/env bash
# Disk spill throughput against the raw sequential speed of the same disk, measured in the same run.
#
#   bench/spill-benchmark.sh [--write]        (run as root: it drops the page cache between phases)
#
# Env: SIZE_MB (default 2048), RUNS (default 3), PAYLOAD_BYTES (default 8192), PAUSE_S (default 5: pause between
#      writing and reading, for raw and spill alike, so the VM host's write-back does not slow the reads),
#      BENCH_DIR (default /tmp/kafka-connect-pgoutput-spill-bench; put it on the disk you want to measure).
# For each run, alternately: raw dd write (oflag=direct) and read (iflag=direct, then buffered) of SIZE_MB, then one
# SpillThroughput run (append incl. fsync, then cold read incl. verification). Prints best (median) figures and
# the ratios; with --write, appends them as the "Spill" section of docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE_MB=${SIZE_MB:-2048}
RUNS=${RUNS:-3}
PAYLOAD_BYTES=${PAYLOAD_BYTES:-8192}
BENCH_DIR=${BENCH_DIR:-/tmp/kafka-connect-pgoutput-spill-bench}
PAUSE_S=${PAUSE_S:-5}
WRITE=${1:-}

drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches; }
mb_per_s() { python3 -c "import sys; print(f'{int(sys.argv[1]) / 1e6 / float(sys.argv[2]):.1f}')" "$1" "$2"; }
dd_seconds() { sed -n 's/.* copied, \([0-9.]*\) s.*/\1/p' | tail -1; }

mvn -q -pl bench/jmh -am package -DskipTests
mkdir -p "$BENCH_DIR"
rm -rf "${BENCH_DIR:?}"/*
bytes=$((SIZE_MB * 1024 * 1024))
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
results=$(mktemp)

for run in $(seq 1 "$RUNS"); do
  drop_caches
  write_s=$(dd if=/dev/zero of="$BENCH_DIR/raw" bs=1M count="$SIZE_MB" oflag=direct 2>&1 | dd_seconds)
  drop_caches
  sleep "$PAUSE_S"
  read_s=$(dd if="$BENCH_DIR/raw" of=/dev/null bs=1M iflag=direct 2>&1 | dd_seconds)
  drop_caches
  buffered_read_s=$(dd if="$BENCH_DIR/raw" of=/dev/null bs=1M 2>&1 | dd_seconds)
  rm -f "$BENCH_DIR/raw"
  drop_caches
  spill=$(java -Xmx512m -Dpause.ms=$((PAUSE_S * 1000)) -cp bench/jmh/target/benchmarks.jar io.github.pgoutput.benchmarks.SpillThroughput \
      "$BENCH_DIR/spill" "$SIZE_MB" "$PAYLOAD_BYTES")
  echo "run $run: raw_write_mb_s=$(mb_per_s $bytes "$write_s") raw_read_mb_s=$(mb_per_s $bytes "$read_s") raw_buffered_read_mb_s=$(mb_per_s $bytes "$buffered_read_s") $spill" | tee -a "$results"
done
rm -rf "$BENCH_DIR"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$results" "$WRITE" "$SIZE_MB" "$PAYLOAD_BYTES" "$RUNS" "$load_before" "$load_after" "$PAUSE_S" <<'PY'
import re, statistics, subprocess, sys, datetime
path, write, size_mb, payload, runs, load_before, load_after, pause = sys.argv[1:]
rows = [dict(re.findall(r'(\w+)=([\w.]+)', line)) for line in open(path)]
def fig(key):
    values = [float(r[key]) for r in rows]
    return max(values), statistics.median(values)
raw_w, raw_r, raw_rb = fig('raw_write_mb_s'), fig('raw_read_mb_s'), fig('raw_buffered_read_mb_s')
app, app_cached, rd = fig('append_mb_s'), fig('append_cached_mb_s'), fig('read_mb_s')
cold = all(r['cold_read'] == 'true' for r in rows)
java = subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.splitlines()[0]
cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), '?')
nproc = subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()
disk = subprocess.run(['df', '-hT', '/tmp'], capture_output=True, text=True).stdout.splitlines()[-1].split()
f = lambda pair: f"{pair[0]:,.1f} ({pair[1]:,.1f})"
text = f"""
## Spill

Written by `bench/spill-benchmark.sh` on {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC.

Machine: {nproc} cores, CPU "{cpu}", {java}; spill directory on `{disk[0]}` ({disk[1]}, {disk[2]}), a virtio disk of a VM.
Load average (1/5/15 min) before: {load_before}; after: {load_after}. The machine is shared with other jobs and the
VM's disk is cached by its host, so single runs swing widely: every figure is **best run (median run)** of {runs} runs,
and ratios compare best with best.

| Measure | MB/s | Spill ÷ raw |
|---|---|---|
| Raw sequential write, `dd bs=1M oflag=direct` | {f(raw_w)} | |
| Spill append, until the file is fsynced | {f(app)} | **{app[0] / raw_w[0] * 100:.0f}%** |
| Spill append, into the page cache (what the assembler waits for) | {f(app_cached)} | {app_cached[0] / raw_w[0] * 100:.0f}% |
| Raw sequential read, `dd bs=1M iflag=direct` | {f(raw_r)} | |
| Spill read, cold cache, including the verification pass | {f(rd)} | **{rd[0] / raw_r[0] * 100:.0f}%** |
| Raw sequential read through the page cache, `dd bs=1M` (the path the spill reads through) | {f(raw_rb)} | spill {rd[0] / raw_rb[0] * 100:.0f}% of it |

How measured: one streamed transaction of {size_mb} MiB in {payload}-byte payloads appended to a `DiskSpill` with
default settings (1 MiB front buffer), then read back with `read()` (which first checks every frame's CRC-32C, so the
file is read twice: once from disk, once mostly from the page cache) and the reader; `SpillThroughput` in
`bench/jmh/`. MB = 10^6 payload bytes (the 17-byte frame overhead is not counted). The page cache is dropped before
each raw and spill phase{'' if cold else ' (not possible here: the reads were NOT cold)'}, and both pause {pause} s between writing and reading;
raw and spill runs alternate so that both see the same load.
"""
print(text)
if write == '--write':
    with open('docs/benchmarks.md', 'a') as out:
        out.write(text)
PY
rm -f "$results"

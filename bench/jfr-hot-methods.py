#!/usr/bin/env python3
"""Where a worker's CPU time goes, from a Flight Recorder file (recorded by bench/side-by-side.sh --jfr DIR).

  bench/jfr-hot-methods.py RECORDING.jfr [TOP]

Reads the jdk.ExecutionSample events (`jfr print --json`) and prints, as shares of all samples: samples per thread,
the TOP hottest methods by self time (top frame), and the TOP methods by total time (anywhere on the stack, counted
once per sample), so a hot spot shows together with the code that calls it.
"""
import collections
import json
import subprocess
import sys


def frame_name(frame):
    method = frame["method"]
    return f"{method['type']['name']}.{method['name']}"


def main(path, top):
    raw = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample", path],
                         capture_output=True, text=True, check=True).stdout
    events = json.loads(raw)["recording"]["events"]
    threads, self_time, total_time = collections.Counter(), collections.Counter(), collections.Counter()
    for event in events:
        values = event["values"]
        thread = values.get("sampledThread") or {}
        threads[thread.get("javaName") or thread.get("osName") or "?"] += 1
        frames = (values.get("stackTrace") or {}).get("frames") or []
        if not frames:
            continue
        self_time[frame_name(frames[0])] += 1
        for name in {frame_name(f) for f in frames}:
            total_time[name] += 1
    n = len(events)
    print(f"{n} samples in {path}")
    for title, counter in (("threads", threads), ("self time (top frame)", self_time),
                           ("total time (on the stack)", total_time)):
        print(f"\n{title}:")
        for name, count in counter.most_common(top):
            print(f"  {100 * count / n:5.1f}%  {name}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 25)

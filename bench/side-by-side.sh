#!/usr/bin/env bash
# Our connector against Debezium 3.7.1 and against the limits, side by side on one machine (issue 7, W5 = issue 5, W6 = issue 18):
# PostgreSQL 17, one KRaft broker, per leg a fresh distributed Connect worker (separate JVMs; JSON converter without
# schemas; both plugins on one plugin.path), each connector on a fresh slot and fresh topics, legs alternating A/B.
#
#   bench/side-by-side.sh [--workloads W5,W1,W3,W2,W4,W6] [--runs 3] [--heaps 2g,256m] [--rows W5=1000000]...
#                         [--contenders ours,dbz,ceiling,ours-direct,ceiling-direct] [--no-limits] [--fixed-heap]
#                         [--jfr DIR] [--no-write]
#                         [--connector KEY=VALUE]... (set in every connector's config, not the ceiling's; not written)
#                         [--worker KEY=VALUE]... (set in every worker's properties, the ceilings' too; not written)
#                         [--converter json|avro] (avro: Apicurio's Avro converter and registry for every connector,
#                         bench/apicurio-plugin; not with the direct contenders; see below)
#   bench/side-by-side.sh --exactly-once [--workloads W1,W2,W3] [--runs 3] [--rows W1=300000]...
#   bench/side-by-side.sh --limits-only [--workloads W1,W3] [--runs 3] [--heaps 2g]
#
# Defaults: all workloads at the issue's sizes, 3 runs, heaps 2g and 256m, both connectors and the Connect ceiling
# (bench/connect-ceiling: our own records of the bench table, built once, emitted as fast as the worker takes them),
# limits measured.
# Every measurement goes to bench/results/side-by-side.jsonl: a run of this script replaces the lines of the
# (workload, heap) pairs it measured and keeps the others, so the suite can be run in parts. Unless --no-write, the
# "Side by side" section of docs/benchmarks.md and its chart, docs/side-by-side.svg, are then rebuilt from that file
# (bench/side-by-side-report.py).
# --jfr DIR runs every contender's worker with Flight Recorder (profile settings) and leaves one recording per leg in DIR; such runs
# are not written to the results (the recorder costs time): use it with --contenders ours --no-limits.
# --fixed-heap starts every worker, of every contender, with -Xms equal to its -Xmx (the harness's default leaves -Xms
# to the JVM, so the young generation starts small and is collected often); such runs are not written to the results,
# whose figures are all with the default.
# --exactly-once (issue 16) runs only our connector, at-least-once against its exactly-once variants (worker with
# exactly.once.source.support=enabled, connector exactly.once.support=required with transaction.boundary=poll, and
# with transaction.boundary=connector), on W1-W3 at 2g without the limits unless told otherwise (W5, the snapshot,
# when asked: its exactly-once legs take the resumable snapshot, in key order); every leg counts
# records with a read_committed consumer. Its results go to bench/results/side-by-side-exactly-once.jsonl and the
# "exactly-once-bench" section of docs/benchmarks.md; the side-by-side results are left alone.
# --converter avro (issue 19) runs the connectors and the ceiling with Apicurio Registry 2.6.13's AvroConverter (Confluent's
# wire format) against a registry in its own JVM; its results go to bench/results/side-by-side-avro.jsonl and the
# "avro-bench" section of docs/benchmarks.md, the JSON results are left alone.
# --limits-only measures only PostgreSQL's own rate (pg_recvlogical, COPY) for the given workloads, heaps and runs, and
# puts it in place of that figure in the existing results (the legs, the producer and the rest are kept).
# Needs: Maven Central once (Debezium's plugin folder, kafka-tools), PostgreSQL client tools (psql, pgbench,
# pg_recvlogical; Debian's 15 by default, PG_CLIENT_BIN to change).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

write=1
avro=0
jfr=""
exactly_once=0
limits_only=0
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --no-write) write=0; shift ;;
        --jfr) jfr=$2; args+=("$1" "$2"); shift 2 ;;
        --no-limits) args+=("$1"); shift ;;
        --fixed-heap) write=0; args+=("$1"); shift ;;
        --connector|--worker) write=0; args+=("$1" "$2"); shift 2 ;;
        --converter) [ "$2" = avro ] && avro=1; args+=("$1" "$2"); shift 2 ;;
        --exactly-once) exactly_once=1; args+=("$1"); shift ;;
        --limits-only) limits_only=1; args+=("$1"); shift ;;
        --workloads|--runs|--heaps|--rows|--contenders) args+=("$1" "$2"); shift 2 ;;
        -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { print }' "$0"; exit 0 ;;
        *) echo "unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ -n "$jfr" ] && write=0

offline=-o
[ -d "$HOME/.m2/repository/io/debezium/debezium-connector-postgres/3.7.1.Final" ] && [ -d "$HOME/.m2/repository/io/debezium/debezium-connector-postgres/3.6.1.Final" ] || offline=""
echo "building the plugin, the worker class path and the driver"
mvn -q -B $offline -pl packaging,local-run,bench/connect-ceiling,bench/side-by-side -am package -DskipTests
mvn -q -B $offline -f bench/debezium-plugin/pom.xml package
if [ "$avro" = 1 ]; then
    mvn -q -B -f bench/apicurio-plugin/pom.xml package
fi

mkdir -p bench/results
raw=$(mktemp /tmp/side-by-side.XXXXXX.jsonl)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u '+%Y-%m-%d %H:%M UTC')
java -Xmx512m -XX:+UseSerialGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -Dpgoutput.root="$root" -Dpgoutput.kafka.classpath.file="$root/testing/target/kafka.classpath" \
    -cp "bench/side-by-side/target/classes:$(cat bench/side-by-side/target/side-by-side.classpath)" \
    io.github.pgoutput.bench.SideBySide --results "$raw" "${args[@]}"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

if [ "$write" = 1 ] && [ "$avro" = 1 ]; then
    results=bench/results/side-by-side-avro.jsonl
    python3 bench/side-by-side-report.py merge "$results" "$raw" \
        "bench/side-by-side.sh ${args[*]}" "$started" "$load_before" "$load_after"
    section=$(mktemp /tmp/avro-section.XXXXXX.md)
    python3 bench/side-by-side-report.py avro "$results" "$section"
    bench/replace-doc-section.sh docs/benchmarks.md avro-bench "$section"
    rm -f "$section"
    echo "results merged into $results; docs/benchmarks.md section 'avro-bench' rewritten"
elif [ "$write" = 1 ] && [ "$limits_only" = 1 ]; then
    python3 bench/side-by-side-report.py merge-limits bench/results/side-by-side.jsonl "$raw" \
        "bench/side-by-side.sh ${args[*]}" "$started"
    python3 bench/side-by-side-report.py write bench/results/side-by-side.jsonl docs/benchmarks.md
    echo "PostgreSQL's rate replaced in bench/results/side-by-side.jsonl; docs/benchmarks.md section 'Side by side' rewritten"
elif [ "$write" = 1 ] && [ "$exactly_once" = 1 ]; then
    results=bench/results/side-by-side-exactly-once.jsonl
    python3 bench/side-by-side-report.py merge "$results" "$raw" \
        "bench/side-by-side.sh ${args[*]}" "$started" "$load_before" "$load_after"
    section=$(mktemp /tmp/exactly-once-section.XXXXXX.md)
    python3 bench/side-by-side-report.py exactly-once "$results" "$section"
    bench/replace-doc-section.sh docs/benchmarks.md exactly-once-bench "$section"
    rm -f "$section"
    echo "results merged into $results; docs/benchmarks.md section 'exactly-once-bench' rewritten"
elif [ "$write" = 1 ]; then
    python3 bench/side-by-side-report.py merge bench/results/side-by-side.jsonl "$raw" \
        "bench/side-by-side.sh ${args[*]}" "$started" "$load_before" "$load_after"
    python3 bench/side-by-side-report.py write bench/results/side-by-side.jsonl docs/benchmarks.md
    echo "results merged into bench/results/side-by-side.jsonl; docs/benchmarks.md section 'Side by side' rewritten"
else
    echo "raw results (not merged): $raw"
fi

#!/usr/bin/env bash
# What unchanged TOAST resolution (unchanged.toast.resolution) costs; prints the figures docs/benchmarks.md reports.
#   Worker: the store with KEYS rows of VALUE_BYTES each (1 GiB disk bound, 32 MiB native memory): write and resolve
#           rates, disk per key, resident memory growth.
#   Source: a table of ROWS rows with a 4 kB TOASTed body; DELIVERIES deliveries of PER_DELIVERY changed rows each;
#           the unchanged bodies read by the batched reselect (one query per delivery) and by one query per record
#           (as Debezium's reselect post processor), in the same run. The store itself sends no query.
# Usage: bench/toast-benchmark.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/pg-throwaway.sh

ROWS=${ROWS:-20000}
PER_DELIVERY=${PER_DELIVERY:-100}
DELIVERIES=${DELIVERIES:-200}
BENCH_DIR=${BENCH_DIR:-/tmp/kafka-connect-pgoutput-toast-bench}

mvn -B -q -o -pl bench/jmh -am package -DskipTests
jar=bench/jmh/target/benchmarks.jar
rm -rf "$BENCH_DIR"
mkdir -p "$BENCH_DIR"
echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' '/')"
for spec in "1000000 300" "200000 2048" "100000 8192"; do
    set -- $spec
    java -Xmx256m -cp "$jar" io.github.pgoutput.benchmarks.ToastResolutionCost store "$BENCH_DIR/store-$1" "$1" "$2"
    rm -rf "$BENCH_DIR/store-$1"
done

PG_LISTEN=127.0.0.1 pg_start
psql_q "CREATE TABLE docs (id int PRIMARY KEY, body text, note text)"
psql_q "INSERT INTO docs SELECT g, (SELECT string_agg(md5(g::text || s), '') FROM generate_series(1, 128) s), 'n' FROM generate_series(1, $ROWS) g"
psql_q "VACUUM ANALYZE docs"
echo "toast_bytes=$(psql_q "SELECT pg_total_relation_size(reltoastrelid) FROM pg_class WHERE relname = 'docs'")"
for run in 1 2 3; do
    java -Xmx256m -cp "$jar" io.github.pgoutput.benchmarks.ToastResolutionCost source 127.0.0.1 "$PGPORT_USED" postgres postgres \
        "$ROWS" "$PER_DELIVERY" "$DELIVERIES"
done
echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' '/')"
rm -rf "$BENCH_DIR"

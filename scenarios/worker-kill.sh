#!/usr/bin/env bash
# kill -9 of a real Connect worker while one large streamed PostgreSQL transaction is being written (issue 16):
# PostgreSQL 17 (logical_decoding_work_mem=64kB, so the transaction is streamed before its commit), a KRaft broker
# and a distributed Connect worker in JVMs of their own, the packaged plugin, snapshot.mode=no_data. Each run
# inserts --rows rows in one transaction, kills the worker once a third of them is in the topic's log, restarts it at
# once, and a read_committed consumer times the kill -> every row seen and counts rows lost and seen twice, by key.
# Modes: alo (no exactly-once support on the worker), eosp (exactly.once.source.support=enabled,
# exactly.once.support=required, transaction.boundary=poll), eosc (the same with transaction.boundary=connector).
#   scenarios/worker-kill.sh                                         1M rows, 3 runs of alo, eosp and eosc
#   scenarios/worker-kill.sh --rows 100000 --runs 5 --modes eosp --connector producer.override.transaction.timeout.ms=10000
#   scenarios/worker-kill.sh --rows 1000000 --modes eosc --runs 1 --no-kill     time one uninterrupted delivery
#   scenarios/worker-kill.sh --snapshot --modes eosp,eosc --connector max.batch.size=100    the kill inside a snapshot
#   scenarios/worker-kill.sh --incremental --connector incremental.snapshot.chunk.size=256   inside an incremental snapshot
#   scenarios/worker-kill.sh --keyless --rows 100000 --modes eosp,eosc --runs 1    inside a snapshot of tables without a key
# Options: --rows, --runs, --modes, --heap (worker -Xmx, 3g), --timeout (600s), --no-kill, --snapshot, --incremental, --keyless, repeatable
# --worker key=value and --connector key=value. Prints a 'worker-kill result' line per run and a summary per mode;
# exit 1 when an exactly-once run lost or repeated a row or an at-least-once run lost one.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
echo "building: mvn -B -q -pl scenarios/soak -am package -DskipTests"
mvn -B -q -pl scenarios/soak -am package -DskipTests
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
exec "$java" -Xmx2g -XX:+UseSerialGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dpgoutput.root="$root" \
    -Dpg.bundles.dir="$root/testing/target/postgres-bundles" \
    -cp "$root/scenarios/soak/target/classes:$(cat "$root/scenarios/soak/target/soak.classpath")" io.github.pgoutput.soak.WorkerKillRun "$@"

#!/usr/bin/env bash
# Runs a failover IT N times (default 5) and prints, per run, the time from the end of the standby's promotion to
# the first Kafka record of a row inserted after it, the rows and the phantom count; then min/median/max.
#   scenarios/failover.sh [runs] [pg version, default 17] [IT, default PrimaryFailoverIT; InFlightFailoverIT: with a
#   streamed transaction and prepared ones in flight at the crash]
set -euo pipefail

runs=${1:-5}
version=${2:-17}
it=${3:-PrimaryFailoverIT}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
report=connector/target/failsafe-reports/io.github.pgoutput.connect.$it-output.txt
figures=()
for run in $(seq 1 "$runs"); do
  if ! mvn -B -o -q -pl connector -am verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
      -Dit.test="$it" -Dpg.versions="$version" > "target-failover-run.log" 2>&1; then
    echo "run $run: FAILED (see target-failover-run.log)"; grep -h "$it PostgreSQL" "$report" || true
    exit 1
  fi
  grep -h "$it PostgreSQL" "$report" | sed "s/^/run $run: /"
  figures+=("$(grep -ho 'first new record [0-9]* ms' "$report" | grep -o '[0-9]*')")
done
rm -f target-failover-run.log
printf '%s\n' "${figures[@]}" | sort -n | awk '{a[NR]=$1} END {printf "promotion -> first new record over %d runs: min %d ms, median %d ms, max %d ms\n", NR, a[1], a[int((NR+1)/2)], a[NR]}'

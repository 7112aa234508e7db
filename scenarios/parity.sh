#!/usr/bin/env bash
# Debezium parity (issue 15): runs only parity/'s DebeziumParityIT, which starts PostgreSQL 17, a KRaft broker and one
# Connect worker with Debezium 3.7.1's plugin folder (bench/debezium-plugin, from Maven Central) and our
# connector, runs scenarios/parity/src/test/resources/workload.sql under both in every mode, compares their records field by
# field and writes scenarios/parity/target/parity-report.md (records: scenarios/parity/target/parity/<mode>/{debezium,ours}.jsonl; an
# allow-list that would accept today's differences: scenarios/parity/target/known-differences.suggested.txt).
#
#   scenarios/parity.sh [extra Maven arguments, e.g. -o]
#
# Fails when a mode has differences that scenarios/parity/src/test/resources/known-differences.txt does not list.
set -uo pipefail
cd "$(dirname "$0")/.."

mvn -B "$@" -pl scenarios/parity -am verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dfailsafe.failIfNoSpecifiedTests=false -Dit.test=DebeziumParityIT -Dpg.versions=17
status=$?
output=scenarios/parity/target/failsafe-reports/io.github.pgoutput.parity.DebeziumParityIT-output.txt
[ -f "$output" ] && grep -E '^(Debezium parity:|parity: )' "$output"
echo "report: $(pwd)/scenarios/parity/target/parity-report.md"
exit $status

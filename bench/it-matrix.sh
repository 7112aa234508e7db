#!/usr/bin/env bash
# The full PostgreSQL matrix: every test on every version of -Dpg.versions (default 15,16,17,18), including the slow
# tests that the ordinary build (`mvn -B verify`) runs on their one representative version only
# (@PostgresTest(representative = N)). Extra arguments go to Maven, for example
#   bench/it-matrix.sh -pl connector -am -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=SharedSlotIT
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
exec mvn -B verify -Dpg.matrix=full "$@"

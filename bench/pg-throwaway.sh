#!/usr/bin/env bash
# Shared helpers for the benchmark scripts: a throwaway PostgreSQL cluster (PG_BIN, default Debian's 15) with
# wal_level=logical, started by the testing module (io.github.pgoutput.testing.ThrowawayPostgres, the one place that
# runs initdb). Source this file; it defines pg_start, pg_stop, psql_q, as_pg and, after pg_start, PGDATA_DIR (the
# directory of the Unix socket, data/ and server.log) and PGPORT_USED. PG_LISTEN (default empty: Unix socket only)
# sets listen_addresses, e.g. 127.0.0.1 for JDBC. PostgreSQL refuses to run as root, so when run as root every server
# command runs as the OS user "postgres".
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_THROWAWAY_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_start() {
    local testing=$PG_THROWAWAY_ROOT/testing/target
    echo "building the testing module (its PostgreSQL starter): mvn -B -q -pl testing compile" >&2
    (cd "$PG_THROWAWAY_ROOT" && mvn -B -q -pl testing compile)
    # The server lives while this shell holds the coprocess's standard input open: pg_stop closes it, and so does
    # the shell's exit, however it ends.
    coproc PG_THROWAWAY { exec java -Xmx128m -cp "$testing/classes:$(cat "$testing/testing.classpath")" \
        io.github.pgoutput.testing.ThrowawayPostgres --bin "$PG_BIN" \
        --setting "listen_addresses='${PG_LISTEN:-}'" --setting wal_level=logical --setting max_replication_slots=10 \
        --setting max_wal_senders=10 --setting fsync=off --setting full_page_writes=off --setting max_wal_size=4GB; }
    PG_THROWAWAY_JVM=$PG_THROWAWAY_PID
    local line
    PGDATA_DIR="" PGPORT_USED=""
    while IFS= read -r line <&"${PG_THROWAWAY[0]}"; do
        case "$line" in
            port=*) PGPORT_USED=${line#port=} ;;
            dir=*) PGDATA_DIR=${line#dir=} ;;
            ready) break ;;
        esac
    done
    if [ -z "$PGPORT_USED" ] || [ -z "$PGDATA_DIR" ]; then
        echo "the throwaway PostgreSQL did not start (see above)" >&2
        return 1
    fi
    trap pg_stop EXIT
}

pg_stop() {
    if [ -n "${PG_THROWAWAY_JVM:-}" ]; then
        # End of input: the server is stopped at once and its directory deleted.
        local input=${PG_THROWAWAY[1]:-}
        if [ -n "$input" ]; then exec {input}>&-; fi
        wait "$PG_THROWAWAY_JVM" || true
        PG_THROWAWAY_JVM=""
    fi
}

# psql_q SQL: runs SQL, prints unaligned tuples only.
psql_q() {
    as_pg "$PG_BIN/psql" -h "$PGDATA_DIR" -p "$PGPORT_USED" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAtX -c "$1"
}

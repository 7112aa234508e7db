#!/usr/bin/env bash
# Shared helpers for the benchmark scripts: a throwaway PostgreSQL 15 cluster in /tmp with wal_level=logical.
# Source this file; it defines pg_start, pg_stop, psql_q. PG_LISTEN (default empty: Unix socket only) sets
# listen_addresses, e.g. 127.0.0.1 for JDBC. PostgreSQL refuses to run as root, so when run as
# root every server command runs as the OS user "postgres".
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    local port
    for port in $(seq 54700 54799); do
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
    done
    echo "no free port in 54700-54799" >&2; return 1
}

pg_start() {
    PGDATA_DIR=$(mktemp -d /tmp/pgbench-decoder.XXXXXX)
    chmod 755 "$PGDATA_DIR"
    [ "$(id -u)" = 0 ] && chown postgres "$PGDATA_DIR"
    PGPORT_USED=$(free_port)
    as_pg "$PG_BIN/initdb" -D "$PGDATA_DIR/data" -U postgres --no-sync -A trust -E UTF8 --locale=C >/dev/null
    as_pg "$PG_BIN/pg_ctl" -D "$PGDATA_DIR/data" -l "$PGDATA_DIR/server.log" -w start -o \
        "-p $PGPORT_USED -k $PGDATA_DIR -c listen_addresses='${PG_LISTEN:-}' -c wal_level=logical -c max_replication_slots=10 -c max_wal_senders=10 -c fsync=off -c full_page_writes=off -c max_wal_size=4GB" >/dev/null
    trap pg_stop EXIT
}

pg_stop() {
    if [ -n "${PGDATA_DIR:-}" ] && [ -d "$PGDATA_DIR/data" ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$PGDATA_DIR/data" -m immediate stop >/dev/null 2>&1 || true
        rm -rf "$PGDATA_DIR"
    fi
}

# psql_q SQL: runs SQL, prints unaligned tuples only.
psql_q() {
    as_pg "$PG_BIN/psql" -h "$PGDATA_DIR" -p "$PGPORT_USED" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAtX -c "$1"
}

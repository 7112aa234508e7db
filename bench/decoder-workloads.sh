#!/usr/bin/env bash
# The two workloads behind the decoder benchmark, shared by capture-decoder-streams.sh (which records their
# pgoutput streams) and decoder-benchmark.sh (which times the walsender over the same streams).
# Source after pg-throwaway.sh and pg_start. Deterministic: the same SQL gives the same messages every time.

WORKLOADS="insert-heavy toast-updates"

# Tables, publication and the pre-existing TOASTed rows. Runs before any slot exists, so none of it is streamed.
workload_schema() {
    psql_q "
      CREATE TABLE bench_insert (id bigint PRIMARY KEY, customer text, amount numeric(12,2), created_at timestamptz,
                                 status text, note text);
      CREATE TABLE bench_update (id int PRIMARY KEY, counter int, status text, doc text);
      -- EXTERNAL: store doc out of line without compression, so every row has a real TOAST pointer.
      ALTER TABLE bench_update ALTER COLUMN doc SET STORAGE EXTERNAL;
      INSERT INTO bench_update SELECT g, 0, 'new', repeat(md5(g::text), 100) FROM generate_series(1, 10000) g;
      CREATE PUBLICATION pub FOR TABLE bench_insert, bench_update;
      CHECKPOINT;" >/dev/null
}

# insert-heavy: 100,000 rows of about 150 bytes (text form), in 4 transactions of 25,000 rows.
# toast-updates: 10 transactions, each updating all 10,000 rows' small columns; the TOASTed doc is left
# unchanged, so every Update carries it as 'u'.
workload_run() {
    case "$1" in
        insert-heavy)
            for t in 0 1 2 3; do
                psql_q "INSERT INTO bench_insert
                        SELECT g, 'customer-' || lpad((g % 9973)::text, 6, '0'), (g % 100000) / 100.0,
                               timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second',
                               (ARRAY['new','paid','shipped','cancelled'])[1 + g % 4],
                               left(md5(g::text), 16) || ' ' || repeat('lorem ipsum ', 4)
                        FROM generate_series($((t * 25000 + 1)), $(((t + 1) * 25000))) g" >/dev/null
            done ;;
        toast-updates)
            for round in 1 2 3 4 5 6 7 8 9 10; do
                psql_q "UPDATE bench_update SET counter = counter + 1,
                               status = (ARRAY['new','paid','shipped','cancelled'])[1 + (id + $round) % 4]" >/dev/null
            done ;;
        *) echo "unknown workload $1" >&2; return 1 ;;
    esac
}

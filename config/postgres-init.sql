-- Example source database for the pgoutput connector: the tables config/pgoutput-source*.json capture, their replica
-- identity, the publication and a replication role. docker-compose.yml runs it once when the PostgreSQL volume is new
-- (as the superuser, in database shop); ExampleConfigsTest runs it on real PostgreSQL 15-18 on every build.
-- The server itself needs wal_level=logical (and max_prepared_transactions > 0 for two-phase transactions).
--
-- The connector's role is the least-privilege snapshot role of docs/setup-postgresql.md ("Snapshots"): it streams
-- from a publication an administrator made (publication.autocreate.mode=disabled) and snapshots the captured tables.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'replicator') THEN
        CREATE ROLE replicator WITH LOGIN PASSWORD 'change-me';
    END IF;
END
$$;
-- Creating and reading the replication slot (on Amazon RDS: GRANT rds_replication TO replicator).
ALTER ROLE replicator WITH REPLICATION;
-- Needed where CONNECT and the public schema's USAGE were revoked from PUBLIC; harmless elsewhere. (GRANT CONNECT ON
-- DATABASE shop TO replicator, written for whichever database this script runs in.)
DO $$
BEGIN
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO replicator', current_database());
END
$$;
GRANT USAGE ON SCHEMA public TO replicator;

CREATE TABLE public.customers (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text        NOT NULL,
    email      text        NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- FULL: updates and deletes carry every old column value, not only the key.
ALTER TABLE public.customers REPLICA IDENTITY FULL;

CREATE TABLE public.orders (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id bigint        NOT NULL REFERENCES public.customers (id),
    status      text          NOT NULL DEFAULT 'new',
    total       numeric(12,2) NOT NULL,
    created_at  timestamptz   NOT NULL DEFAULT now()
);
-- DEFAULT (the primary key) is what PostgreSQL uses unless told otherwise; stated here to show the choice.
ALTER TABLE public.orders REPLICA IDENTITY DEFAULT;

CREATE TABLE public.order_lines (
    order_id bigint        NOT NULL REFERENCES public.orders (id),
    line_no  int           NOT NULL,
    product  text          NOT NULL,
    quantity int           NOT NULL CHECK (quantity > 0),
    price    numeric(12,2) NOT NULL,
    PRIMARY KEY (order_id, line_no)
);

-- The snapshot reads the captured tables.
GRANT SELECT ON public.customers, public.orders, public.order_lines TO replicator;

-- pgoutput sends changes of the publication's tables only.
CREATE PUBLICATION shop_publication FOR TABLE public.customers, public.orders, public.order_lines;

-- Signals for incremental snapshots (config/pgoutput-source-signals.json): Debezium's signal table. The connector
-- reads its rows from the stream, so its publication holds it; it never writes to it (or anywhere). That example
-- captures it too (table.include.list), so the snapshot reads it: SELECT.
CREATE TABLE public.debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048));
GRANT SELECT ON public.debezium_signal TO replicator;
CREATE PUBLICATION shop_signals_publication FOR TABLE public.customers, public.orders, public.order_lines,
    public.debezium_signal;

INSERT INTO public.customers (name, email) VALUES
    ('Ada Lovelace', 'ada@example.com'),
    ('Edgar Codd', 'ted@example.com');
INSERT INTO public.orders (customer_id, total) VALUES (1, 42.50);
INSERT INTO public.order_lines (order_id, line_no, product, quantity, price) VALUES
    (1, 1, 'notebook', 2, 12.25),
    (1, 2, 'pen', 3, 6.00);

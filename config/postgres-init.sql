-- Example source database for the pgoutput connector: the tables config/pgoutput-source*.json capture, their replica
-- identity, the publication and a replication role. docker-compose.yml runs it once when the PostgreSQL volume is new
-- (as the superuser, in database shop); ExampleConfigsTest runs it on real PostgreSQL 15-18 on every build.
-- The server itself needs wal_level=logical (and max_prepared_transactions > 0 for two-phase transactions).

-- The connector's role: REPLICATION to create and read the slot, SELECT for the initial snapshot.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'replicator') THEN
        CREATE ROLE replicator WITH LOGIN REPLICATION PASSWORD 'change-me';
    END IF;
END
$$;

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

GRANT SELECT ON public.customers, public.orders, public.order_lines TO replicator;

-- pgoutput sends changes of the publication's tables only.
CREATE PUBLICATION shop_publication FOR TABLE public.customers, public.orders, public.order_lines;

-- Signals for incremental snapshots (config/pgoutput-source-signals.json): Debezium's signal table. The connector
-- reads its rows from the stream, so its publication holds it; it never writes to it (or anywhere).
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

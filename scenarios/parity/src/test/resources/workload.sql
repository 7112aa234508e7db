-- The parity workload (issue 15): run once on one database while Debezium 3.7.1 and our connector both capture it.
-- DebeziumParityIT splits this file into statements at every line that ends with ';' and runs each statement on its
-- own, in autocommit, on one connection, so an explicit BEGIN ... COMMIT below is one transaction.
-- Sections: '-- @setup' (schema and the rows the snapshot reads: before any connector starts) and '-- @stream'
-- (after every connector streams). Tables named pt_* are captured in every mode. Tables named ps_* hold values a
-- precise decimal cannot carry (numeric NaN and infinities: our connector fails on them in precise mode, a documented
-- difference) and are captured only in the modes with decimal.handling.mode=string. Rows that may stop a connector
-- come last, so a failure there costs no earlier record. The last statement inserts into pt_end: its record marks
-- the end of the workload in every connector's stream.

-- @setup
CREATE EXTENSION hstore;
CREATE EXTENSION ltree;
CREATE EXTENSION citext;
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN positive_amount AS numeric(10,2) CHECK (VALUE > 0);
CREATE SEQUENCE pt_counter START 1000;

-- One column per built-in type, every column nullable.
CREATE TABLE pt_types (
    id int PRIMARY KEY,
    c_bool bool, c_int2 int2, c_int4 int4, c_int8 int8, c_oid oid, c_float4 float4, c_float8 float8,
    c_numeric_ps numeric(12,3), c_numeric numeric, c_money money,
    c_text text, c_varchar varchar(20), c_char char(5), c_qchar "char", c_name name, c_bytea bytea,
    c_json json, c_jsonb jsonb, c_xml xml, c_uuid uuid,
    c_date date, c_time0 time(0), c_time3 time(3), c_time6 time(6), c_timetz timetz,
    c_ts0 timestamp(0), c_ts3 timestamp(3), c_ts6 timestamp(6),
    c_tstz0 timestamptz(0), c_tstz3 timestamptz(3), c_tstz6 timestamptz(6),
    c_interval interval, c_inet inet, c_cidr cidr, c_macaddr macaddr, c_macaddr8 macaddr8,
    c_bit1 bit(1), c_bit8 bit(8), c_varbit varbit(16),
    c_point point, c_line line, c_lseg lseg, c_box box, c_path path, c_polygon polygon, c_circle circle,
    c_tsvector tsvector, c_tsquery tsquery,
    c_int4range int4range, c_int8range int8range, c_numrange numrange, c_tsrange tsrange, c_tstzrange tstzrange,
    c_daterange daterange,
    c_enum mood, c_domain positive_amount, c_hstore hstore, c_ltree ltree, c_citext citext, c_pg_lsn pg_lsn
);

-- Arrays of the common element types.
CREATE TABLE pt_arrays (
    id int PRIMARY KEY,
    a_int2 int2[], a_int4 int4[], a_int8 int8[], a_text text[], a_varchar varchar(10)[], a_bool bool[],
    a_float8 float8[], a_numeric numeric(8,2)[], a_uuid uuid[], a_date date[], a_tstz timestamptz[],
    a_jsonb jsonb[], a_inet inet[]
);

-- NOT NULL columns and column defaults: literals, now(), a sequence, a serial key.
CREATE TABLE pt_defaults (
    id bigserial PRIMARY KEY,
    n int NOT NULL DEFAULT 42,
    t text NOT NULL DEFAULT 'fallback',
    v varchar(8) DEFAULT 'v-dflt',
    amount numeric(10,2) NOT NULL DEFAULT 1.50,
    flag bool NOT NULL DEFAULT true,
    counter bigint NOT NULL DEFAULT nextval('pt_counter'),
    created timestamptz NOT NULL DEFAULT now(),
    day date NOT NULL DEFAULT '2020-01-01',
    mood_d mood NOT NULL DEFAULT 'ok',
    big text NOT NULL DEFAULT ''
);

-- REPLICA IDENTITY FULL and no primary key.
CREATE TABLE pt_full (a int NOT NULL, b text, c numeric(6,2));
ALTER TABLE pt_full REPLICA IDENTITY FULL;

-- Keyed by a unique index (REPLICA IDENTITY USING INDEX), no primary key.
CREATE TABLE pt_uidx (code text NOT NULL, region int NOT NULL, note text);
CREATE UNIQUE INDEX pt_uidx_key ON pt_uidx (code, region);
ALTER TABLE pt_uidx REPLICA IDENTITY USING INDEX pt_uidx_key;

-- No key at all (default replica identity, no primary key): inserts only.
CREATE TABLE pt_nokey (a int, b text);

-- A value large enough to be TOASTed out of line, and a column that changes beside it.
CREATE TABLE pt_toast (id int PRIMARY KEY, small int, big text);
ALTER TABLE pt_toast ALTER COLUMN big SET STORAGE EXTERNAL;

CREATE TABLE pt_keychange (id int PRIMARY KEY, v text);
CREATE TABLE pt_trunc (id int PRIMARY KEY, v text);
CREATE TABLE pt_end (id int PRIMARY KEY);

-- Only in decimal.handling.mode=string: numeric values no precise decimal can carry.
CREATE TABLE ps_special (id int PRIMARY KEY, n numeric, nps numeric(10,2), f8 float8);

INSERT INTO pt_types VALUES (1,
    true, 32767, 2147483647, 9223372036854775807, 4294967295, 3.14, 2.718281828459045,
    123456789.123, 3.14159265358979323846, 1234.56,
    'text ü', 'varchar', 'ab', 'x', 'a_name', '\xdeadbeef',
    '{"b": 1, "a": [1, 2]}', '{"b": 1, "a": [1, 2]}', '<a>x</a>', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    '2024-02-29', '13:45:30', '13:45:30.123', '13:45:30.123456', '13:45:30.123456+05:30',
    '2024-02-29 13:45:30', '2024-02-29 13:45:30.123', '2024-02-29 13:45:30.123456',
    '2024-02-29 13:45:30+02', '2024-02-29 13:45:30.123+02', '2024-02-29 13:45:30.123456+02',
    '1 year 2 months 3 days 04:05:06.789', '192.168.0.1/24', '10.0.0.0/8', '08:00:2b:01:02:03',
    '08:00:2b:01:02:03:04:05',
    B'1', B'10101010', B'101',
    '(1.5,2.5)', '{1,-1,0}', '[(0,0),(1,1)]', '((0,0),(1,1))', '[(0,0),(1,1),(2,0)]', '((0,0),(1,1),(1,0))',
    '<(0,0),1>',
    'a fat cat', 'fat & cat',
    '[1,10)', '[1,10)', '[1.5,2.5]', '[2024-01-01 00:00,2024-02-01 00:00)', '[2024-01-01 00:00+00,2024-02-01 00:00+00)',
    '[2024-01-01,2024-02-01)',
    'happy', 12.34, 'a=>1, b=>NULL', 'top.middle.leaf', 'MiXeD', '16/B374D848');
INSERT INTO pt_types (id) VALUES (2);
-- Infinite dates and timestamps in the snapshot too (the stream's come last, below), and polygons whose ring closing
-- depends on comparing doubles: NaN equals nothing, -0 equals 0.
INSERT INTO pt_types (id, c_date, c_ts0, c_ts3, c_ts6, c_tstz0, c_tstz3, c_tstz6, c_polygon)
    VALUES (6, 'infinity', 'infinity', 'infinity', 'infinity', 'infinity', 'infinity', 'infinity', '((NaN,0),(1,1),(NaN,0))');
INSERT INTO pt_types (id, c_date, c_ts0, c_ts3, c_ts6, c_tstz0, c_tstz3, c_tstz6, c_polygon)
    VALUES (7, '-infinity', '-infinity', '-infinity', '-infinity', '-infinity', '-infinity', '-infinity', '((0,0),(1,1),(-0,-0))');
INSERT INTO pt_arrays VALUES (1, '{1,2}', '{1,NULL,3}', '{9223372036854775807}', '{"a","b c",NULL}', '{"x"}',
    '{true,false}', '{1.5,-2.25}', '{1.10,NULL}', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', '{2024-02-29}',
    '{"2024-02-29 13:45:30.123456+02"}', ARRAY['{"k": 1}'::jsonb], '{10.0.0.1}');
INSERT INTO pt_arrays (id) VALUES (2);
INSERT INTO pt_defaults (n, t) VALUES (7, 'snap');
INSERT INTO pt_full VALUES (1, 'one', 1.10), (2, NULL, NULL);
INSERT INTO pt_uidx VALUES ('A', 1, 'first');
INSERT INTO pt_nokey VALUES (1, 'one');
INSERT INTO pt_toast VALUES (1, 1, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 400) g));
INSERT INTO pt_keychange VALUES (1, 'k1');
INSERT INTO pt_trunc VALUES (1, 't1');
INSERT INTO ps_special VALUES (1, 'NaN', 'NaN', 'NaN');

-- @stream
-- create, update, delete on the all-types table
INSERT INTO pt_types VALUES (3,
    false, -32768, -2147483648, -9223372036854775808, 0, -1.5e-10, 1e300,
    -0.001, 0, -0.01,
    '', 'x', 'a', 'z', 'n', '\x00ff',
    '[]', '{}', '<r/>', '00000000-0000-0000-0000-000000000000',
    '1970-01-01', '00:00:00', '23:59:59.999', '23:59:59.999999', '00:00:01-08',
    '1970-01-01 00:00:00', '1969-12-31 23:59:59.999', '1900-01-01 00:00:00.000001',
    '1970-01-01 00:00:00+00', '2038-01-19 03:14:07.5+00', '0001-01-01 00:00:00+00',
    '-1 day -02:00:00', '::ffff:1.2.3.4', '2001:db8::/32', 'ff:ff:ff:ff:ff:ff',
    '00:00:00:00:00:00:00:01',
    B'0', B'00000001', B'',
    '(0,0)', '{0,1,0}', '[(-1,-1),(1,1)]', '((2,2),(-2,-2))', '((0,0),(3,4))', '((0,0),(2,0),(2,2))',
    '<(1,1),0.5>',
    '', 'a',
    'empty', '(,5]', '(,)', '[2024-01-01 00:00,)', 'empty',
    '[2024-01-01,)',
    'sad', 0.01, '', '', '', '0/0');
UPDATE pt_types SET c_text = 'updated', c_int4 = 5, c_tstz6 = '2025-06-01 12:00:00.654321+00' WHERE id = 1;
UPDATE pt_types SET c_bool = true WHERE id = 2;
DELETE FROM pt_types WHERE id = 2;
INSERT INTO pt_arrays VALUES (3, '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}');
UPDATE pt_arrays SET a_int4 = '{4,5}' WHERE id = 1;
-- NOT NULL columns and defaults
INSERT INTO pt_defaults (n) VALUES (8);
INSERT INTO pt_defaults DEFAULT VALUES;
UPDATE pt_defaults SET t = 'changed' WHERE n = 8;
DELETE FROM pt_defaults WHERE n = 42;
-- REPLICA IDENTITY FULL: the old row in full
INSERT INTO pt_full VALUES (3, 'three', 3.30);
UPDATE pt_full SET b = 'uno' WHERE a = 1;
UPDATE pt_full SET a = 20 WHERE a = 2;
DELETE FROM pt_full WHERE a = 3;
-- unique-index identity
INSERT INTO pt_uidx VALUES ('B', 2, 'second');
UPDATE pt_uidx SET note = 'first, changed' WHERE code = 'A';
UPDATE pt_uidx SET region = 3 WHERE code = 'B';
DELETE FROM pt_uidx WHERE code = 'A';
-- no key
INSERT INTO pt_nokey VALUES (2, 'two');
INSERT INTO pt_nokey VALUES (NULL, NULL);
-- an update that leaves the TOASTed value unchanged, then one that changes it, then a delete
UPDATE pt_toast SET small = 2 WHERE id = 1;
UPDATE pt_toast SET big = 'short now', small = 3 WHERE id = 1;
INSERT INTO pt_toast VALUES (2, 1, (SELECT string_agg(md5((g * 7)::text), '') FROM generate_series(1, 400) g));
UPDATE pt_toast SET small = 9 WHERE id = 2;
DELETE FROM pt_toast WHERE id = 2;
-- key-changing update
UPDATE pt_keychange SET id = 101 WHERE id = 1;
INSERT INTO pt_keychange VALUES (2, 'k2');
-- one transaction over several tables, with a transactional logical decoding message inside
BEGIN;
INSERT INTO pt_keychange VALUES (3, 'k3');
INSERT INTO pt_trunc VALUES (2, 't2');
SELECT pg_logical_emit_message(true, 'parity', 'transactional message');
UPDATE pt_keychange SET v = 'k3b' WHERE id = 3;
COMMIT;
-- logical decoding messages outside a transaction and with binary content
SELECT pg_logical_emit_message(false, 'parity', 'non-transactional message');
SELECT pg_logical_emit_message(true, 'parity-bytes', '\x00010203'::bytea);
-- truncate
TRUNCATE pt_trunc;
INSERT INTO pt_trunc VALUES (3, 't3');
-- values with special spellings, last: infinite dates and timestamps, float NaN and infinities, an empty hstore
INSERT INTO pt_types (id, c_float4, c_float8, c_date, c_ts0, c_ts3, c_ts6, c_tstz0, c_tstz3, c_tstz6, c_time6)
    VALUES (4, 'NaN', 'Infinity', 'infinity', 'infinity', '-infinity', 'infinity', 'infinity', '-infinity',
    'infinity', '24:00:00');
INSERT INTO pt_types (id, c_float4, c_float8, c_date) VALUES (5, '-Infinity', 'NaN', '-infinity');
INSERT INTO ps_special VALUES (2, 'Infinity', 'NaN', 'Infinity');
INSERT INTO ps_special VALUES (3, '-Infinity', 12.5, '-Infinity');
UPDATE ps_special SET n = 1.25 WHERE id = 1;
INSERT INTO pt_end VALUES (1);

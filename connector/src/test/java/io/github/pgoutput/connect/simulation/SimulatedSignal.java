package io.github.pgoutput.connect.simulation;

import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

import io.github.pgoutput.connect.simulation.SimulationHistory.Table;

/**
 * The signals a run with incremental snapshots may send, and what each asks for: the workload, the simulated database
 * (which evaluates the one {@code additional-conditions} filter) and the oracle read the same catalogue, so what a
 * signal does is stated once. A signal travels as a row of the signal table ({@code public.sig}: id, type, data) or as a
 * logical decoding message with the signal prefix (the whole document, {@code {"type": ..., "data": {...}}}); in the
 * WAL it is known by its ordinal here.
 *
 * <p>Besides the signals that start, stop, pause and resume snapshots, the catalogue holds signals the connector logs
 * and leaves aside (no such table, a table outside the captured ones, a blocking snapshot, data that is not JSON, an
 * unknown type): none of them may start a snapshot.
 */
enum SimulatedSignal {
    EXECUTE_T0("execute-snapshot", "{\"data-collections\": [\"public.t0\"], \"type\": \"incremental\"}", Set.of(Table.T0), Set.of()),
    EXECUTE_T1("execute-snapshot", "{\"data-collections\": [\"public.t1\"]}", Set.of(Table.T1), Set.of()),
    EXECUTE_T0_T1("execute-snapshot", "{\"data-collections\": [\"public.t1\", \"public.t0\"]}", Set.of(Table.T0, Table.T1), Set.of()),
    /** A regular expression: t2 only while it is captured. */
    EXECUTE_ALL("execute-snapshot", "{\"data-collections\": [\"public\\\\.t[0-2]\"]}", Set.of(Table.T0, Table.T1, Table.T2), Set.of()),
    EXECUTE_T2("execute-snapshot", "{\"data-collections\": [\"public.t2\"]}", Set.of(Table.T2), Set.of()),
    /** Rows of t0 whose id is below 25 only. */
    EXECUTE_T0_FILTERED("execute-snapshot", "{\"data-collections\": [\"public.t0\"], \"additional-conditions\":"
            + " [{\"data-collection\": \"public.t0\", \"filter\": \"id < 25\"}]}", Set.of(Table.T0), Set.of()),
    STOP_T0("stop-snapshot", "{\"data-collections\": [\"public.t0\"]}", Set.of(), Set.of(Table.T0)),
    STOP_T1("stop-snapshot", "{\"data-collections\": [\"public.t1\"]}", Set.of(), Set.of(Table.T1)),
    STOP_ALL("stop-snapshot", "{}", Set.of(), Set.of(Table.T0, Table.T1, Table.T2)),
    PAUSE("pause-snapshot", null, Set.of(), Set.of()),
    RESUME("resume-snapshot", "", Set.of(), Set.of()),
    LOG("log", "{\"message\": \"simulated\"}", Set.of(), Set.of()),
    EXECUTE_UNKNOWN_TABLE("execute-snapshot", "{\"data-collections\": [\"public.nosuch\"]}", Set.of(), Set.of()),
    /** x0 is in the publication but not in table.include.list: not captured, so not a table a signal may name. */
    EXECUTE_NOT_CAPTURED("execute-snapshot", "{\"data-collections\": [\"public.x0\"]}", Set.of(), Set.of()),
    EXECUTE_BLOCKING("execute-snapshot", "{\"data-collections\": [\"public.t0\"], \"type\": \"blocking\"}", Set.of(), Set.of()),
    NOT_JSON("execute-snapshot", "{\"data-collections\": [\"public.t0\"", Set.of(), Set.of()),
    UNKNOWN_TYPE("snapshot-everything", "{\"data-collections\": [\"public.t0\"]}", Set.of(), Set.of());

    /** The signal table as {@code signal.data.collection} names it. */
    static final String TABLE = "public." + Table.SIG.sqlName();
    /** {@code signal.message.prefix} of the runs with incremental snapshots. */
    static final String MESSAGE_PREFIX = "sim-signal";
    /** The one additional condition the catalogue uses, as the simulated database evaluates it. */
    private static final Map<String, IntPredicate> CONDITIONS = Map.of("id < 25", id -> id < 25);

    final String type;
    /** The data column: a JSON document, or null (SQL NULL). */
    final String data;
    /** The tables it asks an incremental snapshot of, when captured. */
    final Set<Table> executes;
    /** The tables it stops the snapshot of. */
    final Set<Table> stops;

    SimulatedSignal(String type, String data, Set<Table> executes, Set<Table> stops) {
        this.type = type;
        this.data = data;
        this.executes = executes;
        this.stops = stops;
    }

    static SimulatedSignal of(int ordinal) {
        return values()[ordinal];
    }

    /** The rows of a table its execute-snapshot reads, by id; every row without a condition. */
    IntPredicate rows() {
        return this == EXECUTE_T0_FILTERED ? CONDITIONS.get("id < 25") : id -> true;
    }

    /** The simulated database's reading of an additional condition, or null when it cannot evaluate it. */
    static IntPredicate condition(String sql) {
        return CONDITIONS.get(sql);
    }

    /** The signal as a logical decoding message carries it: the whole document. */
    String document() {
        return "{\"type\": \"" + type + "\"" + (data == null || data.isEmpty() ? "" : ", \"data\": " + data) + "}";
    }

    /** Debezium's id column of the signal table: unique per row, as the table's primary key demands. */
    static String id(SimulatedWal.Record record) {
        return "sig-" + record.start();
    }
}

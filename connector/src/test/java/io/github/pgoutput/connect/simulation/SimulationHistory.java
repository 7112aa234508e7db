package io.github.pgoutput.connect.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.pgoutput.pgoutput.Lsn;

/**
 * The WAL history of one simulation run, before LSNs are given: what each transaction (or standalone record) does,
 * and the order in which their WAL records interleave. {@link #layout()} writes it as a {@link SimulatedWal}.
 *
 * <p>Why two stages: the shrinker drops whole items ({@link #without}) and lays the rest out again, so LSNs stay
 * contiguous (a record starts where the previous one ended, as in PostgreSQL, docs/pgoutput-protocol.md §7.8) and every transaction stays
 * consistent with itself. Immutable.
 *
 * @param items the transactions and standalone records, by id (index)
 * @param order one entry per WAL record: the id of the item whose next record comes there
 */
record SimulationHistory(List<Item> items, List<Integer> order) {

    /**
     * The simulated tables. Only {@link #checked} tables are captured by every configuration of a run. {@link #SIG} is
     * the signal table of the runs with incremental snapshots ({@code signal.data.collection}): in the publication,
     * outside table.include.list, its rows Debezium's id, type and data.
     */
    enum Table {
        T0(16401, true, true), T1(16402, true, true), T2(16403, true, false), X0(16404, true, false), U0(16405, false, false),
        SIG(16406, true, false);

        final long oid;
        /** In the publication: PostgreSQL sends its changes (the connector may still filter them out). */
        final boolean published;
        /** In table.include.list in every configuration, so the oracle demands all its committed changes. */
        final boolean checked;

        Table(long oid, boolean published, boolean checked) {
            this.oid = oid;
            this.published = published;
            this.checked = checked;
        }

        String sqlName() {
            return name().toLowerCase();
        }
    }

    /**
     * What a change does. {@link #MESSAGE} and {@link #SIGNAL} are transactional logical messages, the latter with the
     * signal prefix ({@code signal.message.prefix}) and a signal as its content.
     */
    enum Op {
        INSERT, UPDATE, DELETE, MESSAGE, SIGNAL;

        boolean isMessage() {
            return this == MESSAGE || this == SIGNAL;
        }
    }

    /** How a transaction ends. */
    enum Ending { COMMIT, ABORT, PREPARE_COMMIT, PREPARE_ROLLBACK }

    /** One record of an item, before layout. */
    sealed interface Step permits ChangeStep, SubAbortStep, EndStep, MessageStep, AlterStep, SignalMessageStep {
    }

    /**
     * A change (or transactional logical message) of subtransaction {@code sub} (0 = top level);
     * {@code endsBlock}: the server streams the transaction's buffered changes after this one (docs/pgoutput-protocol.md §6.2).
     * A row of the signal table, and a signal message, carry the number of their {@link SimulatedSignal} as {@code row}.
     */
    record ChangeStep(Table table, Op op, int row, int sub, boolean endsBlock) implements Step {
    }

    /** ROLLBACK TO SAVEPOINT of subtransaction {@code sub}: its changes are undone (docs/pgoutput-protocol.md §6.4). */
    record SubAbortStep(int sub) implements Step {
    }

    /** COMMIT, ABORT, PREPARE TRANSACTION, COMMIT PREPARED or ROLLBACK PREPARED. */
    record EndStep(EndKind kind) implements Step {
    }

    enum EndKind { COMMIT, ABORT, PREPARE, COMMIT_PREPARED, ROLLBACK_PREPARED }

    /** A non-transactional pg_logical_emit_message (docs/pgoutput-protocol.md §6.8). */
    record MessageStep() implements Step {
    }

    /** A non-transactional pg_logical_emit_message with the signal prefix: {@link SimulatedSignal} number {@code signal}. */
    record SignalMessageStep(int signal) implements Step {
    }

    /** ALTER TABLE ... ADD COLUMN: later changes of the table have one column more, and PostgreSQL sends R again (6.9). */
    record AlterStep(Table table) implements Step {
    }

    /**
     * A transaction, or a standalone record (non-transactional message, ALTER TABLE) when {@code ending} is null.
     *
     * @param large  streamed in blocks when the session streams (protocol 2 or later, streaming on)
     * @param origin the transaction carries a replication origin (an Origin message follows its Begin)
     */
    record Item(int id, Ending ending, boolean large, boolean origin, List<Step> steps) {

        long xid() {
            return 700L + 10L * id;
        }

        long subXid(int sub) {
            return sub == 0 ? xid() : xid() + sub;
        }

        String gid() {
            return "gid-" + id;
        }

        boolean isTransaction() {
            return ending != null;
        }
    }

    /** The history without item {@code id} (its records leave the order too). */
    SimulationHistory without(int id) {
        List<Item> kept = new ArrayList<>(items);
        kept.set(id, null);
        return new SimulationHistory(kept, order.stream().filter(i -> i != id).collect(Collectors.toList()));
    }

    /** The item ids still present. */
    List<Integer> presentIds() {
        List<Integer> ids = new ArrayList<>();
        for (Item item : items) {
            if (item != null) {
                ids.add(item.id());
            }
        }
        return ids;
    }

    /** Gives every record its LSNs: contiguous, from 0/1000000, with sizes that depend on the record only. */
    SimulatedWal layout() {
        long next = 0x100_0000L;
        Map<Integer, Integer> taken = new HashMap<>();
        Map<SimulationHistory.Table, Integer> versions = new HashMap<>();
        List<SimulatedWal.Record> records = new ArrayList<>();
        for (int id : order) {
            Item item = items.get(id);
            int index = taken.merge(id, 1, Integer::sum) - 1;
            Step step = item.steps().get(index);
            int version = 0;
            if (step instanceof AlterStep alter) {
                versions.merge(alter.table(), 1, Integer::sum);
            } else if (step instanceof ChangeStep change) {
                version = versions.getOrDefault(change.table(), 0);
            }
            long size = 24 + 8L * ((id * 7 + index * 13) % 11);
            records.add(new SimulatedWal.Record(records.size(), item, index, step, Lsn.of(next), Lsn.of(next + size), version));
            next += size;
        }
        return new SimulatedWal(records);
    }

    /** The readable event script: one line per WAL record. */
    String describe() {
        StringBuilder out = new StringBuilder();
        for (SimulatedWal.Record record : layout().records()) {
            out.append("    ").append(record.describe()).append('\n');
        }
        return out.toString();
    }
}

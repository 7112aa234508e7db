package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.SlotInfo;
import io.github.pgoutput.snapshot.SnapshotException.Reason;
import io.github.pgoutput.snapshot.SnapshotPlan.Action;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The start-up decision when the stored offset to go on from is Debezium's ({@link StoredOffset.Debezium}): a Debezium
 * PostgreSQL connector whose {@code connector.class} was switched to this one in place, keeping its name, slot and
 * topics. Pure.
 *
 * <p>Debezium's offset is a position in the slot the connector's configuration names, so the task streams from it
 * whatever {@code snapshot.mode} says, as it does from an offset of its own: a mode says what to do when there is no
 * position. That needs the slot to decode with pgoutput in the configured database. Which slot position the stream
 * then starts at is PostgreSQL's rule (the later of the requested LSN and the slot's {@code confirmed_flush_lsn}), and
 * every relation between the two is one Debezium leaves behind:
 * <ul>
 *   <li>equal: Debezium stopped cleanly, and confirmed the position of its last stored offset;</li>
 *   <li>the slot behind the offset: Debezium's worker stopped between Connect storing an offset and Debezium confirming
 *       it to the slot (Debezium confirms on the poll after Connect's offset commit), or {@code flush.lsn.source} is
 *       false. PostgreSQL sends the transactions in between again, and the task skips what the offset shows in Kafka;</li>
 *   <li>the slot ahead of the offset: Debezium confirms the offsets of the records Kafka has acknowledged, which may
 *       be newer than the last offset Connect stored, so after its worker crashed the transactions in between are in
 *       Kafka already.</li>
 * </ul>
 * None of them shows that another consumer moved the slot, so none is refused; the reason says which one was seen.
 * What shows the slot is this connector's is what the configuration says (the same {@code slot.name} as Debezium's) and
 * that nothing but this connector's previous task holds it: a slot held by anything else is refused when a session
 * opens ({@code slot.max.retries}), and never taken.
 *
 * <p>Refused, with the choices in the message ({@link Reason#DEBEZIUM_OFFSET}): a slot of another output plugin or
 * database; an unfinished Debezium snapshot (this connector cannot continue it, and cannot take one of its own without
 * a slot created for it, while the slot holds Debezium's position), except under {@code no_data}, which streams from
 * the slot where it stands; an unfinished incremental snapshot, in every mode (its remaining rows would be left out
 * silently). A missing or invalidated slot is what it is for an offset of this connector's own
 * ({@link SnapshotPlanner}): only {@code when_needed} takes a fresh snapshot.
 */
public final class DebeziumHandover {

    private static final String PLUGIN = "pgoutput";
    private static final String DEBEZIUM_CLASS = StoredOffset.Debezium.CONNECTOR_CLASS;

    private DebeziumHandover() {
    }

    /**
     * @param slot     the slot named {@code slotName}, if it exists
     * @param database the configured database, which a logical slot must belong to
     * @throws SnapshotException {@link Reason#DEBEZIUM_OFFSET} for the refusals above; {@link Reason#MODE_CONFLICT}
     *                           when the slot is missing or invalidated and the mode is not {@code when_needed}
     */
    public static SnapshotPlan decide(SnapshotMode mode, StoredOffset.Debezium offset, Optional<SlotInfo> slot, String slotName,
                                      String database) {
        Objects.requireNonNull(offset, "offset");
        String found = "Debezium's stored offset " + offset.described();
        if (offset.snapshot() == StoredOffset.DebeziumSnapshot.INCREMENTAL_IN_PROGRESS) {
            throw new SnapshotException(Reason.DEBEZIUM_OFFSET, found + " says an incremental snapshot is under way. This connector"
                    + " cannot continue Debezium's incremental snapshot, and streaming on without it would leave its remaining rows out"
                    + " silently. Choose one: put Debezium back (connector.class " + DEBEZIUM_CLASS + ") until the incremental snapshot"
                    + " has finished (or stop it with a stop-snapshot signal), then switch again; or stop this connector, remove the"
                    + " incremental_snapshot_* fields from Debezium's offset (PATCH /connectors/<name>/offsets), resume it, and send it an"
                    + " execute-snapshot signal for those tables");
        }
        if (slot.isPresent()) {
            String foreign = foreign(slot.get(), slotName, database);
            if (foreign != null) {
                throw new SnapshotException(Reason.DEBEZIUM_OFFSET, found + " is a position in replication slot '" + slotName + "', but "
                        + foreign + ", so this connector cannot continue from it. Run this connector on a slot of its own: set slot.name"
                        + " to a new name and snapshot.mode=initial (a fresh snapshot, whose rows reach Kafka again), and drop Debezium's"
                        + " slot once nothing needs it, as it keeps WAL until then (see docs/migrating-from-debezium.md)");
            }
        }
        if (offset.snapshot() == StoredOffset.DebeziumSnapshot.IN_PROGRESS) {
            return unfinishedSnapshot(mode, found, slot, slotName);
        }
        if (mode == SnapshotMode.INITIAL_ONLY) {
            return new SnapshotPlan(Action.IDLE, false, found + " shows its snapshot finished; snapshot.mode initial_only streams"
                    + " nothing");
        }
        if (slot.isEmpty() || slot.get().isLost()) {
            return lostPosition(mode, found, offset, slot.isPresent(), slotName);
        }
        SlotInfo usable = slot.get();
        return new SnapshotPlan(Action.STREAM, false, found + ": streaming continues after " + describe(offset)
                + " without a snapshot (" + relation(offset, usable, slotName) + "; snapshot.mode " + configValue(mode)
                + " is for a connector without a stored position, and Debezium's offset is one). Offsets of this connector"
                + " are stored under its own partition from the first record on");
    }

    /** Why {@code slot} cannot carry this connector's stream, or null when it can. */
    private static String foreign(SlotInfo slot, String slotName, String database) {
        if (!"logical".equals(slot.slotType())) {
            return "it is a " + slot.slotType() + " slot";
        }
        if (!PLUGIN.equals(slot.plugin())) {
            return "it decodes with the output plugin '" + slot.plugin() + "' (Debezium's plugin.name), and this connector reads "
                    + PLUGIN + " only";
        }
        if (!database.equals(slot.database())) {
            return "it belongs to database '" + slot.database() + "', not '" + database + "'";
        }
        return null;
    }

    private static SnapshotPlan unfinishedSnapshot(SnapshotMode mode, String found, Optional<SlotInfo> slot, String slotName) {
        if (mode == SnapshotMode.NO_DATA) {
            return new SnapshotPlan(Action.STREAM, slot.isPresent() && slot.get().isLost(), found + " says its snapshot did not finish;"
                    + " snapshot.mode no_data: the unfinished snapshot is abandoned, streaming starts where replication slot '" + slotName
                    + "' stands");
        }
        throw new SnapshotException(Reason.DEBEZIUM_OFFSET, found + " says its snapshot did not finish. This connector cannot continue"
                + " Debezium's snapshot, and cannot take one of its own without a slot created for it, while replication slot '" + slotName
                + "' holds Debezium's position (snapshot.mode is " + configValue(mode) + "). Choose one: put Debezium back (connector.class "
                + DEBEZIUM_CLASS + ") until its snapshot has finished, then switch again; or set snapshot.mode=no_data to stream from"
                + " the slot where it stands, without the rows the snapshot did not reach; or start this connector afresh (stop it,"
                + " delete its offsets with DELETE /connectors/<name>/offsets, drop the slot if nothing else needs it, and resume it:"
                + " snapshot.mode=initial then takes a snapshot, whose rows reach Kafka again)");
    }

    /** The slot Debezium streamed from is gone or invalidated: as for an offset of this connector's own. */
    private static SnapshotPlan lostPosition(SnapshotMode mode, String found, StoredOffset.Debezium offset, boolean lost, String slotName) {
        String problem = lost ? "replication slot '" + slotName + "' was invalidated (wal_status = lost): the WAL it needed was removed"
                : "replication slot '" + slotName + "' does not exist (Debezium drops its slot when its task stops with"
                + " slot.drop.on.stop=true; or slot.name names another slot than Debezium's, whose default is 'debezium')";
        if (mode == SnapshotMode.WHEN_NEEDED) {
            return new SnapshotPlan(Action.SNAPSHOT_THEN_STREAM, lost, found + ", but " + problem + ": snapshot again (snapshot.mode"
                    + " when_needed)");
        }
        throw new SnapshotException(Reason.MODE_CONFLICT, found + ", but " + problem + ", so the changes after " + describe(offset)
                + " cannot be streamed and would be lost. Set snapshot.mode=when_needed to take a fresh consistent snapshot and stream"
                + " from there (snapshot.mode is " + configValue(mode) + ")");
    }

    private static String describe(StoredOffset.Debezium offset) {
        return offset.resumeLsn().isValid() ? "the transaction that ended at " + offset.resumeLsn()
                : "the start of the stream (Debezium had completed no streamed transaction)";
    }

    /** How the slot's confirmed position relates to the offset, in the words of the class comment. */
    private static String relation(StoredOffset.Debezium offset, SlotInfo slot, String slotName) {
        String at = "replication slot '" + slotName + "' is confirmed at " + slot.confirmedFlushLsn();
        if (!offset.resumeLsn().isValid()) {
            return at;
        }
        int order = slot.confirmedFlushLsn().compareTo(offset.resumeLsn());
        if (order == 0) {
            return at + ", where Debezium's offset is: Debezium stopped cleanly";
        }
        if (order < 0) {
            return at + ", before Debezium's offset: PostgreSQL sends the transactions in between again, and what Debezium's offset"
                    + " shows in Kafka is skipped";
        }
        return at + ", past Debezium's offset: Debezium confirms what Kafka acknowledged before Connect stored its offset, so after"
                + " its worker stopped abruptly the transactions in between are in Kafka already; streaming starts at the slot's position";
    }

    private static String configValue(SnapshotMode mode) {
        return mode.name().toLowerCase(Locale.ROOT);
    }
}

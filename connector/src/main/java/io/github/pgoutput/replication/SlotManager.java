package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Looks up, creates, drops and measures the logical replication slot over a normal SQL connection: the one place
 * that writes SQL about slots. Stateless; thread-safe as long as callers do not share a {@link Connection}.
 */
public final class SlotManager {

    private SlotManager() {
    }

    /** The slot named {@code slotName}, if it exists (in any database). */
    public static Optional<SlotInfo> find(Connection sql, String slotName) throws SQLException {
        try (PreparedStatement st = sql.prepareStatement(
                "SELECT slot_name, plugin, slot_type, database, active_pid, two_phase, confirmed_flush_lsn::text, restart_lsn::text,"
                        + " wal_status FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slotName);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new SlotInfo(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5),
                        rs.getBoolean(6), lsnOrInvalid(rs.getString(7)), lsnOrInvalid(rs.getString(8)), rs.getString(9)));
            }
        }
    }

    /**
     * Creates a logical slot for pgoutput in the connection's database, with two-phase decoding when asked.
     *
     * <p>The SQL function takes the two-phase flag as its fourth argument on every supported version (15-18), unlike
     * the replication command whose syntax changed in 15 and which pgjdbc's builder cannot send with TWO_PHASE
     * (docs/pgoutput-protocol.md §5.3, 8.5). A slot that exists without two-phase gets it the first time a session starts with
     * {@code two_phase 'on'}. Creating a slot waits until every transaction open at that moment has ended, prepared
     * ones included.
     */
    public static SlotInfo create(Connection sql, String slotName, boolean twoPhase) throws SQLException {
        return create(sql, slotName, twoPhase, false);
    }

    /**
     * {@link #create(Connection, String, boolean)}, as a failover slot when {@code failover}: PostgreSQL 17 added the
     * function's fifth argument for it; without failover the call is the four-argument one every version knows.
     */
    public static SlotInfo create(Connection sql, String slotName, boolean twoPhase, boolean failover) throws SQLException {
        Identifiers.requireValidSlotName(slotName);
        try (PreparedStatement st = sql.prepareStatement(createSlotQuery(failover))) {
            st.setString(1, slotName);
            st.setBoolean(2, twoPhase);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
            }
        }
        return find(sql, slotName).orElseThrow(() -> new IllegalStateException("slot " + slotName + " vanished right after it was created"));
    }

    static String createSlotQuery(boolean failover) {
        return "SELECT lsn::text FROM pg_create_logical_replication_slot(?, 'pgoutput', false, ?" + (failover ? ", true" : "") + ")";
    }

    /** {@link #find} over a connection of its own. */
    public static Optional<SlotInfo> find(ReplicationSettings settings) throws SQLException {
        try (Connection sql = PgConnections.openSql(settings)) {
            return find(sql, settings.slotName());
        }
    }

    /**
     * Drops the slot named {@code slotName} if it exists; a missing slot is no error. Fails with SQLState 55006 while
     * a walsender holds the slot.
     */
    public static void drop(Connection sql, String slotName) throws SQLException {
        try (PreparedStatement st = sql.prepareStatement(
                "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slotName);
            st.execute();
        }
    }

    /** {@link #drop(Connection, String)} of {@code settings.slotName()}, over a connection of its own. */
    public static void drop(ReplicationSettings settings) throws SQLException {
        try (Connection sql = PgConnections.openSql(settings)) {
            drop(sql, settings.slotName());
        }
    }

    /**
     * How many bytes of WAL the slot retains: {@code pg_current_wal_lsn() - restart_lsn}.
     *
     * @return the bytes, -1 when the slot reserves no WAL (no restart_lsn), or empty when there is no such slot
     */
    public static OptionalLong retainedWalBytes(Connection sql, String slotName) throws SQLException {
        try (PreparedStatement st = sql.prepareStatement("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint"
                + " FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slotName);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return OptionalLong.empty();
                }
                long bytes = rs.getLong(1);
                return OptionalLong.of(rs.wasNull() ? -1 : bytes);
            }
        }
    }

    private static Lsn lsnOrInvalid(String text) {
        return text == null ? Lsn.INVALID : Lsn.parse(text);
    }
}

package io.github.pgoutput.replication;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * PostgreSQL 17's failover slots: whether the server has them, the replication command that turns the option on for
 * an existing slot, and what the primary shows about a failover being safe. Stateless; every method uses only the
 * connection it is given or opens its own.
 *
 * <p>A failover slot is copied to standbys that run with {@code sync_replication_slots = on}, so a promoted standby
 * can go on serving it. What the primary cannot show is whether a standby has copied the slot yet: that is visible
 * only on the standby ({@code pg_replication_slots.synced}). The primary shows the preconditions, which
 * {@link #warnings} names: the slot's {@code failover} flag, physical standbys streaming from it
 * ({@code pg_stat_replication} rows of walsenders without a database), {@code synchronized_standby_slots} (without
 * it the logical slot may confirm WAL a standby has not received, so Kafka can get changes the promoted standby never
 * had), and whether each physical slot listed there exists and is in use (logical walsenders wait for those slots, so
 * a missing or idle one stalls streaming).
 */
public final class FailoverSlots {

    /** The first major version with failover slots ({@code failover} slot option, ALTER_REPLICATION_SLOT). */
    public static final int FIRST_VERSION = 17;

    private FailoverSlots() {
    }

    /**
     * A physical slot listed in {@code synchronized_standby_slots}, as {@code pg_replication_slots} shows it.
     *
     * @param exists whether a physical slot of that name exists
     * @param active whether a walsender (a standby) uses it now
     */
    public record StandbySlot(String name, boolean exists, boolean active) {
    }

    /**
     * What the primary shows about a failover of the slot. Immutable.
     *
     * @param serverMajor              the server's major version
     * @param failoverSlot             the slot's {@code failover} flag; false below 17 and when there is no slot
     * @param physicalStandbys         walsenders streaming WAL to a standby ({@code pg_stat_replication}, no database)
     * @param synchronizedStandbySlots the setting as the server has it; empty when unset or below 17
     * @param standbySlots             the slots listed in it, in its order
     */
    public record Readiness(int serverMajor, boolean failoverSlot, int physicalStandbys, String synchronizedStandbySlots,
                            List<StandbySlot> standbySlots) {
        public Readiness {
            standbySlots = List.copyOf(standbySlots);
        }
    }

    /** The refusal of failover slots by a server older than 17, naming the version and the fix. */
    public static String unsupportedMessage(int serverMajor) {
        return "slot.failover=true asks for a failover slot, but the server is PostgreSQL " + serverMajor + " and failover slots"
                + " exist from PostgreSQL " + FIRST_VERSION + " on; upgrade the server to " + FIRST_VERSION
                + " or later, or set slot.failover=false";
    }

    /** @throws ReplicationSetupException on {@link Setting#SLOT_FAILOVER} when failover is asked for below 17 */
    public static void requireSupported(ReplicationSettings settings, int serverMajor) {
        if (settings.failover() && serverMajor < FIRST_VERSION) {
            throw new ReplicationSetupException(Setting.SLOT_FAILOVER, unsupportedMessage(serverMajor));
        }
    }

    /**
     * The replication command that makes an existing slot a failover slot. There is no SQL function for it in
     * PostgreSQL 17 or 18, only this walsender command; it waits while another walsender holds the slot.
     */
    static String enableCommand(String slotName) {
        Identifiers.requireValidSlotName(slotName);
        return "ALTER_REPLICATION_SLOT " + slotName + " (FAILOVER true)";
    }

    /** Turns the failover option on for {@code settings.slotName()}, over a replication connection of its own. */
    static void enable(ReplicationSettings settings) throws SQLException {
        try (Connection replication = PgConnections.openReplication(settings); Statement st = replication.createStatement()) {
            st.execute(enableCommand(settings.slotName()));
        }
    }

    /** The slot's {@code failover} flag; false below 17 (no such column) and when there is no such slot. */
    static boolean isFailoverSlot(Connection sql, String slotName, int serverMajor) throws SQLException {
        if (serverMajor < FIRST_VERSION) {
            return false;
        }
        try (PreparedStatement st = sql.prepareStatement("SELECT failover FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slotName);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /** Reads what the primary shows about a failover of {@code slotName}. Changes nothing. */
    public static Readiness inspect(Connection sql, String slotName, int serverMajor) throws SQLException {
        boolean failoverSlot = isFailoverSlot(sql, slotName, serverMajor);
        int standbys;
        // Physical walsenders have no database; logical ones (this connector's included) have one. Base backups are no standby.
        try (Statement st = sql.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_replication r"
                + " JOIN pg_stat_activity a ON a.pid = r.pid WHERE a.datid IS NULL AND r.state IS DISTINCT FROM 'backup'")) {
            rs.next();
            standbys = rs.getInt(1);
        }
        String listed = "";
        List<StandbySlot> slots = new ArrayList<>();
        if (serverMajor >= FIRST_VERSION) {
            try (Statement st = sql.createStatement();
                 ResultSet rs = st.executeQuery("SELECT current_setting('synchronized_standby_slots', true)")) {
                rs.next();
                listed = rs.getString(1) == null ? "" : rs.getString(1).trim();
            }
            for (String name : slotNames(listed)) {
                try (PreparedStatement st = sql.prepareStatement(
                        "SELECT active FROM pg_replication_slots WHERE slot_name = ? AND slot_type = 'physical'")) {
                    st.setString(1, name);
                    try (ResultSet rs = st.executeQuery()) {
                        slots.add(rs.next() ? new StandbySlot(name, true, rs.getBoolean(1)) : new StandbySlot(name, false, false));
                    }
                }
            }
        }
        return new Readiness(serverMajor, failoverSlot, standbys, listed, slots);
    }

    /** The slot names of a {@code synchronized_standby_slots} value: comma-separated, optionally double-quoted. */
    static List<String> slotNames(String setting) {
        if (setting == null || setting.isBlank()) {
            return List.of();
        }
        return Arrays.stream(setting.split(",")).map(String::trim).map(n -> n.length() >= 2 && n.startsWith("\"") && n.endsWith("\"")
                ? n.substring(1, n.length() - 1) : n).filter(n -> !n.isEmpty()).toList();
    }

    /**
     * What stands in the way of a safe failover, one message each; empty when nothing does or failover slots do not
     * exist on the server. Pure.
     *
     * <p>With {@code failoverAsked} false, only a slot that is no failover slot while standbys stream from the
     * server is named: a failover then leaves the connector without its slot. The other checks concern failover
     * slots only.
     */
    public static List<String> warnings(String slotName, boolean failoverAsked, Readiness r) {
        List<String> warnings = new ArrayList<>();
        if (r.serverMajor() < FIRST_VERSION) {
            return warnings;
        }
        if (!r.failoverSlot()) {
            if (r.physicalStandbys() > 0) {
                warnings.add("slot '" + slotName + "' is not a failover slot, but " + r.physicalStandbys() + " standby(s) stream from"
                        + " this server (pg_stat_replication): a promoted standby has no copy of the slot, so the connector cannot"
                        + " continue there without losing changes; set slot.failover=true");
            }
            if (!failoverAsked) {
                return warnings;
            }
        }
        if (r.synchronizedStandbySlots().isEmpty()) {
            warnings.add("synchronized_standby_slots is empty on this server: slot '" + slotName + "' can confirm changes no standby has"
                    + " received yet, so after a failover Kafka may hold changes the promoted standby never had; list the standbys'"
                    + " physical slots in it (ALTER SYSTEM SET synchronized_standby_slots = 'standby_slot'; SELECT pg_reload_conf())");
        }
        if (r.physicalStandbys() == 0) {
            warnings.add("no standby streams from this server (pg_stat_replication has no physical walsender), so no standby can"
                    + " have synchronized failover slot '" + slotName + "'; a standby needs primary_slot_name, hot_standby_feedback=on,"
                    + " sync_replication_slots=on and a dbname in primary_conninfo");
        }
        for (StandbySlot s : r.standbySlots()) {
            if (!s.exists()) {
                warnings.add("synchronized_standby_slots lists '" + s.name() + "', but there is no physical slot of that name: logical"
                        + " walsenders wait for the slots listed there, so streaming stalls; create the standby's slot"
                        + " (SELECT pg_create_physical_replication_slot('" + s.name() + "')) or remove it from the list");
            } else if (!s.active()) {
                warnings.add("physical slot '" + s.name() + "' (in synchronized_standby_slots) is not in use by a standby: logical"
                        + " walsenders wait until it confirms WAL, so streaming stalls while that standby is down");
            }
        }
        return warnings;
    }

    /**
     * The warning for turning two_phase on for an existing failover slot while transactions are already prepared in
     * its database ({@code preparedGids}, their GIDs), or empty when there is nothing to warn about. PostgreSQL 17 (seen
     * on 17.6) does not copy the slot's {@code two_phase_at} to a standby's synced copy. A transaction prepared before
     * two_phase was on is sent whole at its COMMIT PREPARED by the primary, but a promoted 17 standby takes its prepare
     * for one already sent and sends only the outcome: its changes never reach Kafka. 18 copies two_phase_at.
     */
    public static Optional<String> twoPhaseSwitchWarning(String slotName, int serverMajor, List<String> preparedGids) {
        if (serverMajor != FIRST_VERSION || preparedGids.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("slot '" + slotName + "' becomes two-phase now (prepared.transaction.mode=stage) while "
                + preparedGids.size() + " transaction(s) are already prepared in its database (GIDs " + String.join(", ", preparedGids)
                + "): PostgreSQL 17 does not copy two_phase_at to a standby's synced slot, so if the primary fails over before"
                + " they are committed, COMMIT PREPARED on the promoted standby sends only the outcome and their changes never"
                + " reach Kafka; commit or roll them back before a failover (PostgreSQL 18 is not affected)");
    }

    /** The GIDs of the transactions prepared in the connection's database, oldest first. */
    static List<String> preparedGids(Connection sql) throws SQLException {
        List<String> gids = new ArrayList<>();
        try (Statement st = sql.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT gid FROM pg_prepared_xacts WHERE database = current_database() ORDER BY prepared")) {
            while (rs.next()) {
                gids.add(rs.getString(1));
            }
        }
        return gids;
    }
}

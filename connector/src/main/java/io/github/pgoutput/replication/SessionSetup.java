package io.github.pgoutput.replication;

import io.github.pgoutput.replication.ProtocolNegotiation.NegotiatedProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The work before START_REPLICATION, done over a short-lived normal connection: checks, publication, slot. */
final class SessionSetup {

    private static final Logger LOG = LoggerFactory.getLogger(SessionSetup.class);

    /** The guard interval is capped at this fraction of wal_sender_timeout, leaving room for scheduling delays. */
    private static final int GUARD_FRACTION_OF_TIMEOUT = 4;

    /** @param failover what the server showed about a failover of the slot; null when it could not be read */
    record Prepared(int serverMajorVersion, NegotiatedProtocol protocol, SlotInfo slot, Duration keepaliveGuardInterval,
                    FailoverSlots.Readiness failover) {
    }

    private SessionSetup() {
    }

    static Prepared prepare(ReplicationSettings settings) {
        try (Connection sql = PgConnections.openSql(settings)) {
            int major = PreflightChecks.serverMajorVersion(sql);
            NegotiatedProtocol protocol = ProtocolNegotiation.negotiate(settings, major);
            List<PreflightChecks.Problem> problems = PreflightChecks.check(sql, settings);
            PreflightChecks.requireNoFatal(problems);
            if (!problems.isEmpty()) {
                // Only retriable problems are left (slot held by another walsender, no free walsender); START would fail.
                PreflightChecks.Problem first = problems.get(0);
                if (first.setting() == Setting.SLOT_NAME) {
                    throw ReplicationConnectionLostException.slotInUse(first.message(), null);
                }
                throw new ReplicationConnectionLostException(first.setting(), first.message(), null);
            }
            if (!PublicationManager.exists(sql, settings.publicationName())) {
                PublicationManager.create(sql, settings.publicationName(), settings.publicationMode(), settings.publicationTables(),
                        settings.publicationColumns());
                LOG.info("Created publication {} ({}{})", settings.publicationName(), settings.publicationMode(),
                        settings.publicationTables().isEmpty() ? "" : " " + settings.publicationTables());
            }
            Optional<SlotInfo> existing = SlotManager.find(sql, settings.slotName());
            SlotInfo slot;
            if (existing.isPresent()) {
                slot = existing.get();
                if (settings.failover() && !FailoverSlots.isFailoverSlot(sql, settings.slotName(), major)) {
                    FailoverSlots.enable(settings);
                    LOG.info("Turned failover on for the existing replication slot {} (ALTER_REPLICATION_SLOT, slot.failover=true)",
                            settings.slotName());
                }
                if (settings.twoPhase() && !slot.twoPhase()) {
                    warnOfTwoPhaseSwitch(sql, settings, major);
                }
            } else {
                slot = SlotManager.create(sql, settings.slotName(), settings.twoPhase(), settings.failover());
                LOG.info("Created logical replication slot {} at {} (two_phase {}{})", slot.slotName(), slot.confirmedFlushLsn(),
                        slot.twoPhase(), settings.failover() ? ", failover" : "");
            }
            return new Prepared(major, protocol, slot, guardInterval(sql, settings.keepaliveGuardInterval()),
                    failoverReadiness(sql, settings, major));
        } catch (SQLException e) {
            throw SqlErrors.classify(e, "preparing replication from slot '" + settings.slotName() + "' on "
                    + ServerAddresses.describe(settings.host(), settings.port()) + "/" + settings.database(), Setting.HOSTNAME);
        }
    }

    /**
     * Reads and logs, as warnings, what stands in the way of a safe failover ({@link FailoverSlots#warnings}). A
     * failure to read it is logged and does not stop the session: it is advice, not a precondition.
     */
    private static FailoverSlots.Readiness failoverReadiness(Connection sql, ReplicationSettings settings, int major) {
        try {
            FailoverSlots.Readiness readiness = FailoverSlots.inspect(sql, settings.slotName(), major);
            for (String warning : FailoverSlots.warnings(settings.slotName(), settings.failover(), readiness)) {
                LOG.warn("Failover readiness: {}", warning);
            }
            return readiness;
        } catch (SQLException e) {
            LOG.debug("Slot {}: reading the failover readiness failed: {}", settings.slotName(), e.getMessage());
            return null;
        }
    }

    /**
     * START_REPLICATION with two_phase is about to turn two_phase on for the existing slot: on PostgreSQL 17 a
     * failover slot then puts the transactions already prepared at risk ({@link FailoverSlots#twoPhaseSwitchWarning}).
     * Advice only: a failure to read it is logged at DEBUG.
     */
    private static void warnOfTwoPhaseSwitch(Connection sql, ReplicationSettings settings, int major) {
        if (major != FailoverSlots.FIRST_VERSION) {
            return;
        }
        try {
            if (FailoverSlots.isFailoverSlot(sql, settings.slotName(), major)) {
                FailoverSlots.twoPhaseSwitchWarning(settings.slotName(), major, FailoverSlots.preparedGids(sql))
                        .ifPresent(warning -> LOG.warn("Failover readiness: {}", warning));
            }
        } catch (SQLException e) {
            LOG.debug("Slot {}: reading the prepared transactions failed: {}", settings.slotName(), e.getMessage());
        }
    }

    /** The configured guard, shortened so the keeper answers well within the server's wal_sender_timeout. */
    private static Duration guardInterval(Connection sql, Duration configured) throws SQLException {
        try (PreparedStatement st = sql.prepareStatement("SELECT setting::bigint FROM pg_settings WHERE name = 'wal_sender_timeout'");
             ResultSet rs = st.executeQuery()) {
            long timeoutMs = rs.next() ? rs.getLong(1) : 0;
            if (timeoutMs <= 0) {
                return configured; // 0 turns the server's timeout off
            }
            Duration cap = Duration.ofMillis(Math.max(1, timeoutMs / GUARD_FRACTION_OF_TIMEOUT));
            return cap.compareTo(configured) < 0 ? cap : configured;
        }
    }
}

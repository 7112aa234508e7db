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

    record Prepared(int serverMajorVersion, NegotiatedProtocol protocol, SlotInfo slot, Duration keepaliveGuardInterval) {
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
                PublicationManager.create(sql, settings.publicationName(), settings.publicationMode(), settings.publicationTables());
                LOG.info("Created publication {} ({}{})", settings.publicationName(), settings.publicationMode(),
                        settings.publicationTables().isEmpty() ? "" : " " + settings.publicationTables());
            }
            Optional<SlotInfo> existing = SlotManager.find(sql, settings.slotName());
            SlotInfo slot;
            if (existing.isPresent()) {
                slot = existing.get();
            } else {
                slot = SlotManager.create(sql, settings.slotName(), settings.twoPhase());
                LOG.info("Created logical replication slot {} at {} (two_phase {})", slot.slotName(), slot.confirmedFlushLsn(), slot.twoPhase());
            }
            return new Prepared(major, protocol, slot, guardInterval(sql, settings.keepaliveGuardInterval()));
        } catch (SQLException e) {
            throw SqlErrors.classify(e, "preparing replication from slot '" + settings.slotName() + "' on " + settings.host() + ":"
                    + settings.port() + "/" + settings.database(), Setting.HOSTNAME);
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

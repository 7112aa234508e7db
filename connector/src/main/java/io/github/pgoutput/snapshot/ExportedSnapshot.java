package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.FailoverSlots;
import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.SqlStates;
import io.github.pgoutput.snapshot.SnapshotException.Reason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A logical slot created together with an exported snapshot, on a replication connection that is held open.
 *
 * <p>PostgreSQL keeps an exported snapshot importable only while the exporting walsender stays idle: the next command
 * on that connection, or its end, invalidates the snapshot. So this object sends nothing after the creation; the
 * caller imports the snapshot (see {@link SnapshotReader#start}) and then {@link #close() closes} it. Rows committed
 * before {@link #consistentPoint()} are in the snapshot; changes committed after it are what the slot streams.
 *
 * <p>Not thread-safe; close it from the thread that created it.
 */
public final class ExportedSnapshot implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ExportedSnapshot.class);

    private final Connection replication;
    private final boolean temporary;
    private final String slotName;
    private final Lsn consistentPoint;
    private final String snapshotName;

    private ExportedSnapshot(Connection replication, boolean temporary, String slotName, Lsn consistentPoint, String snapshotName) {
        this.replication = replication;
        this.temporary = temporary;
        this.slotName = slotName;
        this.consistentPoint = consistentPoint;
        this.snapshotName = snapshotName;
    }

    /**
     * Creates the slot {@code settings.slotName()} for pgoutput with an exported snapshot (and two-phase decoding when
     * {@code settings.twoPhase()}), in the command syntax of the server's version ({@link #createSlotCommand}); the
     * command is sent directly, since pgjdbc's builder cannot ask for TWO_PHASE (docs/pgoutput-protocol.md §5.3, 8.5).
     *
     * @param temporary true for a slot that disappears with this connection (for a snapshot without streaming)
     * @param timeout   how long slot creation may wait for open transactions; at most the connection's socket
     *                  timeout (60 s). Slot creation waits until every transaction that holds a transaction id when
     *                  it starts has ended, prepared transactions included.
     * @throws SnapshotException with {@link Reason#SLOT_CREATION_BLOCKED} naming the blocking backends and prepared
     *                           transactions when {@code timeout} passes
     * @throws SQLException      for any other failure (e.g. the slot exists already: SQLState 42710)
     */
    public static ExportedSnapshot create(ReplicationSettings settings, boolean temporary, Duration timeout) throws SQLException {
        return create(settings, settings.slotName(), temporary, settings.twoPhase(), timeout);
    }

    /**
     * A temporary slot named {@code slotName}, made only for its exported snapshot (a resumed snapshot's: the
     * connector's own slot keeps its position), without two-phase decoding.
     */
    public static ExportedSnapshot createForSnapshotOnly(ReplicationSettings settings, String slotName, Duration timeout) throws SQLException {
        return create(settings, slotName, true, false, timeout);
    }

    private static ExportedSnapshot create(ReplicationSettings settings, String slotName, boolean temporary, boolean twoPhase,
                                           Duration timeout) throws SQLException {
        Objects.requireNonNull(settings, "settings");
        Connection replication = PgConnections.openReplication(settings);
        try (Statement st = replication.createStatement()) {
            // From the server_version the server reported at connection start: no query on the walsender.
            int serverMajor = replication.getMetaData().getDatabaseMajorVersion();
            FailoverSlots.requireSupported(settings, serverMajor);
            // A temporary slot cannot be a failover slot (PostgreSQL refuses it): it ends with this connection anyway.
            boolean failover = settings.failover() && !temporary;
            String command = createSlotCommand(slotName, temporary, twoPhase, failover, serverMajor);
            st.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
            try (ResultSet rs = st.executeQuery(command)) {
                rs.next();
                ExportedSnapshot exported = new ExportedSnapshot(replication, temporary, rs.getString("slot_name"),
                        Lsn.parse(rs.getString("consistent_point")), rs.getString("snapshot_name"));
                LOG.info("Created {}replication slot {} at consistent point {} with exported snapshot {}{}", temporary ? "temporary " : "",
                        exported.slotName, exported.consistentPoint, exported.snapshotName, failover ? " (failover)" : "");
                return exported;
            }
        } catch (SQLException e) {
            closeQuietly(replication);
            if (SqlStates.QUERY_CANCELED.equals(e.getSQLState())) {
                throw new SnapshotException(Reason.SLOT_CREATION_BLOCKED, "creating replication slot '" + slotName
                        + "' with an exported snapshot did not finish within " + timeout.toSeconds() + " s: slot creation waits until"
                        + " every transaction open when it began has ended, prepared transactions included. Still open: "
                        + describeBlockers(settings) + ". End them (COMMIT/ROLLBACK, COMMIT PREPARED/ROLLBACK PREPARED 'gid',"
                        + " or pg_terminate_backend(pid)) and start again", e);
            }
            throw e;
        } catch (RuntimeException e) {
            closeQuietly(replication);
            throw e;
        }
    }

    /**
     * The {@code CREATE_REPLICATION_SLOT} command for a pgoutput slot with an exported snapshot. PostgreSQL 15 added the
     * parenthesized option list, and TWO_PHASE exists only there; PostgreSQL 14 knows only the older form
     * {@code ... LOGICAL pgoutput EXPORT_SNAPSHOT}, which it gets here (15 and later still accept it, but take the
     * documented form).
     *
     * @param serverMajor the server's major version, 14 or later
     * @throws IllegalArgumentException for two-phase decoding before PostgreSQL 15 (refused earlier, by the protocol
     *                                  negotiation, with a message naming the setting)
     */
    static String createSlotCommand(String slotName, boolean temporary, boolean twoPhase, int serverMajor) {
        return createSlotCommand(slotName, temporary, twoPhase, false, serverMajor);
    }

    /**
     * {@link #createSlotCommand(String, boolean, boolean, int)} with the FAILOVER option (PostgreSQL 17+) when
     * {@code failover}, which pgjdbc's builder cannot ask for either.
     *
     * @throws IllegalArgumentException for failover before PostgreSQL 17 (refused earlier with a message naming the
     *                                  setting, {@link FailoverSlots#requireSupported})
     */
    static String createSlotCommand(String slotName, boolean temporary, boolean twoPhase, boolean failover, int serverMajor) {
        String head = "CREATE_REPLICATION_SLOT " + slotName + (temporary ? " TEMPORARY" : "") + " LOGICAL pgoutput";
        if (failover && serverMajor < FailoverSlots.FIRST_VERSION) {
            throw new IllegalArgumentException("a failover slot needs PostgreSQL " + FailoverSlots.FIRST_VERSION
                    + " or later, the server is PostgreSQL " + serverMajor);
        }
        if (serverMajor >= 15) {
            return head + " (SNAPSHOT 'export'" + (twoPhase ? ", TWO_PHASE" : "") + (failover ? ", FAILOVER" : "") + ")";
        }
        if (twoPhase) {
            throw new IllegalArgumentException("a two-phase slot needs PostgreSQL 15 or later, the server is PostgreSQL " + serverMajor);
        }
        return head + " EXPORT_SNAPSHOT";
    }

    /** The backends with a transaction id and the prepared transactions, as one line for an error message. */
    static String describeBlockers(ReplicationSettings settings) {
        List<String> blockers = new ArrayList<>();
        try (Connection sql = PgConnections.openSql(settings); Statement st = sql.createStatement();
             ResultSet rs = st.executeQuery("SELECT 'PID ' || pid || ' (user ' || coalesce(usename, '?') || ', application '"
                     + " || quote_literal(coalesce(application_name, '')) || ', ' || coalesce(state, '?') || ', transaction started '"
                     + " || coalesce(xact_start::text, '?') || ')' FROM pg_stat_activity"
                     + " WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
                     + " UNION ALL SELECT 'prepared transaction ' || quote_literal(gid) || ' (owner ' || owner || ', prepared '"
                     + " || prepared::text || ')' FROM pg_prepared_xacts")) {
            while (rs.next()) {
                blockers.add(rs.getString(1));
            }
        } catch (SQLException e) {
            return "(could not list them: " + e.getMessage() + ")";
        }
        return blockers.isEmpty() ? "none any more (retry now)" : String.join("; ", blockers);
    }

    public String slotName() {
        return slotName;
    }

    /** The LSN streaming starts from: pass it as the resume LSN of the replication session and store it as the offset. */
    public Lsn consistentPoint() {
        return consistentPoint;
    }

    /** The name to use in {@code SET TRANSACTION SNAPSHOT}, valid until {@link #close()}. */
    public String snapshotName() {
        return snapshotName;
    }

    /**
     * Closes the replication connection: the exported snapshot can no longer be imported (transactions that imported
     * it keep it). A permanent slot stays. A temporary slot is dropped first, on this connection, so it is gone when
     * this returns: PostgreSQL drops it only when the walsender exits, some time after the client hangs up, and a task
     * restarted at once (or a second snapshot) would otherwise find the name still taken (SQLState 42710). The slot
     * was created by this session, so it is nobody else's.
     */
    @Override
    public void close() {
        if (temporary) {
            try (Statement st = replication.createStatement()) {
                st.execute("DROP_REPLICATION_SLOT " + slotName);
            } catch (SQLException e) {
                LOG.debug("dropping temporary replication slot {} before closing its connection failed ({}); it goes when"
                        + " the walsender exits", slotName, e.getMessage());
            }
        }
        closeQuietly(replication);
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.debug("closing the snapshot-exporting replication connection failed: {}", e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "ExportedSnapshot[slot=" + slotName + ", consistentPoint=" + consistentPoint + ", snapshot=" + snapshotName + "]";
    }
}

package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ConnectorSettings;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicaIdentityAutoset;
import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.connect.metrics.StreamingMetrics;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.FailoverSlots;
import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.ReplicationSession;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.ReplicationSetupException;
import io.github.pgoutput.replication.ReplicationStream;
import io.github.pgoutput.replication.RetainedWalProbe;
import io.github.pgoutput.replication.SlotManager;
import io.github.pgoutput.replication.TypeCatalog;
import io.github.pgoutput.snapshot.SnapshotSettings;
import io.github.pgoutput.snapshot.Snapshots;
import io.github.pgoutput.spill.SourceConnections;
import io.github.pgoutput.spill.SpillContext;
import io.github.pgoutput.spill.TransactionSpill;
import io.github.pgoutput.spill.TransactionSpills;
import java.sql.SQLException;
import java.time.Duration;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The task's pipeline against a live PostgreSQL server: the production {@link TaskPipeline}. Poll thread only. */
final class PostgresPipeline implements TaskPipeline {

    private static final Logger log = LoggerFactory.getLogger(PostgresPipeline.class);
    /** Slot creation waits for open transactions; at most the replication connection's socket timeout. */
    private static final Duration SLOT_CREATION_TIMEOUT = Duration.ofSeconds(50);

    private final PgOutputSourceConnectorConfig config;
    private RetainedWalProbe retainedWal;
    /** The settings the latest stream was opened with; the metrics probe uses the same ones. */
    private ReplicationSettings streamSettings;
    /** What the latest stream's setup showed about a failover, until handed to the metrics. */
    private FailoverSlots.Readiness failoverReadiness;

    PostgresPipeline(PgOutputSourceConnectorConfig config) {
        this.config = config;
    }

    /** The settings with the tables of a filtered publication listed from the catalog. */
    private ReplicationSettings settings() {
        try {
            return CapturedTables.replicationSettings(config);
        } catch (SQLException e) {
            throw ErrorClassifier.classify("listing the tables for publication '" + config.publicationName() + "'", e);
        }
    }

    /** {@code replica.identity.autoset.values}, at every start as in Debezium. */
    @Override
    public void setReplicaIdentities() throws SQLException {
        try {
            for (String changed : ReplicaIdentityAutoset.apply(config)) {
                log.info("Replica identity set ({}): {}", ReplicationKeys.REPLICA_IDENTITY_AUTOSET_VALUES_CONFIG, changed);
            }
        } catch (ReplicationSetupException | IllegalArgumentException e) {
            // Streaming without the old values the configuration asks for would change the records: fail instead.
            throw new ConnectException(ReplicationKeys.REPLICA_IDENTITY_AUTOSET_VALUES_CONFIG + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Snapshots snapshots() {
        ReplicationSettings settings = settings();
        SnapshotSettings reading = SnapshotSettings.defaults().withMaxThreads(config.snapshotMaxThreads())
                .withIncludeList(config.snapshotIncludeList()).withPublication(settings.publicationName())
                .withMaxGroupRows(config.transactionMaxRecords());
        return Snapshots.of(new Snapshots.Scope(settings, config.snapshotMode(), config.snapshotResumable(),
                t -> ConnectorSettings.captured(config, t.schema(), t.table()), config.tableIncludeList(), reading,
                SLOT_CREATION_TIMEOUT));
    }

    @Override
    public void dropLostSlot() throws SQLException {
        SlotManager.drop(settings());
        log.warn("Dropped the invalidated replication slot {} (snapshot.mode no_data); streaming starts from a new slot",
                config.slotName());
    }

    @Override
    public io.github.pgoutput.toast.CurrentRows currentRows() {
        return new io.github.pgoutput.replication.CurrentRowReader(this::settings);
    }

    @Override
    public TransactionSpill openSpill() {
        ReplicationSettings settings = settings();
        return TransactionSpills.open(new SpillContext(config.slotName(), ConnectorSettings.spill(config), spillConnections(settings)));
    }

    /** How the database spill reaches the source database: ordinary connections with the connector's settings. */
    static SourceConnections spillConnections(ReplicationSettings settings) {
        return () -> PgConnections.openSql(settings);
    }

    @Override
    public ReplicationStream openStream(Lsn resumeFrom) {
        ReplicationSettings settings = settings();
        streamSettings = settings;
        ReplicationSession session = ReplicationSession.open(settings, resumeFrom);
        failoverReadiness = session.failoverReadiness().orElse(null);
        return session;
    }

    @Override
    public TypeCatalog typeCatalog() {
        // Connection coordinates only: no need to list the tables of a filtered publication for this.
        return TypeCatalog.of(ConnectorSettings.connection(config));
    }

    @Override
    public void refreshRetainedWal(StreamingMetrics metrics) {
        if (retainedWal == null) {
            retainedWal = new RetainedWalProbe(config.slotName(), metrics::retainedWalBytes);
        }
        retainedWal.refreshIfDue(streamSettings);
        FailoverSlots.Readiness failover = failoverReadiness;
        if (failover != null) {
            metrics.failoverReadiness(failover.failoverSlot(), failover.synchronizedStandbySlots(), failover.physicalStandbys());
            failoverReadiness = null;
        }
    }

    @Override
    public TaskClock clock() {
        return TaskClock.SYSTEM;
    }

    @Override
    public void close() {
        if (retainedWal != null) {
            retainedWal.close();
            retainedWal = null;
        }
    }
}

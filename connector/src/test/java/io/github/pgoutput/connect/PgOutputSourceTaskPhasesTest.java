package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.connect.config.MinimalConfig;
import io.github.pgoutput.connect.metrics.StreamingMetrics;
import io.github.pgoutput.connect.offsets.DebeziumOffset;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.simulation.SimulationFrames;
import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.ReplicationStream;
import io.github.pgoutput.replication.TypeCatalog;
import io.github.pgoutput.replication.WalFrame;
import io.github.pgoutput.snapshot.ScriptedSnapshots;
import io.github.pgoutput.snapshot.SnapshotPlan;
import io.github.pgoutput.snapshot.Snapshots;
import io.github.pgoutput.snapshot.StoredOffset;
import io.github.pgoutput.spill.SpillContext;
import io.github.pgoutput.spill.SpillSettings;
import io.github.pgoutput.spill.TransactionSpill;
import io.github.pgoutput.spill.TransactionSpills;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task's phases driven through a scripted pipeline: no server, a clock that only moves when the task sleeps. */
class PgOutputSourceTaskPhasesTest {

    @TempDir
    Path spillDirectory;

    private final AtomicLong nanos = new AtomicLong();
    private final AtomicInteger offsetReads = new AtomicInteger();
    private final List<Lsn> streamsOpenedAt = new ArrayList<>();
    /** openStream calls numbered from 1 that fail as a lost connection would. */
    private final List<Integer> failingOpens = new ArrayList<>();
    /** openStream calls numbered from 1 that are refused because another walsender holds the slot. */
    private final List<Integer> busyOpens = new ArrayList<>();
    private final List<Integer> standbyOpens = new ArrayList<>();
    /** Configuration on top of the minimal one. */
    private final Map<String, String> extraProps = new java.util.HashMap<>();
    /** The frames every stream serves, from its start. */
    private final List<WalFrame> frames = new ArrayList<>();
    /** Offset reads numbered from 1 that fail, as a read of Connect's offsets topic does while the broker is away. */
    private final List<Integer> failingOffsetReads = new ArrayList<>();
    /** The offset the offsets topic holds; null: none stored. */
    private Map<String, Object> storedOffset = Map.of("lsn", "0/5000");
    /** The offset the offsets topic holds under Debezium's partition; null: none stored. */
    private Map<String, Object> debeziumOffset;
    private final List<Map<String, ?>> debeziumPartitionsRead = new ArrayList<>();
    /** The Debezium offsets the pipeline was asked to decide from. */
    private final List<StoredOffset.Debezium> debeziumPlans = new ArrayList<>();
    /** The start-up decision the pipeline makes. */
    private SnapshotPlan plan = new SnapshotPlan(SnapshotPlan.Action.STREAM, false, "scripted");
    /** The takenAgain argument of each startSnapshot call. */
    private final List<Boolean> snapshotsTakenAgain = new ArrayList<>();

    private final TaskClock clock = new TaskClock() {
        @Override
        public long nanoTime() {
            return nanos.get();
        }

        @Override
        public void sleep(long millis) {
            nanos.addAndGet(millis * 1_000_000);
        }
    };

    private final class IdleStream implements ReplicationStream {
        private int next;

        @Override
        public WalFrame readPending() {
            if (next >= frames.size()) {
                return null;
            }
            WalFrame frame = frames.get(next++);
            return new WalFrame(frame.payload().duplicate(), frame.headerLsn());
        }

        @Override
        public void declareDurable(Lsn lsn) {
        }

        @Override
        public Lsn durableLsn() {
            return Lsn.INVALID;
        }

        @Override
        public Lsn serverWalEnd() {
            return Lsn.INVALID;
        }

        @Override
        public Lsn receivedLsn() {
            return Lsn.INVALID;
        }

        @Override
        public Lsn startLsn() {
            return Lsn.INVALID;
        }

        @Override
        public DecoderSettings decoderSettings() {
            return new DecoderSettings(2, io.github.pgoutput.pgoutput.StreamingMode.ON);
        }

        @Override
        public void close() {
        }
    }

    private final class ScriptedPipeline implements TaskPipeline {
        @Override
        public Snapshots snapshots() {
            return new ScriptedSnapshots(stored -> {
                if (stored instanceof StoredOffset.Debezium debezium) {
                    debeziumPlans.add(debezium);
                }
                return plan;
            }, () -> {
                throw new AssertionError("not expected");
            }, (plan, temporary, takenAgain) -> {
                snapshotsTakenAgain.add(takenAgain);
                throw new ConnectException("scripted: no snapshot source here");
            });
        }

        @Override
        public void dropLostSlot() {
            throw new AssertionError("not expected");
        }

        @Override
        public TransactionSpill openSpill() {
            return TransactionSpills.open(new SpillContext("phases_slot", SpillSettings.defaults("phases_slot").withDirectory(spillDirectory),
                    () -> {
                        throw new java.sql.SQLException("no database here");
                    }));
        }

        @Override
        public ReplicationStream openStream(Lsn resumeFrom) {
            streamsOpenedAt.add(resumeFrom);
            if (busyOpens.contains(streamsOpenedAt.size())) {
                throw io.github.pgoutput.replication.ReplicationConnectionLostException.slotInUse(
                        "slot 'phases_slot' is in use by another consumer (walsender PID 4242, application_name 'pg_recvlogical')", null);
            }
            if (standbyOpens.contains(streamsOpenedAt.size())) {
                throw io.github.pgoutput.replication.ReplicationConnectionLostException.standby(
                        "cannot execute START_REPLICATION in a read-only transaction [SQLState 25006]", null);
            }
            if (failingOpens.contains(streamsOpenedAt.size())) {
                throw new io.github.pgoutput.replication.ReplicationConnectionLostException(
                        io.github.pgoutput.replication.Setting.HOSTNAME, "connection refused (scripted)", null);
            }
            return new IdleStream();
        }

        @Override
        public TypeCatalog typeCatalog() {
            return oids -> Map.of();
        }

        @Override
        public void refreshRetainedWal(StreamingMetrics metrics) {
        }

        @Override
        public TaskClock clock() {
            return clock;
        }

        @Override
        public void close() {
        }
    }

    private PgOutputSourceTask startedTask() {
        PgOutputSourceTask task = new PgOutputSourceTask(config -> new ScriptedPipeline());
        task.initialize(new SourceTaskContext() {
            @Override
            public Map<String, String> configs() {
                return Map.of();
            }

            @Override
            public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
                throw new UnsupportedOperationException("the task registers no plugin metrics");
            }

            @Override
            public OffsetStorageReader offsetStorageReader() {
                return new OffsetStorageReader() {
                    @Override
                    public <T> Map<String, Object> offset(Map<String, T> partition) {
                        if (partition.containsKey(DebeziumOffset.PARTITION_SERVER)) {
                            debeziumPartitionsRead.add(Map.copyOf(partition));
                            return debeziumOffset;
                        }
                        if (failingOffsetReads.contains(offsetReads.incrementAndGet())) {
                            throw new ConnectException("Failed to fetch offsets: timed out reading the offsets topic");
                        }
                        return storedOffset;
                    }

                    @Override
                    public <T> Map<Map<String, T>, Map<String, Object>> offsets(Collection<Map<String, T>> partitions) {
                        throw new UnsupportedOperationException("the task reads only its own partition's offset, through offset(partition)");
                    }
                };
            }
        });
        Map<String, String> props = new java.util.HashMap<>(MinimalConfig.props());
        props.put("name", "phases-" + System.nanoTime());
        props.put("snapshot.mode", "no_data");
        props.putAll(extraProps);
        task.start(props);
        return task;
    }

    @Test
    void aFailedReadOfTheOffsetsTopicWhenOpeningTheSessionIsRetriedAfterTheBackOff() throws InterruptedException {
        failingOffsetReads.add(2); // 1: start(), 2: the resume position of the first session
        PgOutputSourceTask task = startedTask();
        try {
            assertThatThrownBy(task::poll).isInstanceOf(RetriableException.class).hasMessageContaining("offsets topic");
            assertThat(streamsOpenedAt).isEmpty();

            assertThat(task.poll()).as("backing off").isNull();
            nanos.addAndGet(RetryPolicy.RECONNECT_BACKOFF_MS * 1_000_000);
            assertThat(task.poll()).isNull();
            assertThat(streamsOpenedAt).containsExactly(Lsn.parse("0/5000"));
        } finally {
            task.stop();
        }
    }

    /**
     * A snapshot begins with a truncate record per table only when it is taken again: without a stored offset no
     * consumer holds rows of this connector, and a sink that applies truncates would empty a table a user switching
     * over from Debezium already holds (the parity test found truncates in a first snapshot when "none stored" was
     * read from the resume position, which is never null).
     */
    @Test
    void aSnapshotIsTakenAgainOnlyWhenAnOffsetIsStored() throws InterruptedException {
        plan = new SnapshotPlan(SnapshotPlan.Action.SNAPSHOT_THEN_STREAM, false, "scripted");
        storedOffset = null;
        PgOutputSourceTask first = startedTask();
        try {
            assertThatThrownBy(first::poll).hasMessageContaining("scripted: no snapshot source here");
        } finally {
            first.stop();
        }
        storedOffset = SourceOffsets.snapshotInProgress(Lsn.parse("0/5000"));
        PgOutputSourceTask again = startedTask();
        try {
            assertThatThrownBy(again::poll).hasMessageContaining("scripted: no snapshot source here");
        } finally {
            again.stop();
        }
        assertThat(snapshotsTakenAgain).containsExactly(false, true);
    }

    @Test
    void aFailedReadOfTheOffsetsTopicAtStartDoesNotFailTheTask() throws InterruptedException {
        failingOffsetReads.add(1);
        PgOutputSourceTask task = startedTask();
        try {
            assertThat(task.poll()).as("backing off").isNull();
            nanos.addAndGet(RetryPolicy.RECONNECT_BACKOFF_MS * 1_000_000);
            assertThat(task.poll()).isNull();
            assertThat(streamsOpenedAt).containsExactly(Lsn.parse("0/5000"));
        } finally {
            task.stop();
        }
    }

    /**
     * The position the task resumes from is the stored offset also when the first session fails to open in the very
     * poll that carried out the start-up decision: a transaction that ended before the stored position is a replay,
     * not new data (the soak found the position reset to 0/0 there, which then failed the next start for good).
     */
    @Test
    void aSessionThatFailsInThePollThatDecidedStillResumesFromTheStoredOffset() throws InterruptedException {
        DecoderSettings settings = new DecoderSettings(2, io.github.pgoutput.pgoutput.StreamingMode.ON);
        java.time.Instant time = java.time.Instant.parse("2026-12-01T00:00:00Z");
        frames.add(SimulationFrames.frame(new io.github.pgoutput.pgoutput.PgOutputMessage.Begin(Lsn.parse("0/4000"), time,
                io.github.pgoutput.pgoutput.Xid.of(700)), false, settings, Lsn.parse("0/3F00")));
        frames.add(SimulationFrames.frame(new io.github.pgoutput.pgoutput.PgOutputMessage.Relation(io.github.pgoutput.pgoutput.Xid.INVALID,
                16500, "public", "t", io.github.pgoutput.pgoutput.ReplicaIdentity.DEFAULT,
                List.of(new io.github.pgoutput.pgoutput.RelationColumn(true, "id", 23, -1))), false, settings, Lsn.INVALID));
        frames.add(SimulationFrames.frame(new io.github.pgoutput.pgoutput.PgOutputMessage.Insert(io.github.pgoutput.pgoutput.Xid.INVALID,
                16500, Deliveries.tuple("1")), false, settings, Lsn.parse("0/3F10")));
        frames.add(SimulationFrames.frame(new io.github.pgoutput.pgoutput.PgOutputMessage.Commit(0, Lsn.parse("0/4000"),
                Lsn.parse("0/4020"), time), false, settings, Lsn.parse("0/4000")));
        failingOpens.add(1);
        PgOutputSourceTask task = startedTask();
        try {
            assertThatThrownBy(task::poll).isInstanceOf(RetriableException.class);
            nanos.addAndGet(RetryPolicy.RECONNECT_BACKOFF_MS * 1_000_000);
            List<org.apache.kafka.connect.source.SourceRecord> records = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                List<org.apache.kafka.connect.source.SourceRecord> polled = task.poll();
                if (polled != null) {
                    records.addAll(polled);
                }
            }
            assertThat(streamsOpenedAt).hasSize(2);
            assertThat(records).as("the transaction ending at 0/4020, before the stored 0/5000, is already in Kafka").isEmpty();
        } finally {
            task.stop();
        }
    }

    @Test
    void aSlotHeldByAnotherWalsenderIsRetriedSlotMaxRetriesTimesSlotRetryDelayApartThenFailsTheTaskNamingTheHolder()
            throws InterruptedException {
        extraProps.put("slot.max.retries", "2");
        extraProps.put("slot.retry.delay.ms", "500");
        busyOpens.addAll(List.of(1, 2, 3));
        PgOutputSourceTask task = startedTask();
        try {
            assertThatThrownBy(task::poll).isInstanceOf(RetriableException.class).hasMessageContaining("walsender PID 4242");
            nanos.addAndGet(499 * 1_000_000L);
            assertThat(task.poll()).as("slot.retry.delay.ms not over yet").isNull();
            assertThat(streamsOpenedAt).hasSize(1);
            nanos.addAndGet(1_000_000L);
            assertThatThrownBy(task::poll).as("retry 1").isInstanceOf(RetriableException.class);
            nanos.addAndGet(500 * 1_000_000L);

            assertThatThrownBy(task::poll).as("retry 2, the last, refused too").isInstanceOf(ConnectException.class)
                    .isNotInstanceOf(RetriableException.class)
                    .hasMessageContaining("' is still held by another walsender after 2 retries 500 ms apart")
                    .hasMessageContaining("slot.max.retries").hasMessageContaining("walsender PID 4242");
            assertThat(streamsOpenedAt).hasSize(3);
        } finally {
            task.stop();
        }
    }

    @Test
    void aServerThatStaysAStandbyIsRetriedSlotMaxRetriesTimesThenFailsTheTaskWithWhatItSaid() throws InterruptedException {
        extraProps.put("slot.max.retries", "1");
        extraProps.put("slot.retry.delay.ms", "500");
        standbyOpens.addAll(List.of(1, 2));
        PgOutputSourceTask task = startedTask();
        try {
            assertThatThrownBy(task::poll).as("a standby, retried").isInstanceOf(RetriableException.class);
            nanos.addAndGet(499 * 1_000_000L);
            assertThat(task.poll()).as("slot.retry.delay.ms not over yet").isNull();
            nanos.addAndGet(1_000_000L);

            assertThatThrownBy(task::poll).as("still a standby after the one retry").isInstanceOf(ConnectException.class)
                    .isNotInstanceOf(RetriableException.class)
                    .hasMessageContaining("' is on a server that is still a standby after 1 retries 500 ms apart")
                    .hasMessageContaining("read-only transaction [SQLState 25006]");
            assertThat(streamsOpenedAt).hasSize(2);
        } finally {
            task.stop();
        }
    }

    @Test
    void aSlotThatIsFreedWithinTheRetriesIsStreamed() throws InterruptedException {
        extraProps.put("slot.max.retries", "2");
        extraProps.put("slot.retry.delay.ms", "500");
        busyOpens.addAll(List.of(1, 2));
        PgOutputSourceTask task = startedTask();
        try {
            assertThatThrownBy(task::poll).isInstanceOf(RetriableException.class);
            nanos.addAndGet(500 * 1_000_000L);
            assertThatThrownBy(task::poll).isInstanceOf(RetriableException.class);
            nanos.addAndGet(500 * 1_000_000L);
            assertThat(task.poll()).as("streaming, nothing to emit").isNull();
            assertThat(task.poll()).isNull();
            assertThat(streamsOpenedAt).hasSize(3);
        } finally {
            task.stop();
        }
    }

    @Test
    void busySlotRefusalsCountAcrossLostConnectionsUntilASessionOpens() throws InterruptedException {
        extraProps.put("slot.max.retries", "1");
        extraProps.put("slot.retry.delay.ms", "500");
        busyOpens.addAll(List.of(1, 3));
        failingOpens.add(2);
        PgOutputSourceTask task = startedTask();
        try {
            assertThatThrownBy(task::poll).as("busy").isInstanceOf(RetriableException.class);
            nanos.addAndGet(500 * 1_000_000L);
            assertThatThrownBy(task::poll).as("a lost connection, retried as always").isInstanceOf(RetriableException.class)
                    .hasMessageContaining("connection refused");
            nanos.addAndGet(RetryPolicy.RECONNECT_BACKOFF_MS * 1_000_000);

            assertThatThrownBy(task::poll).as("busy again, the one retry spent").isNotInstanceOf(RetriableException.class)
                    .hasMessageContaining("after 1 retries");
        } finally {
            task.stop();
        }
    }

    @Test
    void zeroSlotRetriesFailTheTaskAtTheFirstRefusal() {
        extraProps.put("slot.max.retries", "0");
        busyOpens.add(1);
        PgOutputSourceTask task = startedTask();
        try {
            assertThatThrownBy(task::poll).isNotInstanceOf(RetriableException.class).isInstanceOf(ConnectException.class)
                    .hasMessageContaining("after 0 retries");
        } finally {
            task.stop();
        }
    }

    @Test
    void aConnectionRefusedErrorsMaxRetriesTimesInARowFailsTheTaskWithTheKeyAndTheLastError() throws InterruptedException {
        extraProps.put("errors.max.retries", "2");
        failingOpens.addAll(List.of(1, 2, 3, 4));
        PgOutputSourceTask task = startedTask();
        try {
            for (int retry = 1; retry <= 2; retry++) {
                assertThatThrownBy(task::poll).as("refused, retry " + retry).isInstanceOf(RetriableException.class);
                nanos.addAndGet(RetryPolicy.RECONNECT_BACKOFF_MS * 1_000_000);
            }
            assertThatThrownBy(task::poll).as("refused a third time in a row").isInstanceOf(ConnectException.class)
                    .isNotInstanceOf(RetriableException.class)
                    .hasMessageContaining("': no replication session after 2 retries 1000 ms apart (errors.max.retries")
                    .hasMessageContaining("connection refused (scripted)");
            assertThat(streamsOpenedAt).hasSize(3);
        } finally {
            task.stop();
        }
    }

    @Test
    void errorsMaxRetriesMinusOneRetriesARefusedConnectionWithoutLimitUntilItOpens() throws InterruptedException {
        extraProps.put("errors.max.retries", "-1");
        for (int open = 1; open <= 400; open++) {
            failingOpens.add(open);
        }
        PgOutputSourceTask task = startedTask();
        try {
            for (int retry = 1; retry <= 400; retry++) {
                assertThatThrownBy(task::poll).isInstanceOf(RetriableException.class);
                nanos.addAndGet(RetryPolicy.RECONNECT_BACKOFF_MS * 1_000_000);
            }
            assertThat(task.poll()).as("the 401st attempt opens a session").isNull();
            assertThat(streamsOpenedAt).hasSize(401);
        } finally {
            task.stop();
        }
    }

    /** Debezium's offset after a change of xid 11, the transaction before it having ended at 0/5020. */
    private static Map<String, Object> debeziumInsideTransaction() {
        return Map.of("lsn_commit", 0x5020L, "lsn", 0x5080L, "lsn_proc", 0x5080L, "txId", 11, "messageType", "INSERT",
                "ts_usec", 1_767_323_045_123_456L);
    }

    @Test
    void withoutAnOffsetOfItsOwnTheTaskGoesOnFromDebeziumsOffsetUnderTheTopicPrefix() throws InterruptedException {
        storedOffset = null;
        debeziumOffset = debeziumInsideTransaction();
        PgOutputSourceTask task = startedTask();
        try {
            assertThat(task.poll()).isNull();

            assertThat(debeziumPartitionsRead).first().isEqualTo(Map.of("server", "shop"));
            assertThat(debeziumPlans).singleElement().satisfies(offset -> {
                assertThat(offset.resumeLsn()).isEqualTo(Lsn.parse("0/5020"));
                assertThat(offset.snapshot()).isEqualTo(StoredOffset.DebeziumSnapshot.NONE);
            });
            assertThat(streamsOpenedAt).containsExactly(Lsn.parse("0/5020"));
        } finally {
            task.stop();
        }
    }

    @Test
    void anOffsetOfItsOwnAtOrPastDebeziumsIsTheOneToGoOnFrom() throws InterruptedException {
        storedOffset = Map.of("lsn", "0/6000");
        debeziumOffset = debeziumInsideTransaction();
        PgOutputSourceTask task = startedTask();
        try {
            assertThat(task.poll()).isNull();

            assertThat(debeziumPlans).isEmpty();
            assertThat(streamsOpenedAt).containsExactly(Lsn.parse("0/6000"));
        } finally {
            task.stop();
        }
    }

    /** Switched to this connector, back to Debezium, and to this connector again: Debezium ran on after it. */
    @Test
    void debeziumsOffsetPastAnOlderOneOfItsOwnIsTheOneToGoOnFrom() throws InterruptedException {
        storedOffset = Map.of("lsn", "0/4000");
        debeziumOffset = debeziumInsideTransaction();
        PgOutputSourceTask task = startedTask();
        try {
            assertThat(task.poll()).isNull();

            assertThat(debeziumPlans).hasSize(1);
            assertThat(streamsOpenedAt).containsExactly(Lsn.parse("0/5020"));
        } finally {
            task.stop();
        }
    }

    @Test
    void anUnreadableDebeziumOffsetFailsTheStartOnlyWithoutAnOffsetOfItsOwn() throws InterruptedException {
        debeziumOffset = Map.of("file", "binlog.000003", "pos", 4L);
        PgOutputSourceTask withOwn = startedTask();
        try {
            assertThat(withOwn.poll()).isNull();
            assertThat(streamsOpenedAt).containsExactly(Lsn.parse("0/5000"));
        } finally {
            withOwn.stop();
        }
        storedOffset = null;
        assertThatThrownBy(this::startedTask).isInstanceOf(ConnectException.class).hasMessageContaining("field 'lsn' is missing");
    }
}

package io.github.pgoutput.connect;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.connect.config.ConnectorSettings;
import io.github.pgoutput.connect.config.DebeziumReselect;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ToastKeys;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.spill.SpillException;
import io.github.pgoutput.spill.SpillSettings;
import io.github.pgoutput.spill.TransactionSpills;
import io.github.pgoutput.toast.CurrentRows;
import io.github.pgoutput.toast.ReselectBatch;
import io.github.pgoutput.toast.ToastResolver;
import io.github.pgoutput.toast.ToastStats;
import io.github.pgoutput.toast.ToastStore;
import io.github.pgoutput.toast.ToastStoreException;
import io.github.pgoutput.toast.UnchangedToastResolution;
import java.nio.file.Path;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code unchanged.toast.resolution} in the task: the store ({@link ToastStore}) and the reselect
 * ({@link ReselectBatch}) over the task's deliveries and snapshot rows, and the store's part in restarts.
 *
 * <p>Restarts. The store must never be behind the slot: PostgreSQL does not send again what the slot confirmed, so a
 * change the store missed would leave an older value in it. Three rules keep it so:
 * <ul>
 *   <li>{@link #sync()} runs before the task confirms a position to the slot, and the store's watermark moves with
 *       every delivery and every idle position the task may confirm ({@link #idleAt});</li>
 *   <li>a stream starts no later than the store's watermark ({@link #resumeLimit}): after a crash that lost the
 *       writes since the last flush, PostgreSQL sends the deliveries after it again, the task skips their records
 *       (Kafka has them) and the store sees them;</li>
 *   <li>a stream that starts after the watermark anyway (the slot was dropped and made anew, or moved by hand) empties
 *       the store ({@link #streamStarted}).</li>
 * </ul>
 * A store ahead of Kafka (values written for deliveries whose records were lost in a crash) is harmless: their changes
 * come again, and a stored value written at or after the change being resolved is not used ({@link ToastResolver}).
 *
 * <p>The poll thread uses it, except {@link #sync()} (the offset committer), which is serialized with {@link #close()}.
 */
final class ToastResolution implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ToastResolution.class);
    private static final String STORE_DIRECTORY_SUFFIX = ".toast-store";

    private final ToastStore store;
    private final CurrentRows rows;
    private final ToastResolver resolver;
    private final ReselectBatch batch;
    private final boolean failOnUnproven;
    private final ToastStats stats = new ToastStats();
    private final String slotName;
    private boolean closed;
    private long lastWarnNanos;

    private ToastResolution(PgOutputSourceConnectorConfig config, ToastStore store, CurrentRows rows) {
        this.store = store;
        this.rows = rows;
        this.slotName = config.slotName();
        DebeziumReselect debezium = DebeziumReselect.of(config.originals()).orElse(null);
        var captured = ConnectorSettings.tableSelection(config);
        this.resolver = new ToastResolver(store, captured::test,
                debezium == null ? ToastResolver.ColumnSelection.ALL : debezium.columns(), config.toastStoreMinValueBytes(), stats);
        this.batch = new ReselectBatch(resolver, rows, config.toastReselectBatchSize(), config.spillMemoryBufferBytes());
        this.failOnUnproven = debezium != null && debezium.failOnUnproven();
    }

    /**
     * The resolution {@code config} asks for, or null for {@code none}. Opens the store for {@code store}.
     *
     * @param rows the reselect of the task's pipeline; null where it has none (the scripted pipelines)
     */
    static ToastResolution open(PgOutputSourceConnectorConfig config, Supplier<CurrentRows> rows) {
        UnchangedToastResolution mode = config.unchangedToastResolution();
        if (mode == UnchangedToastResolution.NONE) {
            return null;
        }
        ToastStore store = null;
        if (mode == UnchangedToastResolution.STORE) {
            Path directory = storeDirectory(config);
            try {
                TransactionSpills.vettedDirectory(directory, config.slotName());
                store = ToastStore.open(new ToastStore.Settings(directory, config.toastStoreMaxDiskBytes(),
                        config.toastStoreMemoryBytes()), identity(config));
            } catch (SpillException | ToastStoreException e) {
                throw new ConnectException(ToastKeys.TOAST_STORE_DIRECTORY_CONFIG + ": " + e.getMessage(), e);
            }
            log.info("Slot {}: unchanged TOAST values from the store in {} (watermark {}, about {} rows, {} bytes on disk, at"
                    + " most {}), reselected where it has none", config.slotName(), directory, store.watermark(),
                    store.estimatedRows(), store.diskBytes(), config.toastStoreMaxDiskBytes());
        } else {
            log.info("Slot {}: unchanged TOAST values reselected where proven", config.slotName());
        }
        ToastResolution resolution = new ToastResolution(config, store, rows.get());
        resolution.resolver.forgetTablesNotCaptured();
        return resolution;
    }

    /** {@code toast.store.directory}, or {@code <spill directory>/<slot>.toast-store}. */
    static Path storeDirectory(PgOutputSourceConnectorConfig config) {
        return config.toastStoreDirectory().orElseGet(() -> config.spillDirectory()
                .orElseGet(() -> SpillSettings.defaultDirectory(config.slotName())).resolve(config.slotName() + STORE_DIRECTORY_SUFFIX));
    }

    /** What the store's values belong to: another server, database or slot makes them meaningless. */
    private static String identity(PgOutputSourceConnectorConfig config) {
        return config.databaseHostname() + ":" + config.databasePort() + "/" + config.databaseDbname() + "/" + config.slotName();
    }

    ToastStats stats() {
        return stats;
    }

    /** The next change of {@code delivery}, resolved ({@link ReselectBatch#next}); fails the task when asked to. */
    ReselectBatch.Outcome next(Delivery delivery, boolean reselect, Predicate<ChangeEvent> skip) {
        ReselectBatch.Outcome outcome = batch.next(delivery, reselect, skip);
        if (outcome != null && !outcome.unresolved().isEmpty()) {
            String what = "change at " + outcome.event().walPosition() + " of " + outcome.event().relation().namespace() + "."
                    + outcome.event().relation().relationName() + " (" + delivery + "): unchanged TOAST value of "
                    + outcome.unresolved() + " not proven" + (outcome.failure() == null ? "" : " (reselect failed: "
                    + outcome.failure().getMessage() + ")");
            if (failOnUnproven) {
                throw new ConnectException(what + "; the reselect post processor's error handling mode is fail. Set it to"
                        + " warn to emit the placeholder with the " + io.github.pgoutput.connect.record.LifecycleHeaders.TOAST_UNRESOLVED
                        + " header instead");
            }
            long now = System.nanoTime();
            if (now - lastWarnNanos > 10_000_000_000L) {
                lastWarnNanos = now;
                log.warn("Slot {}: {}; the placeholder is emitted and the record names the column in its {} header (logged at"
                        + " most every 10 s)", slotName, what, io.github.pgoutput.connect.record.LifecycleHeaders.TOAST_UNRESOLVED);
            }
        }
        return outcome;
    }

    boolean atEnd(Delivery delivery) {
        return batch.atEnd(delivery);
    }

    void delivered(Delivery delivery) {
        batch.delivered(delivery);
    }

    /** The session was abandoned: the held changes come again with its deliveries. */
    void abandoned() {
        batch.reset();
    }

    /** A snapshot at {@code consistentPoint} starts (or resumes): its rows fill the store. */
    void snapshotStarts(Lsn consistentPoint) {
        if (store != null) {
            store.beginSnapshot(consistentPoint);
        }
    }

    void snapshotRow(SnapshotRow row, Lsn consistentPoint) {
        resolver.snapshotRow(row.table().relationId(), row.table().name().schema(), row.table().name().table(),
                row.table().columns(), row.values(), consistentPoint);
    }

    void snapshotFinished(Lsn consistentPoint) {
        if (store != null) {
            store.advance(consistentPoint);
        }
    }

    /** Everything before {@code walEnd} was delivered: the store has seen it too. */
    void idleAt(Lsn walEnd) {
        if (store != null) {
            store.advance(walEnd);
        }
    }

    /** The latest LSN a new stream may start at so that the store sees every change after its watermark. */
    Lsn resumeLimit(Lsn wanted) {
        if (store == null) {
            return wanted;
        }
        Lsn watermark = Lsn.max(store.watermark(), store.snapshotPoint());
        return watermark.isValid() && watermark.isBefore(wanted) ? watermark : wanted;
    }

    /** A stream started at {@code startLsn}: a store whose watermark is before it missed changes and is emptied. */
    void streamStarted(Lsn startLsn) {
        if (store == null) {
            return;
        }
        Lsn watermark = Lsn.max(store.watermark(), store.snapshotPoint());
        if (watermark.isValid() && startLsn.isAfter(watermark)) {
            log.warn("Slot {}: the stream starts at {}, after the unchanged TOAST store's watermark {} (the slot was made anew"
                    + " or moved on without this connector): the store missed changes and is emptied; unchanged TOAST values"
                    + " of rows not changed since are reselected", slotName, startLsn, watermark);
            store.clear();
        }
        if (!watermark.isValid() || startLsn.isAfter(watermark)) {
            store.advance(startLsn);
        }
    }

    /** Makes the store durable before the slot is confirmed; a no-op after {@link #close()}. */
    synchronized void sync() {
        if (store != null && !closed) {
            store.sync();
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (rows != null) {
            rows.close();
        }
        if (store != null) {
            store.close();
        }
    }
}

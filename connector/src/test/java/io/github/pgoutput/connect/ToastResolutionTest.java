package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.connect.config.DebeziumReselect;
import io.github.pgoutput.connect.config.MinimalConfig;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ToastKeys;
import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.toast.RowKey;
import io.github.pgoutput.toast.RowVersion;
import io.github.pgoutput.toast.StoredRow;
import io.github.pgoutput.toast.ToastStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's part in restarts: never behind the slot, emptied when the slot moved on without it. */
class ToastResolutionTest {

    private static final RowKey KEY = new RowKey(1, List.of("7"));

    @TempDir
    Path directory;

    private PgOutputSourceConnectorConfig config() {
        Map<String, String> props = new HashMap<>(MinimalConfig.props());
        props.put(ToastKeys.UNCHANGED_TOAST_RESOLUTION_CONFIG, "store");
        props.put(ToastKeys.TOAST_STORE_DIRECTORY_CONFIG, directory.resolve("store").toString());
        return new PgOutputSourceConnectorConfig(props);
    }

    /** Writes a row and a watermark as an earlier run of the task would have, then closes the store. */
    private void earlierRun(Lsn watermark) {
        PgOutputSourceConnectorConfig config = config();
        try (ToastResolution first = ToastResolution.open(config, () -> null)) {
            first.idleAt(watermark);
        }
        // The row itself, written under the same identity.
        String identity = config.databaseHostname() + ":" + config.databasePort() + "/" + config.databaseDbname() + "/" + config.slotName();
        try (ToastStore store = ToastStore.open(new ToastStore.Settings(directory.resolve("store"), 64L << 20, 8L << 20), identity)) {
            store.put(KEY, new StoredRow(new RowVersion(Lsn.of(0x100), 1), Map.of("body", new ColumnValue.Text(Bytes.utf8("v")))));
        }
    }

    private boolean rowKept() {
        PgOutputSourceConnectorConfig config = config();
        String identity = config.databaseHostname() + ":" + config.databasePort() + "/" + config.databaseDbname() + "/" + config.slotName();
        try (ToastStore store = ToastStore.open(new ToastStore.Settings(directory.resolve("store"), 64L << 20, 8L << 20), identity)) {
            return store.get(KEY).isPresent();
        }
    }

    @Test
    void noneOpensNothing() {
        Map<String, String> props = new HashMap<>(MinimalConfig.props());
        assertThat(ToastResolution.open(new PgOutputSourceConnectorConfig(props), () -> null)).isNull();
    }

    @Test
    void aStreamStartsNoLaterThanTheStoresWatermark() {
        earlierRun(Lsn.of(0x500));
        try (ToastResolution resolution = ToastResolution.open(config(), () -> null)) {
            assertThat(resolution.resumeLimit(Lsn.of(0x900))).as("Kafka is ahead of the store").isEqualTo(Lsn.of(0x500));
            assertThat(resolution.resumeLimit(Lsn.of(0x400))).as("the store is ahead of Kafka").isEqualTo(Lsn.of(0x400));
        }
    }

    @Test
    void aFreshStoreDoesNotHoldTheStreamBack() {
        try (ToastResolution resolution = ToastResolution.open(config(), () -> null)) {
            assertThat(resolution.resumeLimit(Lsn.of(0x900))).isEqualTo(Lsn.of(0x900));
        }
    }

    @Test
    void aStreamStartingAfterTheWatermarkEmptiesTheStore() {
        earlierRun(Lsn.of(0x500));
        try (ToastResolution resolution = ToastResolution.open(config(), () -> null)) {
            resolution.streamStarted(Lsn.of(0x600));
        }
        assertThat(rowKept()).isFalse();
    }

    @Test
    void aStreamStartingAtOrBeforeTheWatermarkKeepsTheStore() {
        earlierRun(Lsn.of(0x500));
        try (ToastResolution resolution = ToastResolution.open(config(), () -> null)) {
            resolution.streamStarted(Lsn.of(0x500));
        }
        assertThat(rowKept()).isTrue();
    }

    @Test
    void syncAfterCloseDoesNothing() {
        ToastResolution resolution = ToastResolution.open(config(), () -> null);
        resolution.close();

        resolution.sync();
    }

    @Test
    void aStoreDirectoryOthersMayWriteIsRefusedOnItsKey() throws Exception {
        Path shared = Files.createDirectories(directory.resolve("shared"));
        Files.setPosixFilePermissions(shared, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        Map<String, String> props = new HashMap<>(MinimalConfig.props());
        props.put(ToastKeys.UNCHANGED_TOAST_RESOLUTION_CONFIG, "store");
        props.put(ToastKeys.TOAST_STORE_DIRECTORY_CONFIG, shared.toString());

        assertThatThrownBy(() -> ToastResolution.open(new PgOutputSourceConnectorConfig(props), () -> null))
                .isInstanceOf(ConnectException.class).hasMessageStartingWith(ToastKeys.TOAST_STORE_DIRECTORY_CONFIG);
    }

    @Test
    void theStoreLivesBesideTheSpillUnlessPlacedElsewhere() {
        Map<String, String> props = new HashMap<>(MinimalConfig.props());
        props.put("post.processors", "reselector");
        props.put("reselector.type", DebeziumReselect.RESELECT_CLASS);
        props.put("spill.directory", "/var/spill");

        assertThat(ToastResolution.storeDirectory(new PgOutputSourceConnectorConfig(props)))
                .isEqualTo(Path.of("/var/spill", props.get("slot.name") + ".toast-store"));
        props.put(ToastKeys.TOAST_STORE_DIRECTORY_CONFIG, "/data/toast");
        assertThat(ToastResolution.storeDirectory(new PgOutputSourceConnectorConfig(props))).isEqualTo(Path.of("/data/toast"));
    }
}

package io.github.pgoutput.connect.config;

import io.github.pgoutput.connect.record.LifecycleHeaders;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The keys of the configuration group "Unchanged TOAST values": how unchanged TOAST values are resolved. Each key is
 * declared here once, with its documentation, default, order and single-key validator;
 * {@link PgOutputSourceConnectorConfig} reads it.
 */
public final class ToastKeys {

    /** The group the keys are listed under in the documentation and in Connect's configuration forms. */
    static final String GROUP = "Unchanged TOAST values";

    public static final String UNCHANGED_TOAST_RESOLUTION_CONFIG = "unchanged.toast.resolution";
    private static final String UNCHANGED_TOAST_RESOLUTION_DOC = "What an UPDATE that leaves a TOASTed column unchanged "
            + "carries in that column (pgoutput does not send the value; REPLICA IDENTITY FULL tables always carry it). "
            + "none: unavailable.value.placeholder, as Debezium. store: the value this connector last emitted for the row, "
            + "kept on the worker's disk (toast.store.*), which is the value of the change whenever the connector saw the "
            + "row's history (it snapshotted the table, or emitted an insert or update with the value since); otherwise a "
            + "batched reselect by key (toast.reselect.batch.size), accepted only when the row's current version was "
            + "written by the change's own transaction and no later change of that transaction set the column. reselect: "
            + "that reselect alone, no disk. A value neither can prove stays the placeholder, and the record's "
            + LifecycleHeaders.TOAST_UNRESOLVED + " header names the column: a newer value never goes into an older "
            + "change. Unset, Debezium's reselect post processor (post.processors with "
            + "<name>.type=io.debezium.processors.reselect.ReselectColumnsPostProcessor) means store.";
    private static final String UNCHANGED_TOAST_RESOLUTION_DISPLAY = "Unchanged TOAST resolution";

    public static final String TOAST_STORE_DIRECTORY_CONFIG = "toast.store.directory";
    private static final String TOAST_STORE_DIRECTORY_DOC = "Directory of the unchanged TOAST store (one per connector; "
            + "kept across restarts). Unset: <spill.directory>/<slot.name>.toast-store. Vetted as spill.directory: created "
            + "with permissions 0700, owned by the worker's user and writable by no other.";
    private static final String TOAST_STORE_DIRECTORY_DISPLAY = "TOAST store directory";

    public static final String TOAST_STORE_MAX_DISK_BYTES_CONFIG = "toast.store.max.disk.bytes";
    private static final String TOAST_STORE_MAX_DISK_BYTES_DOC = "Disk the stored values may take. Beyond it the values "
            + "written longest ago are dropped first (whole files of them); a change of such a row is resolved by the "
            + "reselect instead.";
    private static final long TOAST_STORE_MAX_DISK_BYTES_DEFAULT = 1L << 30;
    private static final String TOAST_STORE_MAX_DISK_BYTES_DISPLAY = "TOAST store disk (bytes)";

    public static final String TOAST_STORE_MEMORY_BYTES_CONFIG = "toast.store.memory.bytes";
    private static final String TOAST_STORE_MEMORY_BYTES_DOC = "Native (off-heap) memory of the store's caches and write "
            + "buffers.";
    private static final long TOAST_STORE_MEMORY_BYTES_DEFAULT = 32L << 20;
    private static final String TOAST_STORE_MEMORY_BYTES_DISPLAY = "TOAST store memory (bytes)";

    public static final String TOAST_STORE_MIN_VALUE_BYTES_CONFIG = "toast.store.min.value.bytes";
    private static final String TOAST_STORE_MIN_VALUE_BYTES_DOC = "Shortest value (text form) the store keeps. PostgreSQL "
            + "moves a value out of line only when its row exceeds toast_tuple_target (2 kB unless changed), so shorter "
            + "values rarely come back as unchanged TOAST; one that does is reselected.";
    private static final int TOAST_STORE_MIN_VALUE_BYTES_DEFAULT = 256;
    private static final String TOAST_STORE_MIN_VALUE_BYTES_DISPLAY = "TOAST store smallest value (bytes)";

    public static final String TOAST_RESELECT_BATCH_SIZE_CONFIG = "toast.reselect.batch.size";
    private static final String TOAST_RESELECT_BATCH_SIZE_DOC = "Changes held while a value waits for the reselect: "
            + "the rest of the transaction up to this many changes (and spill.memory.buffer.bytes of their values) is read "
            + "first, since a later change of the same row in the same transaction decides whether the row's current value "
            + "is the change's, then one query per table reads the rows. A value whose transaction goes on beyond it is "
            + "not proven.";
    private static final int TOAST_RESELECT_BATCH_SIZE_DEFAULT = 1000;
    private static final String TOAST_RESELECT_BATCH_SIZE_DISPLAY = "TOAST reselect batch (changes)";

    private ToastKeys() {
    }

    /** Declares the keys of the group in {@code def}, in the order the documentation lists them. */
    static void define(ConfigDef def) {
        int order = 0;
        def.define(UNCHANGED_TOAST_RESOLUTION_CONFIG, Type.STRING, null, ConfigChoices.UNCHANGED_TOAST_RESOLUTION.optionalValidator(),
                Importance.MEDIUM, UNCHANGED_TOAST_RESOLUTION_DOC, GROUP, ++order, Width.SHORT,
                UNCHANGED_TOAST_RESOLUTION_DISPLAY);
        def.define(TOAST_STORE_DIRECTORY_CONFIG, Type.STRING, null, null, Importance.LOW, TOAST_STORE_DIRECTORY_DOC, GROUP,
                ++order, Width.LONG, TOAST_STORE_DIRECTORY_DISPLAY);
        def.define(TOAST_STORE_MAX_DISK_BYTES_CONFIG, Type.LONG, TOAST_STORE_MAX_DISK_BYTES_DEFAULT, ConfigDef.Range.atLeast(1L << 20),
                Importance.LOW, TOAST_STORE_MAX_DISK_BYTES_DOC, GROUP, ++order, Width.SHORT,
                TOAST_STORE_MAX_DISK_BYTES_DISPLAY);
        def.define(TOAST_STORE_MEMORY_BYTES_CONFIG, Type.LONG, TOAST_STORE_MEMORY_BYTES_DEFAULT, ConfigDef.Range.atLeast(8L << 20),
                Importance.LOW, TOAST_STORE_MEMORY_BYTES_DOC, GROUP, ++order, Width.SHORT, TOAST_STORE_MEMORY_BYTES_DISPLAY);
        def.define(TOAST_STORE_MIN_VALUE_BYTES_CONFIG, Type.INT, TOAST_STORE_MIN_VALUE_BYTES_DEFAULT, ConfigDef.Range.atLeast(0),
                Importance.LOW, TOAST_STORE_MIN_VALUE_BYTES_DOC, GROUP, ++order, Width.SHORT,
                TOAST_STORE_MIN_VALUE_BYTES_DISPLAY);
        def.define(TOAST_RESELECT_BATCH_SIZE_CONFIG, Type.INT, TOAST_RESELECT_BATCH_SIZE_DEFAULT, ConfigDef.Range.atLeast(1),
                Importance.LOW, TOAST_RESELECT_BATCH_SIZE_DOC, GROUP, ++order, Width.SHORT,
                TOAST_RESELECT_BATCH_SIZE_DISPLAY);
    }
}

package io.github.pgoutput.connect.config;

import io.github.pgoutput.spill.SpillSettings;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The keys of the configuration group "Transaction spill": where large transactions are kept until their commit.
 * Each key is declared here once, with its documentation, default, order and single-key validator;
 * {@link PgOutputSourceConnectorConfig} reads it.
 */
public final class SpillKeys {

    /** The group the keys are listed under in the documentation and in Connect's configuration forms. */
    static final String GROUP = "Transaction spill";

    public static final String SPILL_BACKEND_CONFIG = "spill.backend";
    private static final String SPILL_BACKEND_DOC = "Where the changes of not yet committed transactions are kept "
            + "outside the heap: disk (files under spill.directory), database (tables in spill.database.schema of "
            + "the source database), or the fully qualified name of a class implementing the transaction spill SPI.";
    private static final String SPILL_BACKEND_DEFAULT = SpillSettings.DISK_BACKEND;
    private static final String SPILL_BACKEND_DISPLAY = "Spill backend";

    public static final String SPILL_DIRECTORY_CONFIG = "spill.directory";
    private static final String SPILL_DIRECTORY_DOC = "Directory of the disk spill backend. Unset: "
            + "<java.io.tmpdir>/kafka-connect-pgoutput/<slot.name>. Created with permissions 0700 if missing; an "
            + "existing one must be a real directory (not a symbolic link) owned by the worker's user and writable by "
            + "no other user, below parents that only that user or root may change (or with the sticky bit, as /tmp), "
            + "else the task fails naming what to fix. Connectors may share it: files are named "
            + "<slot.name>.txn-<xid>.spill and each deletes only its own slot's. Spill files are temporary; the "
            + "directory needs room for the largest open transactions.";
    private static final String SPILL_DIRECTORY_DISPLAY = "Spill directory";

    public static final String SPILL_MEMORY_BUFFER_BYTES_CONFIG = "spill.memory.buffer.bytes";
    private static final String SPILL_MEMORY_BUFFER_BYTES_DOC = "Heap bytes the transaction spill may use, across all "
            + "open transactions, before it writes changes to the spill backend. Also the most (estimated) heap a transaction "
            + "PostgreSQL sends whole may take while it is held until its commit arrives (its records all carry the end LSN, "
            + "which only the commit message brings); the rest of a larger one goes to the spill backend.";
    private static final long SPILL_MEMORY_BUFFER_BYTES_DEFAULT = 16L * 1024 * 1024;
    private static final String SPILL_MEMORY_BUFFER_BYTES_DISPLAY = "Spill memory buffer (bytes)";

    public static final String SPILL_MAX_TRANSACTION_BYTES_CONFIG = "spill.max.transaction.bytes";
    private static final String SPILL_MAX_TRANSACTION_BYTES_DOC = "Largest amount of spilled change data one "
            + "transaction may reach; beyond it the task stops with an error naming the transaction. 0: no limit "
            + "of its own.";
    private static final long SPILL_MAX_TRANSACTION_BYTES_DEFAULT = 0L;
    private static final String SPILL_MAX_TRANSACTION_BYTES_DISPLAY = "Spill limit per transaction (bytes)";

    public static final String SPILL_MAX_TOTAL_BYTES_CONFIG = "spill.max.total.bytes";
    private static final String SPILL_MAX_TOTAL_BYTES_DOC = "Largest amount of spilled change data all open "
            + "transactions together may reach; beyond it the task stops with an error. 0: no limit.";
    private static final long SPILL_MAX_TOTAL_BYTES_DEFAULT = 0L;
    private static final String SPILL_MAX_TOTAL_BYTES_DISPLAY = "Spill limit in total (bytes)";

    public static final String SPILL_DATABASE_SCHEMA_CONFIG = "spill.database.schema";
    private static final String SPILL_DATABASE_SCHEMA_DOC = "Schema of the database spill backend's tables, in the "
            + "source database (created if missing; database.user needs CREATE there). Lowercase letters, digits "
            + "and underscores, at most 63 characters.";
    private static final String SPILL_DATABASE_SCHEMA_DEFAULT = SpillSettings.DEFAULT_DATABASE_SCHEMA;
    private static final String SPILL_DATABASE_SCHEMA_DISPLAY = "Spill schema";

    private SpillKeys() {
    }

    /** Declares the keys of the group in {@code def}, in the order the documentation lists them. */
    static void define(ConfigDef def) {
        int order = 0;
        def.define(SPILL_BACKEND_CONFIG, Type.STRING, SPILL_BACKEND_DEFAULT, ConfigValidators.spillBackendValidator(),
                Importance.MEDIUM, SPILL_BACKEND_DOC, GROUP, ++order, Width.LONG, SPILL_BACKEND_DISPLAY);
        def.define(SPILL_DIRECTORY_CONFIG, Type.STRING, null, null,
                Importance.MEDIUM, SPILL_DIRECTORY_DOC, GROUP, ++order, Width.LONG, SPILL_DIRECTORY_DISPLAY);
        def.define(SPILL_MEMORY_BUFFER_BYTES_CONFIG, Type.LONG, SPILL_MEMORY_BUFFER_BYTES_DEFAULT,
                ConfigDef.Range.atLeast(0), Importance.LOW, SPILL_MEMORY_BUFFER_BYTES_DOC, GROUP, ++order,
                Width.SHORT, SPILL_MEMORY_BUFFER_BYTES_DISPLAY);
        def.define(SPILL_MAX_TRANSACTION_BYTES_CONFIG, Type.LONG, SPILL_MAX_TRANSACTION_BYTES_DEFAULT,
                ConfigDef.Range.atLeast(0), Importance.LOW, SPILL_MAX_TRANSACTION_BYTES_DOC, GROUP, ++order,
                Width.SHORT, SPILL_MAX_TRANSACTION_BYTES_DISPLAY);
        def.define(SPILL_MAX_TOTAL_BYTES_CONFIG, Type.LONG, SPILL_MAX_TOTAL_BYTES_DEFAULT,
                ConfigDef.Range.atLeast(0), Importance.LOW, SPILL_MAX_TOTAL_BYTES_DOC, GROUP, ++order,
                Width.SHORT, SPILL_MAX_TOTAL_BYTES_DISPLAY);
        def.define(SPILL_DATABASE_SCHEMA_CONFIG, Type.STRING, SPILL_DATABASE_SCHEMA_DEFAULT,
                ConfigValidators.lowercaseIdentifier(),
                Importance.LOW, SPILL_DATABASE_SCHEMA_DOC, GROUP, ++order, Width.MEDIUM,
                SPILL_DATABASE_SCHEMA_DISPLAY);
    }
}

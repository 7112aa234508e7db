package io.github.pgoutput.spill;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How streamed transactions are buffered until their commit. The connect layer maps the connector's
 * {@code spill.*} keys onto this record; nothing here reads configuration itself.
 *
 * @param backend             {@code spill.backend}: {@code disk} (default), {@code database}, or the fully qualified
 *                            name of a {@link TransactionSpillFactory} with a public no-argument constructor
 * @param directory           {@code spill.directory}: where the disk backend keeps its files
 *                            (default {@code <java.io.tmpdir>/kafka-connect-pgoutput/<slot name>})
 * @param memoryBufferBytes   {@code spill.memory.buffer.bytes}: frames not yet written to the store, summed over all
 *                            open transactions, never exceed this many bytes of memory (one frame larger than this is
 *                            written straight through)
 * @param maxTransactionBytes {@code spill.max.transaction.bytes}: the most one transaction may hold in the spill
 * @param maxTotalBytes       {@code spill.max.total.bytes}: the most all open transactions together may hold
 * @param databaseSchema      {@code spill.database.schema}: schema of the database backend's tables (one per slot,
 *                            named after it; default {@value #DEFAULT_DATABASE_SCHEMA}, created if missing)
 */
public record SpillSettings(String backend, Path directory, int memoryBufferBytes, long maxTransactionBytes,
                            long maxTotalBytes, String databaseSchema) {

    public static final String DISK_BACKEND = "disk";
    public static final String DATABASE_BACKEND = "database";
    public static final int DEFAULT_MEMORY_BUFFER_BYTES = 1 << 20;
    /** No limit: the store's own capacity (disk space) is the limit, reported as a clear error when reached. */
    public static final long UNLIMITED = Long.MAX_VALUE;
    public static final String DEFAULT_DATABASE_SCHEMA = "kafka_connect_pgoutput";

    public SpillSettings {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(databaseSchema, "databaseSchema");
        if (memoryBufferBytes < 0) {
            throw new IllegalArgumentException("spill.memory.buffer.bytes must be >= 0, was " + memoryBufferBytes);
        }
        if (maxTransactionBytes <= 0 || maxTotalBytes <= 0) {
            throw new IllegalArgumentException("spill.max.transaction.bytes and spill.max.total.bytes must be > 0, were "
                    + maxTransactionBytes + " and " + maxTotalBytes);
        }
    }

    /** The defaults for a slot: disk backend in the JVM's temporary directory, 1 MiB front buffer, no byte limits. */
    public static SpillSettings defaults(String slotName) {
        return new SpillSettings(DISK_BACKEND, defaultDirectory(slotName), DEFAULT_MEMORY_BUFFER_BYTES, UNLIMITED, UNLIMITED,
                DEFAULT_DATABASE_SCHEMA);
    }

    public static Path defaultDirectory(String slotName) {
        return Path.of(System.getProperty("java.io.tmpdir"), "kafka-connect-pgoutput", slotName);
    }

    public SpillSettings withDirectory(Path newDirectory) {
        return new SpillSettings(backend, newDirectory, memoryBufferBytes, maxTransactionBytes, maxTotalBytes, databaseSchema);
    }

    public SpillSettings withMemoryBufferBytes(int bytes) {
        return new SpillSettings(backend, directory, bytes, maxTransactionBytes, maxTotalBytes, databaseSchema);
    }

    public SpillSettings withLimits(long transactionBytes, long totalBytes) {
        return new SpillSettings(backend, directory, memoryBufferBytes, transactionBytes, totalBytes, databaseSchema);
    }

    public SpillSettings withDatabaseSchema(String schema) {
        return new SpillSettings(backend, directory, memoryBufferBytes, maxTransactionBytes, maxTotalBytes, schema);
    }

    public SpillSettings withBackend(String newBackend) {
        return new SpillSettings(newBackend, directory, memoryBufferBytes, maxTransactionBytes, maxTotalBytes, databaseSchema);
    }
}

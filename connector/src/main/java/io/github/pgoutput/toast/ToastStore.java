package io.github.pgoutput.toast;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The last large values of the rows a connector emitted, per (table OID, replica identity key, column), on disk
 * (RocksDB, in a directory of its own per connector).
 *
 * <p><b>Bounds.</b> Memory: RocksDB's block cache and write buffers share {@code memoryBytes} (native memory, not the
 * heap). Disk: the rows are kept with FIFO compaction: once their files exceed {@code maxDiskBytes} the oldest files
 * are dropped, so the rows written longest ago are forgotten first. A forgotten row is a miss, never a wrong value:
 * a file is dropped only after every older one, so a removal (delete, truncate) never outlives the value it removed.
 *
 * <p><b>Commit order.</b> Rows of committed deliveries are written as the task reads them, each with its
 * {@link RowVersion}; rows of a PREPARED delivery go to that transaction's own area ({@link #putPrepared}) and reach
 * the rows only at its COMMIT PREPARED ({@link #commitPrepared}), or are discarded at ROLLBACK PREPARED. Nothing of a
 * prepared transaction can change between its PREPARE and its outcome: it holds the locks of every row it changed.
 *
 * <p><b>Restarts.</b> Writes go to memory (no write-ahead log); {@link #sync()} flushes them to table files before
 * the task confirms the slot, so the store is never behind the slot's confirmed position after a crash, and what a
 * crash loses is every write after some point (flushes are atomic across the column families, watermark included).
 * The watermark ({@link #watermark()}) is the end LSN of the last delivery whose changes all reached the store; see
 * {@code ToastResolution} for how the task uses it.
 *
 * <p>Not thread-safe: the task's poll thread (and {@link #sync()} from the committer, which RocksDB allows).
 */
public final class ToastStore implements AutoCloseable {

    /**
     * @param directory    the store's own directory (created if missing)
     * @param maxDiskBytes the most the rows' files may take before the oldest are dropped
     * @param memoryBytes  native memory for RocksDB's caches and write buffers
     */
    public record Settings(Path directory, long maxDiskBytes, long memoryBytes) {
    }

    private static final byte[] ROW_PREFIX = {'r'};
    private static final byte[] META_IDENTITY = {'i'};
    private static final byte[] META_WATERMARK = {'w'};
    private static final byte[] META_SNAPSHOT = {'s'};
    private static final byte META_TABLE = 't';
    private static final byte META_PREPARED_TRUNCATE = 'x';
    private static final byte[] EVERYTHING_FROM = {0};
    private static final byte[] EVERYTHING_TO = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};

    private final Settings settings;
    private final RocksFiles files;
    /**
     * No write-ahead log: a write is a memtable insert, with no system call. What the store keeps across a crash is
     * what {@link #sync()} (or RocksDB itself, when a memtable fills) flushed to table files; the flushes of all
     * column families are atomic, so that is always every write up to some point, watermark included.
     */
    private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);
    private final RocksDB db;
    private final ColumnFamilyHandle meta;
    private final ColumnFamilyHandle rows;
    private final ColumnFamilyHandle prepared;
    private final List<ColumnFamilyHandle> handles;

    private ToastStore(Settings settings, RocksFiles files) {
        this.settings = settings;
        this.files = files;
        this.db = files.db();
        this.handles = files.handles();
        this.meta = handles.get(0);
        this.rows = handles.get(1);
        this.prepared = handles.get(2);
    }

    /**
     * Opens (or creates) the store in {@code settings.directory()}. A store written for another {@code identity}
     * (another server, database or slot) is emptied first: its positions mean nothing for this one.
     *
     * @throws ToastStoreException when the directory cannot be used (held by another task, damaged, no space)
     */
    public static ToastStore open(Settings settings, String identity) {
        return open(settings, identity, LOCK_WAIT_NANOS);
    }

    static ToastStore open(Settings settings, String identity, long lockWaitNanos) {
        try {
            Files.createDirectories(settings.directory());
            ToastStore store = new ToastStore(settings, RocksFiles.open(settings, lockWaitNanos));
            byte[] stored = store.db.get(store.meta, META_IDENTITY);
            byte[] wanted = identity.getBytes(StandardCharsets.UTF_8);
            if (stored == null || !Arrays.equals(stored, wanted)) {
                store.clear();
                store.db.put(store.meta, store.writeOptions, META_IDENTITY, wanted);
            }
            return store;
        } catch (RocksDBException | java.io.IOException e) {
            throw new ToastStoreException("cannot open the unchanged-TOAST store in " + settings.directory() + " ("
                    + e.getMessage() + "); another task may hold it (each connector needs its own directory), or the"
                    + " disk is full or read-only", e);
        }
    }

    /** How long {@link #open} waits for a task of the same connector that is still stopping to release the store. */
    private static final long LOCK_WAIT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(30);

    public Settings settings() {
        return settings;
    }

    /** The stored values of {@code key} as committed, if any. */
    public Optional<StoredRow> get(RowKey key) {
        return read(rows, key.encode(ROW_PREFIX));
    }

    /**
     * Stores {@code row} for {@code key}; an empty row removes the key. The last write wins, whatever its version:
     * changes come in commit order, and changes PostgreSQL sends again after a restart come again in that order too,
     * so each write leaves the row as it was at that change (and {@link ToastResolver} uses no value written at or
     * after the change it resolves). Not reading first keeps a write one RocksDB put.
     */
    public void put(RowKey key, StoredRow row) {
        byte[] encoded = key.encode(ROW_PREFIX);
        write(() -> {
            if (row.isEmpty()) {
                db.delete(rows, writeOptions, encoded);
            } else {
                db.put(rows, writeOptions, encoded, row.encode());
            }
        });
    }

    /** Forgets {@code key} (a delete, a value that is not stored, a value that cannot be proven). */
    public void remove(RowKey key) {
        write(() -> db.delete(rows, writeOptions, key.encode(ROW_PREFIX)));
    }

    /** Forgets every row of a table (truncate, a changed definition, no longer captured). */
    public void dropTable(long relationId) {
        byte[][] range = RowKey.range(ROW_PREFIX, relationId);
        write(() -> {
            db.deleteRange(rows, writeOptions, range[0], range[1]);
            db.delete(meta, writeOptions, tableKey(relationId));
        });
    }

    /** What the prepared transaction {@code xid} wrote for {@code key}: a row, or an empty row where it removed it. */
    public Optional<StoredRow> getPrepared(Xid xid, RowKey key) {
        return read(prepared, key.encode(preparedPrefix(xid)));
    }

    /** Keeps {@code row} (empty: removed) for {@code key} until {@code xid}'s outcome; the last write wins, as in {@link #put}. */
    public void putPrepared(Xid xid, RowKey key, StoredRow row) {
        byte[] encoded = key.encode(preparedPrefix(xid));
        write(() -> db.put(prepared, writeOptions, encoded, row.encode()));
    }

    /** The prepared transaction {@code xid} truncated the table: its committed rows do not answer for it any more. */
    public void truncatePrepared(Xid xid, long relationId) {
        byte[][] range = RowKey.range(preparedPrefix(xid), relationId);
        write(() -> {
            db.deleteRange(prepared, writeOptions, range[0], range[1]);
            db.put(meta, writeOptions, preparedTruncateKey(xid, relationId), new byte[0]);
        });
    }

    public boolean truncatedInPrepared(Xid xid, long relationId) {
        try {
            return db.get(meta, preparedTruncateKey(xid, relationId)) != null;
        } catch (RocksDBException e) {
            throw failed(e);
        }
    }

    /**
     * COMMIT PREPARED of {@code xid}: its truncates and rows become the committed ones, at version {@code at} (the
     * COMMIT PREPARED's place in commit order). Reads the transaction's area in key order, so memory stays bounded.
     */
    public void commitPrepared(Xid xid, RowVersion at) {
        byte[] truncates = new byte[] {META_PREPARED_TRUNCATE};
        byte[] xidBytes = xidBytes(xid);
        try (RocksIterator it = db.newIterator(meta)) {
            byte[] from = concat(truncates, xidBytes);
            for (it.seek(from); it.isValid() && startsWith(it.key(), from); it.next()) {
                dropTable(ByteBuffer.wrap(it.key(), from.length, 8).getLong());
            }
        }
        byte[] prefix = preparedPrefix(xid);
        try (RocksIterator it = db.newIterator(prepared)) {
            for (it.seek(prefix); it.isValid() && startsWith(it.key(), prefix); it.next()) {
                byte[] rowKey = concat(ROW_PREFIX, Arrays.copyOfRange(it.key(), prefix.length, it.key().length));
                StoredRow row = StoredRow.decode(it.value());
                StoredRow committed = new StoredRow(at, row.columns());
                Optional<StoredRow> existing = read(rows, rowKey);
                if (existing.isPresent() && at.isBefore(existing.get().version())) {
                    continue;
                }
                write(() -> {
                    if (committed.isEmpty()) {
                        db.delete(rows, writeOptions, rowKey);
                    } else {
                        db.put(rows, writeOptions, rowKey, committed.encode());
                    }
                });
            }
        }
        discardPrepared(xid);
    }

    /** ROLLBACK PREPARED of {@code xid} (or its COMMIT PREPARED applied): forgets what it kept. */
    public void discardPrepared(Xid xid) {
        byte[] prefix = preparedPrefix(xid);
        byte[] truncates = concat(new byte[] {META_PREPARED_TRUNCATE}, xidBytes(xid));
        write(() -> {
            try (WriteBatch batch = new WriteBatch()) {
                batch.deleteRange(prepared, prefix, successor(prefix));
                batch.deleteRange(meta, truncates, successor(truncates));
                db.write(writeOptions, batch);
            }
        });
    }

    /** The end LSN of the last delivery whose changes all reached the store; {@link Lsn#INVALID} when none. */
    public Lsn watermark() {
        return readLsn(META_WATERMARK);
    }

    /** Every change of the deliveries up to {@code endLsn} reached the store. */
    public void advance(Lsn endLsn) {
        if (endLsn.isAfter(watermark())) {
            write(() -> db.put(meta, writeOptions, META_WATERMARK, ByteBuffer.allocate(8).putLong(endLsn.value()).array()));
        }
    }

    /** The consistent point of the snapshot the rows come from; {@link Lsn#INVALID} when none. */
    public Lsn snapshotPoint() {
        return readLsn(META_SNAPSHOT);
    }

    /**
     * A snapshot at {@code consistentPoint} fills the store: a store filled from another one (or from streaming alone)
     * is emptied first, since rows deleted in between would stay. A snapshot resumed after a restart keeps its rows.
     */
    public void beginSnapshot(Lsn consistentPoint) {
        if (!consistentPoint.equals(snapshotPoint())) {
            clear();
            write(() -> db.put(meta, writeOptions, META_SNAPSHOT, ByteBuffer.allocate(8).putLong(consistentPoint.value()).array()));
        }
    }

    /** The definition a table's rows were stored under (see {@code ToastResolver}), if any row of it was. */
    public Optional<String> tableDefinition(long relationId) {
        try {
            byte[] value = db.get(meta, tableKey(relationId));
            return value == null ? Optional.empty() : Optional.of(new String(value, StandardCharsets.UTF_8));
        } catch (RocksDBException e) {
            throw failed(e);
        }
    }

    public void tableDefinition(long relationId, String definition) {
        write(() -> db.put(meta, writeOptions, tableKey(relationId), definition.getBytes(StandardCharsets.UTF_8)));
    }

    /** Every table with a stored definition: relation id to definition. */
    public Map<Long, String> tableDefinitions() {
        Map<Long, String> tables = new LinkedHashMap<>();
        byte[] prefix = {META_TABLE};
        try (RocksIterator it = db.newIterator(meta)) {
            for (it.seek(prefix); it.isValid() && startsWith(it.key(), prefix); it.next()) {
                tables.put(ByteBuffer.wrap(it.key(), 1, 8).getLong(), new String(it.value(), StandardCharsets.UTF_8));
            }
        }
        return tables;
    }

    /** Forgets everything but the identity: rows, prepared areas, definitions, watermark and snapshot point. */
    public void clear() {
        write(() -> {
            try (WriteBatch batch = new WriteBatch()) {
                batch.deleteRange(rows, EVERYTHING_FROM, EVERYTHING_TO);
                batch.deleteRange(prepared, EVERYTHING_FROM, EVERYTHING_TO);
                batch.delete(meta, META_WATERMARK);
                batch.delete(meta, META_SNAPSHOT);
                batch.deleteRange(meta, new byte[] {META_TABLE}, new byte[] {META_TABLE + 1});
                batch.deleteRange(meta, new byte[] {META_PREPARED_TRUNCATE}, new byte[] {META_PREPARED_TRUNCATE + 1});
                db.write(writeOptions, batch);
            }
        });
    }

    /** Makes every write so far durable: flushes the memtables of every column family, atomically, to table files. */
    public void sync() {
        flush();
    }

    /** Bytes of the store's table files on disk (the write-ahead log, at most {@code memoryBytes} more, aside). */
    public long diskBytes() {
        long total = 0;
        try {
            for (ColumnFamilyHandle handle : handles) {
                total += db.getLongProperty(handle, "rocksdb.total-sst-files-size");
            }
        } catch (RocksDBException e) {
            throw failed(e);
        }
        return total;
    }

    /**
     * Native memory RocksDB reports in use: the block cache (which the write buffers are charged to) and the table
     * readers' index and filter blocks not held in it.
     */
    public long nativeMemoryBytes() {
        try {
            long readers = 0;
            for (ColumnFamilyHandle handle : handles) {
                readers += db.getLongProperty(handle, "rocksdb.estimate-table-readers-mem");
            }
            return files.cacheUsage() + readers;
        } catch (RocksDBException e) {
            throw failed(e);
        }
    }

    /** RocksDB's estimate of the committed rows stored. */
    public long estimatedRows() {
        try {
            return db.getLongProperty(rows, "rocksdb.estimate-num-keys");
        } catch (RocksDBException e) {
            throw failed(e);
        }
    }

    /** Writes the memtables to table files. */
    void flush() {
        write(() -> {
            try (org.rocksdb.FlushOptions options = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
                db.flush(options, handles);
            }
        });
    }

    @Override
    public void close() {
        try {
            flush();
        } catch (ToastStoreException e) {
            // Closing goes on: what was not flushed comes again from the slot (the watermark is before it).
        }
        writeOptions.close();
        files.close();
    }

    private Optional<StoredRow> read(ColumnFamilyHandle family, byte[] key) {
        try {
            byte[] value = db.get(family, key);
            return value == null ? Optional.empty() : Optional.of(StoredRow.decode(value));
        } catch (RocksDBException e) {
            throw failed(e);
        }
    }

    private Lsn readLsn(byte[] key) {
        try {
            byte[] value = db.get(meta, key);
            return value == null ? Lsn.INVALID : Lsn.of(ByteBuffer.wrap(value).getLong());
        } catch (RocksDBException e) {
            throw failed(e);
        }
    }

    @FunctionalInterface
    private interface Write {
        void run() throws RocksDBException;
    }

    private void write(Write write) {
        try {
            write.run();
        } catch (RocksDBException e) {
            throw failed(e);
        }
    }

    private ToastStoreException failed(RocksDBException e) {
        return new ToastStoreException("the unchanged-TOAST store in " + settings.directory() + " failed: " + e.getMessage()
                + (e.getStatus() == null ? "" : " (" + e.getStatus().getCodeString() + ")"), e);
    }

    private static byte[] tableKey(long relationId) {
        return ByteBuffer.allocate(9).put(META_TABLE).putLong(relationId).array();
    }

    private static byte[] preparedTruncateKey(Xid xid, long relationId) {
        return ByteBuffer.allocate(17).put(META_PREPARED_TRUNCATE).put(xidBytes(xid)).putLong(relationId).array();
    }

    private static byte[] preparedPrefix(Xid xid) {
        return concat(new byte[] {'p'}, xidBytes(xid));
    }

    private static byte[] xidBytes(Xid xid) {
        return ByteBuffer.allocate(8).putLong(xid.value()).array();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    /** The first key after every key that starts with {@code prefix} (the prefixes here never end in 0xff bytes only). */
    private static byte[] successor(byte[] prefix) {
        byte[] next = prefix.clone();
        for (int i = next.length - 1; i >= 0; i--) {
            if (next[i] != (byte) 0xff) {
                next[i]++;
                return Arrays.copyOf(next, i + 1);
            }
        }
        throw new IllegalArgumentException("no successor of " + Arrays.toString(prefix));
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}

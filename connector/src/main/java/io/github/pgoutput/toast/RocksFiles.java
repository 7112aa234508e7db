package io.github.pgoutput.toast;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionOptionsFIFO;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBufferManager;

/**
 * The RocksDB database of a {@link ToastStore} and the native objects it is configured with: three column families
 * (the default one for metadata; {@code rows}, FIFO-compacted within the disk bound; {@code prepared}), one block
 * cache that the write buffers are charged to, so that the store's native memory stays within its bound. Owns and
 * closes them. Not thread-safe to close.
 */
final class RocksFiles implements AutoCloseable {

    static {
        RocksDB.loadLibrary();
    }

    private static final byte[] ROWS = "rows".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PREPARED = "prepared".getBytes(StandardCharsets.US_ASCII);

    private final LRUCache cache;
    private final WriteBufferManager writeBuffers;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions metaOptions;
    private final ColumnFamilyOptions rowOptions;
    private final ColumnFamilyOptions preparedOptions;
    private final RocksDB db;
    private final List<ColumnFamilyHandle> handles;

    private RocksFiles(ToastStore.Settings settings) throws RocksDBException {
        long memory = Math.max(8L << 20, settings.memoryBytes());
        cache = new LRUCache(memory);
        // Memtables (at most half the memory) are charged to the cache, so blocks and buffers together stay within it.
        writeBuffers = new WriteBufferManager(memory / 2, cache);
        dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true).setAtomicFlush(true)
                .setWriteBufferManager(writeBuffers)
                // RocksDB's own log in the directory: warnings only, and at most two files of 1 MiB.
                .setInfoLogLevel(org.rocksdb.InfoLogLevel.WARN_LEVEL).setMaxLogFileSize(1L << 20).setKeepLogFileNum(2)
                // FIFO compaction needs every table file open; their number is about maxDiskBytes / the write buffer size.
                .setMaxOpenFiles(-1);
        BlockBasedTableConfig tables = new BlockBasedTableConfig().setBlockCache(cache)
                .setCacheIndexAndFilterBlocks(true).setPinL0FilterAndIndexBlocksInCache(true)
                .setFilterPolicy(new BloomFilter(10));
        long writeBuffer = Math.max(1L << 20, Math.min(64L << 20, memory / 4));
        metaOptions = new ColumnFamilyOptions().setTableFormatConfig(tables);
        rowOptions = new ColumnFamilyOptions().setTableFormatConfig(tables).setWriteBufferSize(writeBuffer)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setCompactionStyle(CompactionStyle.FIFO)
                .setCompactionOptionsFIFO(new CompactionOptionsFIFO().setMaxTableFilesSize(settings.maxDiskBytes())
                        .setAllowCompaction(true));
        preparedOptions = new ColumnFamilyOptions().setTableFormatConfig(tables).setWriteBufferSize(writeBuffer)
                .setCompressionType(CompressionType.LZ4_COMPRESSION);
        List<ColumnFamilyDescriptor> families = List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, metaOptions),
                new ColumnFamilyDescriptor(ROWS, rowOptions), new ColumnFamilyDescriptor(PREPARED, preparedOptions));
        handles = new ArrayList<>();
        db = RocksDB.open(dbOptions, settings.directory().toString(), families, handles);
    }

    /**
     * Opens the store, waiting while another instance holds its lock: during a rebalance the task's previous
     * instance on this worker may still be stopping.
     */
    static RocksFiles open(ToastStore.Settings settings, long lockWaitNanos) throws RocksDBException {
        long deadline = System.nanoTime() + lockWaitNanos;
        while (true) {
            try {
                return new RocksFiles(settings);
            } catch (RocksDBException e) {
                boolean locked = e.getMessage() != null && e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("lock");
                if (!locked || System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    RocksDB db() {
        return db;
    }

    /** Metadata, rows, prepared areas: in that order. */
    List<ColumnFamilyHandle> handles() {
        return handles;
    }

    long cacheUsage() {
        return cache.getUsage();
    }

    @Override
    public void close() {
        handles.forEach(ColumnFamilyHandle::close);
        db.close();
        rowOptions.close();
        preparedOptions.close();
        metaOptions.close();
        dbOptions.close();
        writeBuffers.close();
        cache.close();
    }
}

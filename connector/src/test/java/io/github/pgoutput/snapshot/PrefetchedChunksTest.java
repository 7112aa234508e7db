package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ChunkReader.Chunk;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The next chunk of an incremental snapshot is read in the background, and used only when it is the one asked for. */
class PrefetchedChunksTest {

    private static final TableName ORDERS = new TableName("public", "orders");
    private static final List<RelationColumn> COLUMNS = List.of(new RelationColumn(true, "id", 20, -1));
    private static final SnapshotTable TABLE = new SnapshotTable(ORDERS, 1, COLUMNS, 10, false, null);
    private static final TableKey KEY = new TableKey(ORDERS, List.of(new TableKey.Column("id", 0, "bigint", null)));

    /** Chunks of one row, the key after {@code after}; each read takes 50 ms, and no two may overlap. */
    private static final class SlowTable implements IncrementalSnapshot.Chunks {
        final List<String> reads = new CopyOnWriteArrayList<>();
        final AtomicInteger inUse = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        SQLException failure;

        @Override
        public List<TableName> capturedTables() {
            use();
            inUse.decrementAndGet();
            return List.of(ORDERS);
        }

        @Override
        public Chunk read(TableName table, List<String> after, int size, String condition) throws SQLException {
            use();
            try {
                reads.add(after + " on " + Thread.currentThread().getName());
                Thread.sleep(50);
                if (failure != null) {
                    throw failure;
                }
                long next = after.isEmpty() ? 1 : Long.parseLong(after.get(0)) + 1;
                return new Chunk(TABLE, KEY, List.of(new SnapshotRow(TABLE, List.of(Long.toString(next)), false, false,
                        SnapshotRow.Marker.INCREMENTAL)), TransactionSnapshot.parse("1:1000:"), false);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            } finally {
                inUse.decrementAndGet();
            }
        }

        private void use() {
            if (inUse.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
        }

        @Override
        public void close() {
        }
    }

    @Test
    void theChunkAskedForIsTheOneReadInTheBackground() throws Exception {
        SlowTable table = new SlowTable();
        try (PrefetchedChunks chunks = new PrefetchedChunks(table)) {
            chunks.prefetch(ORDERS, List.of("4"), 1, null);

            Chunk chunk = chunks.read(ORDERS, List.of("4"), 1, null);

            assertThat(chunk.rows()).singleElement().satisfies(r -> assertThat(r.values()).containsExactly("5"));
            assertThat(table.reads).containsExactly("[4] on incremental-snapshot-prefetch");
        }
    }

    @Test
    void aPrefetchNotAskedForIsDroppedAndTheChunkAskedForIsRead() throws Exception {
        SlowTable table = new SlowTable();
        try (PrefetchedChunks chunks = new PrefetchedChunks(table)) {
            chunks.prefetch(ORDERS, List.of("4"), 1, null);

            Chunk chunk = chunks.read(ORDERS, List.of("2"), 1, null);
            chunks.prefetch(ORDERS, List.of("3"), 1, null);
            Chunk other = chunks.read(ORDERS, List.of("3"), 2, null);
            chunks.prefetch(ORDERS, List.of("3"), 1, null);
            Chunk filtered = chunks.read(ORDERS, List.of("3"), 1, "id % 2 = 0");

            assertThat(chunk.rows().get(0).values()).containsExactly("3");
            assertThat(other.rows().get(0).values()).as("another size is another chunk").containsExactly("4");
            assertThat(filtered.rows().get(0).values()).as("another condition is another chunk").containsExactly("4");
            assertThat(table.reads).containsExactly("[4] on incremental-snapshot-prefetch", "[2] on main",
                    "[3] on incremental-snapshot-prefetch", "[3] on main", "[3] on incremental-snapshot-prefetch", "[3] on main");
            assertThat(table.overlaps).as("the connection is never used by two threads at once").hasValue(0);
        }
    }

    @Test
    void aFailedPrefetchFailsTheReadThatAsksForItWithItsOwnError() {
        SlowTable table = new SlowTable();
        table.failure = new SQLException("permission denied for table orders", "42501");
        try (PrefetchedChunks chunks = new PrefetchedChunks(table)) {
            chunks.prefetch(ORDERS, List.of(), 1, null);

            assertThatThrownBy(() -> chunks.read(ORDERS, List.of(), 1, null)).isSameAs(table.failure);
        }
    }

    @Test
    void listingTheTablesWaitsForTheReadUnderWay() throws Exception {
        SlowTable table = new SlowTable();
        try (PrefetchedChunks chunks = new PrefetchedChunks(table)) {
            chunks.prefetch(ORDERS, List.of(), 1, null);

            assertThat(chunks.capturedTables()).containsExactly(ORDERS);
            chunks.prefetch(ORDERS, List.of("1"), 1, null);
        }
        assertThat(table.overlaps).hasValue(0);
        assertThat(table.reads).as("close waited for the last prefetch").hasSize(2);
    }
}

package io.github.pgoutput.toast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToastStoreTest {

    private static final String IDENTITY = "localhost:5432/db/slot";

    @TempDir
    Path directory;

    private ToastStore open() {
        return ToastStore.open(new ToastStore.Settings(directory.resolve("store"), 64L << 20, 8L << 20), IDENTITY);
    }

    static RowKey key(long table, String id) {
        return new RowKey(table, List.of(id));
    }

    static StoredRow row(long lsn, long sequence, String column, String value) {
        return new StoredRow(new RowVersion(Lsn.of(lsn), sequence), Map.of(column, text(value)));
    }

    static ColumnValue text(String value) {
        return new ColumnValue.Text(Bytes.utf8(value));
    }

    @Test
    void theLastWriteWinsAsChangesSentAgainComeInCommitOrderToo() {
        try (ToastStore store = open()) {
            store.put(key(1, "7"), row(0x200, 1, "body", "ahead"));
            store.put(key(1, "7"), row(0x100, 1, "body", "replayed"));

            assertThat(store.get(key(1, "7"))).get().satisfies(r -> {
                assertThat(r.columns().get("body")).isEqualTo(text("replayed"));
                assertThat(r.version()).isEqualTo(new RowVersion(Lsn.of(0x100), 1));
            });
        }
    }

    @Test
    void anEmptyRowRemovesTheKey() {
        try (ToastStore store = open()) {
            store.put(key(1, "7"), row(0x100, 1, "body", "v"));
            store.put(key(1, "7"), new StoredRow(new RowVersion(Lsn.of(0x200), 1), Map.of()));

            assertThat(store.get(key(1, "7"))).isEmpty();
        }
    }

    @Test
    void droppingATableForgetsOnlyItsRows() {
        try (ToastStore store = open()) {
            store.put(key(1, "7"), row(0x100, 1, "body", "a"));
            store.put(key(2, "7"), row(0x100, 2, "body", "b"));

            store.flush();

            store.dropTable(1);
            store.flush();

            assertThat(store.get(key(1, "7"))).isEmpty();
            assertThat(store.get(key(2, "7"))).isPresent();
        }
        try (ToastStore store = open()) {
            assertThat(store.get(key(1, "7"))).as("after reopening").isEmpty();
            assertThat(store.get(key(2, "7"))).isPresent();
        }
    }

    @Test
    void aSecondOpenOfTheSameDirectoryFailsWhileTheFirstHoldsIt() {
        try (ToastStore store = open()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> ToastStore.open(new ToastStore.Settings(directory.resolve("store"), 64L << 20, 8L << 20),
                    IDENTITY, 2_000_000_000L)).isInstanceOf(ToastStoreException.class).hasMessageContaining("another task");
            assertThat(System.nanoTime() - start).as("it waited for the holder to stop").isGreaterThan(1_900_000_000L);
        }
    }

    @Test
    void preparedRowsBecomeCommittedOnlyAtCommitPreparedWithItsVersion() {
        try (ToastStore store = open()) {
            store.put(key(1, "7"), row(0x100, 1, "body", "before"));
            store.putPrepared(Xid.of(900), key(1, "7"), row(0x200, 1, "body", "prepared"));

            assertThat(store.get(key(1, "7"))).get().extracting(r -> r.columns().get("body")).isEqualTo(text("before"));

            store.commitPrepared(Xid.of(900), new RowVersion(Lsn.of(0x300), 0));

            assertThat(store.get(key(1, "7"))).get().satisfies(r -> {
                assertThat(r.columns().get("body")).isEqualTo(text("prepared"));
                assertThat(r.version()).isEqualTo(new RowVersion(Lsn.of(0x300), 0));
            });
            assertThat(store.getPrepared(Xid.of(900), key(1, "7"))).isEmpty();
        }
    }

    @Test
    void aPreparedRemovalRemovesAtCommitPrepared() {
        try (ToastStore store = open()) {
            store.put(key(1, "7"), row(0x100, 1, "body", "before"));
            store.putPrepared(Xid.of(900), key(1, "7"), new StoredRow(new RowVersion(Lsn.of(0x200), 1), Map.of()));

            store.commitPrepared(Xid.of(900), new RowVersion(Lsn.of(0x300), 0));

            assertThat(store.get(key(1, "7"))).isEmpty();
        }
    }

    @Test
    void rolledBackPreparedRowsAreDiscarded() {
        try (ToastStore store = open()) {
            store.put(key(1, "7"), row(0x100, 1, "body", "before"));
            store.putPrepared(Xid.of(900), key(1, "7"), row(0x200, 1, "body", "prepared"));
            store.truncatePrepared(Xid.of(900), 2);

            store.discardPrepared(Xid.of(900));

            assertThat(store.getPrepared(Xid.of(900), key(1, "7"))).isEmpty();
            assertThat(store.truncatedInPrepared(Xid.of(900), 2)).isFalse();
            assertThat(store.get(key(1, "7"))).get().extracting(r -> r.columns().get("body")).isEqualTo(text("before"));
        }
    }

    @Test
    void aPreparedTruncateDropsTheTableAtCommitPrepared() {
        try (ToastStore store = open()) {
            store.put(key(1, "7"), row(0x100, 1, "body", "before"));
            store.truncatePrepared(Xid.of(900), 1);
            assertThat(store.truncatedInPrepared(Xid.of(900), 1)).isTrue();
            assertThat(store.get(key(1, "7"))).isPresent();

            store.commitPrepared(Xid.of(900), new RowVersion(Lsn.of(0x300), 0));

            assertThat(store.get(key(1, "7"))).isEmpty();
        }
    }

    @Test
    void rowsWatermarkAndDefinitionsSurviveReopening() {
        try (ToastStore store = open()) {
            store.put(key(1, "7"), row(0x100, 1, "body", "kept"));
            store.advance(Lsn.of(0x180));
            store.tableDefinition(1, "public\u0000docs");
            store.sync();
        }
        try (ToastStore store = open()) {
            assertThat(store.get(key(1, "7"))).get().extracting(r -> r.columns().get("body")).isEqualTo(text("kept"));
            assertThat(store.watermark()).isEqualTo(Lsn.of(0x180));
            assertThat(store.tableDefinitions()).containsEntry(1L, "public\u0000docs");
        }
    }

    @Test
    void aStoreOfAnotherServerDatabaseOrSlotIsEmptiedOnOpening() {
        try (ToastStore store = open()) {
            store.put(key(1, "7"), row(0x100, 1, "body", "v"));
            store.advance(Lsn.of(0x180));
        }
        try (ToastStore store = ToastStore.open(new ToastStore.Settings(directory.resolve("store"), 64L << 20, 8L << 20),
                "otherhost:5432/db/slot")) {
            assertThat(store.get(key(1, "7"))).isEmpty();
            assertThat(store.watermark()).isEqualTo(Lsn.INVALID);
        }
    }

    @Test
    void aNewSnapshotEmptiesTheStoreAndAResumedOneKeepsIt() {
        try (ToastStore store = open()) {
            store.beginSnapshot(Lsn.of(0x100));
            store.put(key(1, "7"), row(0x100, 0, "body", "v"));

            store.beginSnapshot(Lsn.of(0x100));
            assertThat(store.get(key(1, "7"))).isPresent();

            store.beginSnapshot(Lsn.of(0x500));
            assertThat(store.get(key(1, "7"))).isEmpty();
            assertThat(store.snapshotPoint()).isEqualTo(Lsn.of(0x500));
        }
    }

    @Test
    void theWatermarkNeverMovesBack() {
        try (ToastStore store = open()) {
            store.advance(Lsn.of(0x300));
            store.advance(Lsn.of(0x200));

            assertThat(store.watermark()).isEqualTo(Lsn.of(0x300));
        }
    }

    @Test
    void diskStaysBoundedByForgettingTheRowsWrittenLongestAgo() {
        long bound = 4L << 20;
        java.util.Random random = new java.util.Random(42);
        try (ToastStore store = ToastStore.open(new ToastStore.Settings(directory.resolve("bounded"), bound, 8L << 20), IDENTITY)) {
            int rows = 3_000;
            for (int i = 0; i < rows; i++) {
                // Random values, so compression cannot make the bound moot.
                byte[] value = new byte[6 * 1024];
                random.nextBytes(value);
                store.put(key(1, Integer.toString(i)), row(0x100 + i, 1, "body", java.util.Base64.getEncoder().encodeToString(value)));
                if (i % 100 == 99) {
                    store.flush();
                }
            }
            store.flush();

            assertThat(store.diskBytes()).as("bytes on disk").isLessThanOrEqualTo(bound + (4L << 20));
            assertThat(store.get(key(1, "0"))).as("the first row written").isEmpty();
            assertThat(store.get(key(1, Integer.toString(rows - 1)))).as("the last row written").isPresent();
        }
    }
}

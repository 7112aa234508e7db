package io.github.pgoutput.connect.offsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.snapshot.StoredOffset.DebeziumSnapshot;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

/**
 * Reading Debezium's stored offsets, in the shapes Debezium's PostgresOffsetContext writes them (numbers as the
 * offset store's JSON converter gives them back: Long, or Integer when small).
 */
class DebeziumOffsetTest {

    /** An offset Debezium 3.6 stores with a change record: inside transaction 771, after the one ending at 0/1A3F2C8. */
    private static Map<String, Object> afterChange() {
        Map<String, Object> offset = new HashMap<>();
        offset.put("transaction_id", null);
        offset.put("lsn_proc", 27_521_864L);
        offset.put("messageType", "INSERT");
        offset.put("lsn", 27_521_864L);
        offset.put("txId", 771);
        offset.put("lsn_commit", 0x1A3F2C8L);
        offset.put("ts_usec", 1_767_323_045_123_456L);
        return offset;
    }

    @Test
    void anOffsetAfterAChangeGoesOnAfterTheLastCompletedTransactionAndSkipsTheChangesUpToItsLsnInTheSameTransaction() {
        DebeziumOffset offset = DebeziumOffset.decode(afterChange());

        assertThat(offset.resumeLsn()).isEqualTo(Lsn.parse("0/1A3F2C8"));
        assertThat(offset.snapshot()).isEqualTo(DebeziumSnapshot.NONE);
        assertThat(offset.partial()).isEqualTo(new DebeziumPartial(Xid.of(771), Lsn.of(27_521_864L), 1));
        assertThat(offset.describe()).contains("lsn_commit 0/1A3F2C8", "lsn 0/1A3F348", "txId 771");
    }

    @Test
    void debezium37CountsTheChangesAtTheLastLsnThatAreInKafka() {
        Map<String, Object> stored = afterChange();
        stored.put("lsn_events_processed", 3);

        assertThat(DebeziumOffset.decode(stored).partial().changesAtLastChange()).isEqualTo(3);
    }

    @Test
    void aTransactionalMessageCountsAsOneChangeWhateverTheCountOfAnEarlierLsnSays() {
        Map<String, Object> stored = afterChange();
        stored.put("messageType", "MESSAGE");
        stored.put("lsn_events_processed", 5L);

        assertThat(DebeziumOffset.decode(stored).partial().changesAtLastChange()).isEqualTo(1);
    }

    @Test
    void anOffsetAtACommitOrAHeartbeatAfterItLiesBetweenTransactions() {
        Map<String, Object> stored = afterChange();
        stored.put("messageType", "COMMIT");
        stored.put("lsn", 0x1A3F2C8L);

        DebeziumOffset offset = DebeziumOffset.decode(stored);

        assertThat(offset.partial()).isNull();
        assertThat(offset.resumeLsn()).isEqualTo(Lsn.parse("0/1A3F2C8"));
    }

    @Test
    void anOffsetAtATransactionsBeginShowsNoneOfItsChangesInKafka() {
        Map<String, Object> stored = afterChange();
        stored.put("messageType", "BEGIN");

        assertThat(DebeziumOffset.decode(stored).partial()).isNull();
    }

    @Test
    void aNonTransactionalMessageHasNoTransactionToStopInside() {
        Map<String, Object> stored = afterChange();
        stored.put("messageType", "MESSAGE");
        stored.remove("txId");

        assertThat(DebeziumOffset.decode(stored).partial()).isNull();
    }

    @Test
    void theLastRecordOfAFinishedSnapshotNamesWhereStreamingStarts() {
        Map<String, Object> stored = Map.of("lsn", 0x2000L, "txId", 760, "ts_usec", 1L, "snapshot", "INITIAL",
                "last_snapshot_record", true, "snapshot_completed", true);

        DebeziumOffset offset = DebeziumOffset.decode(stored);

        assertThat(offset.snapshot()).isEqualTo(DebeziumSnapshot.NONE);
        assertThat(offset.resumeLsn()).isEqualTo(Lsn.of(0x2000));
        assertThat(offset.partial()).isNull();
    }

    @Test
    void insideTheFirstStreamedTransactionNoTransactionHasEndedYet() {
        Map<String, Object> stored = afterChange();
        stored.remove("lsn_commit");

        DebeziumOffset offset = DebeziumOffset.decode(stored);

        assertThat(offset.resumeLsn()).isEqualTo(Lsn.INVALID);
        assertThat(offset.partial()).isNotNull();
    }

    @Test
    void anUnfinishedSnapshotIsSeenInEveryFormDebeziumWroteIt() {
        assertThat(DebeziumOffset.decode(Map.of("lsn", 0x2000L, "snapshot", "INITIAL", "last_snapshot_record", false,
                "snapshot_completed", false)).snapshot()).isEqualTo(DebeziumSnapshot.IN_PROGRESS);
        assertThat(DebeziumOffset.decode(Map.of("lsn", 0x2000L, "snapshot", "BLOCKING", "snapshot_completed", false)).snapshot())
                .isEqualTo(DebeziumSnapshot.IN_PROGRESS);
        // Debezium 1.x: a boolean, finished only on the last record
        assertThat(DebeziumOffset.decode(Map.of("lsn", 0x2000L, "snapshot", true, "last_snapshot_record", false)).snapshot())
                .isEqualTo(DebeziumSnapshot.IN_PROGRESS);
        assertThat(DebeziumOffset.decode(Map.of("lsn", 0x2000L, "snapshot", true, "last_snapshot_record", true)).snapshot())
                .isEqualTo(DebeziumSnapshot.NONE);
    }

    @Test
    void anUnfinishedSnapshotShowsNoStreamedTransactionInKafka() {
        DebeziumOffset offset = DebeziumOffset.decode(Map.of("lsn", 0x2000L, "txId", 760, "snapshot", "INITIAL",
                "snapshot_completed", false));

        assertThat(offset.resumeLsn()).isEqualTo(Lsn.INVALID);
        assertThat(offset.partial()).isNull();
    }

    @Test
    void anIncrementalSnapshotIsUnderWayWhileItsCollectionsAreStored() {
        Map<String, Object> stored = afterChange();
        stored.put("incremental_snapshot_collections", "[{\"incremental_snapshot_collections_id\":\"public.t\"}]");
        stored.put("incremental_snapshot_primary_key", "aced0005");

        assertThat(DebeziumOffset.decode(stored).snapshot()).isEqualTo(DebeziumSnapshot.INCREMENTAL_IN_PROGRESS);
    }

    @Test
    void aFieldItNeedsWithAValueItCannotReadIsAnErrorNamingIt() {
        Map<String, Object> text = afterChange();
        text.put("lsn_commit", "0/1A3F2C8");
        assertThatThrownBy(() -> DebeziumOffset.decode(text)).isInstanceOf(ConnectException.class)
                .hasMessageContaining("'lsn_commit' is String '0/1A3F2C8'; expected a whole number")
                .hasMessageContaining("PATCH /connectors/<name>/offsets");

        Map<String, Object> snapshot = afterChange();
        snapshot.put("snapshot", "SOMETIMES");
        assertThatThrownBy(() -> DebeziumOffset.decode(snapshot)).hasMessageContaining("'snapshot' is String 'SOMETIMES'");

        Map<String, Object> xid = afterChange();
        xid.put("txId", 1L << 33);
        assertThatThrownBy(() -> DebeziumOffset.decode(xid)).hasMessageContaining("'txId' is 8589934592");
    }

    @Test
    void anOffsetWithoutLsnIsNoOffsetOfDebeziumsPostgresConnector() {
        // e.g. Debezium's MySQL connector once ran under this name and topic prefix
        assertThatThrownBy(() -> DebeziumOffset.decode(Map.of("file", "binlog.000003", "pos", 4L)))
                .isInstanceOf(ConnectException.class).hasMessageContaining("field 'lsn' is missing");
    }

    @Test
    void fieldsItDoesNotNeedAreLeftAsDebeziumWroteThem() {
        Map<String, Object> stored = afterChange();
        stored.put("xmin", "not a number this connector reads");
        stored.put("transaction_data_collection_order_public.t", 4L);

        assertThat(DebeziumOffset.decode(stored).resumeLsn()).isEqualTo(Lsn.parse("0/1A3F2C8"));
    }

    @Test
    void noOffsetStoredDecodesToNone() {
        assertThat(DebeziumOffset.decode(null)).isNull();
    }

    @Test
    void itsPartitionIsTheTopicPrefixAsServer() {
        assertThat(DebeziumOffset.partition("dbserver1")).isEqualTo(Map.of("server", "dbserver1"));
    }

    @Test
    void supersedesNoOwnOffsetAndAnOwnOffsetItIsPast() {
        DebeziumOffset offset = DebeziumOffset.decode(afterChange());

        assertThat(offset.supersedes(null)).isTrue();
        assertThat(offset.supersedes(SourceOffsets.encode(Position.afterDelivery(Lsn.parse("0/1A00000"))))).isTrue();
    }

    @Test
    void doesNotSupersedeAnOwnOffsetAtOrPastIt() {
        DebeziumOffset offset = DebeziumOffset.decode(afterChange());

        assertThat(offset.supersedes(SourceOffsets.encode(Position.afterDelivery(Lsn.parse("0/1A3F2C8"))))).isFalse();
        assertThat(offset.supersedes(SourceOffsets.encode(Position.insideDelivery(Lsn.parse("0/1A3F2C8"), Lsn.parse("0/1A3F900"),
                Lsn.parse("0/1A3F920"), 1, "n")))).isFalse();
        assertThat(offset.supersedes(SourceOffsets.encode(Position.afterDelivery(Lsn.parse("0/2000000"))))).isFalse();
    }

    @Test
    void neverSupersedesAnOwnSnapshotInProgress() {
        DebeziumOffset offset = DebeziumOffset.decode(afterChange());

        assertThat(offset.supersedes(SourceOffsets.snapshotInProgress(Lsn.parse("0/1000")))).isFalse();
    }
}

package io.github.pgoutput.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ReconciliationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Reconciliation reconciliation = new Reconciliation();

    @Test
    void rebuildsATableFromInsertsUpdatesAndDeletesAndFindsNoDifferenceWithTheSameRows() {
        reconciliation.change("t", "id", insert(1, "ok", "a"), headers("0/10", 0, "COMMITTED", null));
        reconciliation.change("t", "id", insert(2, "ok", "b"), headers("0/10", 1, "COMMITTED", null));
        reconciliation.change("t", "id", update(1, "ok", "c"), headers("0/20", 0, "COMMITTED", null));
        reconciliation.change("t", "id", delete(2), headers("0/30", 0, "COMMITTED", null));
        reconciliation.change("t", "id", null, headers("0/30", 0, "COMMITTED", null));

        assertThat(reconciliation.differingRows("t", Map.of(1L, row(1, "ok", "c")))).isZero();
        assertThat(reconciliation.differingRows("t", Map.of(1L, row(1, "ok", "a")))).isOne();
        assertThat(reconciliation.differingRows("t", Map.of(1L, row(1, "ok", "c"), 2L, row(2, "ok", "b")))).isOne();
        assertThat(reconciliation.records()).isEqualTo(4);
    }

    @Test
    void countsADeliveryWrittenAgainAsDuplicatesButAppliesItIdempotently() {
        reconciliation.change("t", "id", insert(1, "ok", "a"), headers("0/10", 0, "COMMITTED", null));
        reconciliation.change("t", "id", insert(2, "ok", "b"), headers("0/10", 1, "COMMITTED", null));
        reconciliation.change("t", "id", insert(1, "ok", "a"), headers("0/10", 0, "COMMITTED", null));
        reconciliation.change("t", "id", insert(2, "ok", "b"), headers("0/10", 1, "COMMITTED", null));
        reconciliation.change("t", "id", insert(3, "ok", "c"), headers("0/10", 2, "COMMITTED", null));

        assertThat(reconciliation.duplicates()).isEqualTo(2);
        assertThat(reconciliation.differingRows("t", Map.of(1L, row(1, "ok", "a"), 2L, row(2, "ok", "b"),
                3L, row(3, "ok", "c")))).isZero();
    }

    @Test
    void countsEveryRecordOfARolledBackChangeAsLeakedAndAPreparedRollbackOnlyWhenNotPrepared() {
        reconciliation.change("t", "id", insert(1, Schema.DOOMED, "x"), headers("0/10", 0, "COMMITTED", null));
        reconciliation.change("t", "id", insert(2, Schema.DOOMED, "x"), headers("0/20", 0, "PREPARED", "g"));
        reconciliation.change("t", "id", insert(3, Schema.PREPARED_ROLLBACK, "x"), headers("0/30", 0, "PREPARED", "h"));
        reconciliation.change("t", "id", insert(4, Schema.PREPARED_ROLLBACK, "x"), headers("0/40", 0, "COMMITTED", null));

        assertThat(reconciliation.leaked()).isEqualTo(3);
    }

    @Test
    void appliesPreparedChangesOnlyWhenTheirGidWasCommitted() {
        reconciliation.lifecycle(lifecycle("g-commit", "PREPARED"));
        reconciliation.lifecycle(lifecycle("g-rollback", "PREPARED"));
        reconciliation.lifecycle(lifecycle("g-commit", "COMMITTED"));
        reconciliation.lifecycle(lifecycle("g-rollback", "ROLLED_BACK"));
        reconciliation.change("t", "id", insert(1, "ok", "kept"), headers("0/10", 0, "PREPARED", "g-commit"));
        reconciliation.change("t", "id", insert(2, Schema.PREPARED_ROLLBACK, "gone"),
                headers("0/20", 0, "PREPARED", "g-rollback"));

        assertThat(reconciliation.differingRows("t", Map.of(1L, row(1, "ok", "kept")))).isZero();
        assertThat(reconciliation.leaked()).isZero();
        assertThat(reconciliation.incompleteLifecycles(Set.of("g-commit", "g-rollback"), Set.of("g-commit"), Map.of())).isZero();
        assertThat(reconciliation.preparedChecked()).isEqualTo(2);
    }

    @Test
    void findsLifecyclesWithoutOutcomeWithTheWrongOutcomeOrWithoutPrepared() {
        reconciliation.lifecycle(lifecycle("no-outcome", "PREPARED"));
        reconciliation.lifecycle(lifecycle("wrong", "PREPARED"));
        reconciliation.lifecycle(lifecycle("wrong", "ROLLED_BACK"));
        reconciliation.lifecycle(lifecycle("no-prepared", "COMMITTED"));
        reconciliation.lifecycle(lifecycle("twice", "PREPARED"));
        reconciliation.lifecycle(lifecycle("twice", "COMMITTED"));
        reconciliation.lifecycle(lifecycle("twice", "PREPARED"));
        reconciliation.lifecycle(lifecycle("twice", "COMMITTED"));

        long incomplete = reconciliation.incompleteLifecycles(Set.of("never-on-topic"),
                Set.of("wrong", "no-prepared", "twice", "never-on-topic"), Map.of());

        assertThat(incomplete).as("no-outcome, wrong, no-prepared, never-on-topic; 'twice' is a re-delivery")
                .isEqualTo(4);
    }

    @Test
    void leavesOutOnlyTransactionsWithoutAnyRecordThatEndedBeforeTheNewestSnapshotsConsistentPoint() {
        // Two snapshots: the second one (at 0/3000) was taken again, so streaming started there.
        reconciliation.change("t", "id", insert(1, "ok", "a"), snapshotHeaders("0/2000"));
        reconciliation.change("t", "id", insert(1, "ok", "a"), snapshotHeaders("0/3000"));
        reconciliation.lifecycle(lifecycle("staged-then-lost", "PREPARED"));
        reconciliation.change("t", "id", insert(2, "ok", "b"), headers("0/2800", 0, "PREPARED", "staged-then-lost"));

        long incomplete = reconciliation.incompleteLifecycles(
                Set.of("ended-before", "ended-at-point", "ended-after", "no-bound", "staged-then-lost"),
                Set.of("ended-before", "ended-at-point", "ended-after", "no-bound", "staged-then-lost"),
                Map.of("ended-before", 0x2FFFL, "ended-at-point", 0x3000L, "ended-after", 0x3001L,
                        "staged-then-lost", 0x2900L));

        assertThat(reconciliation.endedBeforeSnapshot()).as("ended-before and ended-at-point").isEqualTo(2);
        assertThat(incomplete).as("ended-after, no-bound (where it ended is unknown), staged-then-lost (a consumer "
                + "staged it and never learns its outcome)").isEqualTo(3);
        assertThat(reconciliation.snapshotsSeen()).isEqualTo(2);
    }

    @Test
    void aNewSnapshotOfATableReplacesTheRowsAnEarlierInterruptedOneLeft() {
        reconciliation.change("t", "id", insert(1, "ok", "a"), snapshotHeaders("0/2000"));
        reconciliation.change("t", "id", insert(2, "ok", "b"), snapshotHeaders("0/2000"));
        // Taken again at 0/3000 (no truncate record precedes it); row 2 was deleted in between.
        reconciliation.change("t", "id", insert(1, "ok", "a"), snapshotHeaders("0/3000"));

        assertThat(reconciliation.differingRows("t", Map.of(1L, row(1, "ok", "a")))).isZero();
    }

    @Test
    void aPreparedTransactionStagedOnATableTopicNeedsItsOutcomeEvenWhenItEndedBeforeTheSnapshotPoint() {
        reconciliation.change("t", "id", insert(1, "ok", "a"), snapshotHeaders("0/3000"));
        // Its PREPARED changes reached the table topic; its lifecycle never reached the transaction topic.
        reconciliation.change("t", "id", insert(2, "ok", "b"), headers("0/2800", 0, "PREPARED", "staged-on-table"));

        long incomplete = reconciliation.incompleteLifecycles(Set.of("staged-on-table"), Set.of("staged-on-table"),
                Map.of("staged-on-table", 0x2900L));

        assertThat(incomplete).as("a consumer staged its changes and never learns the outcome").isOne();
        assertThat(reconciliation.endedBeforeSnapshot()).isZero();
    }

    @Test
    void withoutASnapshotEveryPreparedTransactionNeedsItsLifecycle() {
        long incomplete = reconciliation.incompleteLifecycles(Set.of("g"), Set.of("g"), Map.of("g", 0x10L));

        assertThat(incomplete).isOne();
        assertThat(reconciliation.endedBeforeSnapshot()).isZero();
    }

    @Test
    void readsLsnsInPostgresTextForm() {
        assertThat(Reconciliation.lsn("0/2FF4360")).isEqualTo(0x2FF4360L);
        assertThat(Reconciliation.lsn("1A/0")).isEqualTo(0x1AL << 32);
        assertThat(Reconciliation.lsn("FFFFFFFF/FFFFFFFF")).isEqualTo(-1L);
    }

    private static Map<String, String> snapshotHeaders(String consistentPoint) {
        return Map.of(Reconciliation.SNAPSHOT, "true", Reconciliation.LSN, consistentPoint);
    }

    private static JsonNode insert(long id, String marker, String note) {
        return change("c", null, row(id, marker, note));
    }

    private static JsonNode update(long id, String marker, String note) {
        return change("u", null, row(id, marker, note));
    }

    private static JsonNode delete(long id) {
        Map<String, String> key = new HashMap<>();
        key.put("id", Long.toString(id));
        return change("d", key, null);
    }

    private static JsonNode change(String op, Map<String, String> before, Map<String, String> after) {
        Map<String, Object> value = new HashMap<>();
        value.put("op", op);
        value.put("before", before);
        value.put("after", after);
        return JSON.valueToTree(value);
    }

    private static Map<String, String> row(long id, String marker, String note) {
        return Map.of("id", Long.toString(id), "marker", marker, "note", note);
    }

    private static JsonNode lifecycle(String gid, String outcome) {
        return JSON.valueToTree(Map.of("gid", gid, "outcome", outcome, "status", outcome));
    }

    private static Map<String, String> headers(String commitLsn, long order, String outcome, String gid) {
        Map<String, String> headers = new HashMap<>();
        headers.put(Reconciliation.COMMIT_LSN, commitLsn);
        headers.put(Reconciliation.TX_ORDER, Long.toString(order));
        headers.put(Reconciliation.OUTCOME, outcome);
        if (gid != null) {
            headers.put(Reconciliation.GID, gid);
        }
        return headers;
    }
}

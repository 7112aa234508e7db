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
        assertThat(reconciliation.incompleteLifecycles(Set.of("g-commit", "g-rollback"), Set.of("g-commit"))).isZero();
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
                Set.of("wrong", "no-prepared", "twice", "never-on-topic"));

        assertThat(incomplete).as("no-outcome, wrong, no-prepared, never-on-topic; 'twice' is a re-delivery")
                .isEqualTo(4);
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

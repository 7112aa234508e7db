package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RecordComparisonTest {

    private static final String KEY_SCHEMA = "{\"type\":\"struct\",\"optional\":false,\"name\":\"%s.public.t.Key\","
            + "\"fields\":[{\"type\":\"int32\",\"optional\":false,\"field\":\"id\"}]}";

    /** A change record of table public.t with key {@code id} and one column {@code v} (schema name given). */
    private static CapturedRecord change(String prefix, String op, int id, String v, String vSchemaName, long tsMs) {
        String key = "{\"schema\":" + KEY_SCHEMA.formatted(prefix) + ",\"payload\":{\"id\":" + id + "}}";
        String row = "{\"type\":\"struct\",\"optional\":true,\"name\":\"" + prefix + ".public.t.Value\",\"fields\":["
                + "{\"type\":\"int32\",\"optional\":false,\"field\":\"id\"},"
                + "{\"type\":\"string\",\"optional\":true," + (vSchemaName == null ? "" : "\"name\":\"" + vSchemaName + "\",")
                + "\"field\":\"v\"}]}";
        String value = "{\"schema\":{\"type\":\"struct\",\"optional\":false,\"name\":\"" + prefix + ".public.t.Envelope\","
                + "\"version\":2,\"fields\":[{\"field\":\"before\"," + row.substring(1) + ",{\"field\":\"after\"," + row.substring(1)
                + ",{\"type\":\"string\",\"optional\":false,\"field\":\"op\"},{\"type\":\"int64\",\"optional\":true,\"field\":\"ts_ms\"}]},"
                + "\"payload\":{\"before\":null,\"after\":{\"id\":" + id + ",\"v\":\"" + v + "\"},\"op\":\"" + op
                + "\",\"ts_ms\":" + tsMs + "}}";
        return new CapturedRecord(prefix + ".public.t", json(key), json(value), Map.of());
    }

    private static com.fasterxml.jackson.databind.JsonNode json(String text) {
        return CapturedRecord.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void identicalRecordsUnderTwoPrefixesDifferNowhereAndEveryFieldCounts() {
        RecordComparison.Result result = RecordComparison.compare(
                List.of(change("dbz", "c", 1, "a", null, 1000)), "dbz",
                List.of(change("our", "c", 1, "a", null, 2000)), "our");

        assertThat(result.differences()).isEmpty();
        assertThat(result.comparedFields()).isGreaterThan(20);
    }

    @Test
    void aSchemaNameThatDiffersIsOneDifferenceAtTheAttributeOfEachEnvelopeSide() {
        RecordComparison.Result result = RecordComparison.compare(
                List.of(change("dbz", "c", 1, "a", "io.debezium.data.Json", 0)), "dbz",
                List.of(change("our", "c", 1, "a", "io.github.pgoutput.data.Json", 0)), "our");

        assertThat(result.differences()).containsExactly(
                new Difference("public.t[c] value.schema.before.v.@name", "\"io.debezium.data.Json\"", "\"io.github.pgoutput.data.Json\""),
                new Difference("public.t[c] value.schema.after.v.@name", "\"io.debezium.data.Json\"", "\"io.github.pgoutput.data.Json\""));
    }

    @Test
    void aValueThatDiffersNamesItsColumn() {
        RecordComparison.Result result = RecordComparison.compare(
                List.of(change("dbz", "u", 1, "a", null, 0)), "dbz", List.of(change("our", "u", 1, "b", null, 0)), "our");

        assertThat(result.differences()).containsExactly(new Difference("public.t[u] value.payload.after.v", "\"a\"", "\"b\""));
    }

    @Test
    void recordsArePairedByOpAndKeyNotByPosition() {
        RecordComparison.Result result = RecordComparison.compare(
                List.of(change("dbz", "c", 1, "one", null, 0), change("dbz", "c", 2, "two", null, 0)), "dbz",
                List.of(change("our", "c", 2, "two", null, 0), change("our", "c", 1, "one", null, 0)), "our");

        assertThat(result.differences()).isEmpty();
    }

    @Test
    void aStreamedRecordPairsWithTheRecordOfTheSameTransactionBeforeAnEarlierOneOfTheSameKind() {
        String truncate = "{\"schema\":{\"type\":\"struct\",\"optional\":false},\"payload\":{\"op\":\"t\","
                + "\"source\":{\"txId\":%d,\"ts_ms\":%d}}}";
        CapturedRecord debezium = new CapturedRecord("dbz.public.t", null, json(truncate.formatted(822, 50)), Map.of());
        CapturedRecord oursAtSnapshot = new CapturedRecord("our.public.t", null, json(truncate.formatted(700, 10)), Map.of());
        CapturedRecord oursStreamed = new CapturedRecord("our.public.t", null, json(truncate.formatted(822, 50)), Map.of());

        assertThat(RecordComparison.compare(List.of(debezium), "dbz", List.of(oursAtSnapshot, oursStreamed), "our").differences())
                .containsExactly(new Difference("public.t[t] record", Difference.ABSENT, "present"));
    }

    @Test
    void aRecordOnlyOneSideWroteIsADifferenceOfItsOwnAndOursIsAnAddition() {
        CapturedRecord tombstone = new CapturedRecord("our.public.t", json("{\"schema\":null,\"payload\":{\"id\":1}}"), null, Map.of());
        RecordComparison.Result result = RecordComparison.compare(
                List.of(change("dbz", "d", 1, "x", null, 0)), "dbz", List.of(tombstone), "our");

        assertThat(result.differences()).containsExactly(
                new Difference("public.t[d] record", "present", Difference.ABSENT),
                new Difference("public.t[tombstone] record", Difference.ABSENT, "present"));
        assertThat(result.differences().get(1).isAddition()).isTrue();
    }

    @Test
    void aColumnOnlyOursHasIsAnAdditionInSchemaAndPayload() {
        CapturedRecord debezium = new CapturedRecord("dbz.topic", null, json("{\"schema\":{\"type\":\"struct\",\"optional\":false,"
                + "\"fields\":[{\"type\":\"int32\",\"optional\":false,\"field\":\"a\"}]},\"payload\":{\"a\":1}}"), Map.of());
        CapturedRecord ours = new CapturedRecord("our.topic", null, json("{\"schema\":{\"type\":\"struct\",\"optional\":false,"
                + "\"fields\":[{\"type\":\"int32\",\"optional\":false,\"field\":\"a\"},{\"type\":\"int64\",\"optional\":false,\"field\":\"extra\"}]},"
                + "\"payload\":{\"a\":1,\"extra\":7}}"), Map.of("pg.xid", "9"));

        RecordComparison.Result result = RecordComparison.compare(List.of(debezium), "dbz", List.of(ours), "our");

        assertThat(result.differences()).containsExactly(
                new Difference("topic[row] value.schema.extra", Difference.ABSENT, "present"),
                new Difference("topic[row] value.payload.extra", Difference.ABSENT, "7"),
                new Difference("topic[row] headers.pg.xid", Difference.ABSENT, "9"));
        assertThat(result.differences()).allMatch(Difference::isAddition);
    }

    @Test
    void aDifferentFieldOrderIsReportedOnce() {
        CapturedRecord debezium = new CapturedRecord("dbz.topic", null, json("{\"schema\":{\"type\":\"struct\",\"optional\":false,"
                + "\"fields\":[{\"type\":\"int32\",\"optional\":false,\"field\":\"a\"},{\"type\":\"int32\",\"optional\":false,\"field\":\"b\"}]},"
                + "\"payload\":{\"a\":1,\"b\":2}}"), Map.of());
        CapturedRecord ours = new CapturedRecord("our.topic", null, json("{\"schema\":{\"type\":\"struct\",\"optional\":false,"
                + "\"fields\":[{\"type\":\"int32\",\"optional\":false,\"field\":\"b\"},{\"type\":\"int32\",\"optional\":false,\"field\":\"a\"}]},"
                + "\"payload\":{\"b\":2,\"a\":1}}"), Map.of());

        assertThat(RecordComparison.compare(List.of(debezium), "dbz", List.of(ours), "our").differences())
                .containsExactly(new Difference("topic[row] value.schema.@field_order", "a,b", "b,a"));
    }

    @Test
    void onlyTheFirstHeartbeatOfEachSideIsCompared() {
        String key = "{\"schema\":{\"type\":\"string\",\"optional\":false},\"payload\":\"%s\"}";
        String value = "{\"schema\":{\"type\":\"struct\",\"optional\":false,\"fields\":[{\"type\":\"int64\",\"optional\":false,\"field\":\"ts_ms\"}]},"
                + "\"payload\":{\"ts_ms\":%d}}";
        List<CapturedRecord> debezium = List.of(
                new CapturedRecord("__debezium-heartbeat.dbz", json(key.formatted("dbz")), json(value.formatted(1)), Map.of()),
                new CapturedRecord("__debezium-heartbeat.dbz", json(key.formatted("dbz")), json(value.formatted(2)), Map.of()));
        List<CapturedRecord> ours = List.of(
                new CapturedRecord("__debezium-heartbeat.our", json(key.formatted("our")), json(value.formatted(5)), Map.of()));

        assertThat(RecordComparison.compare(debezium, "dbz", ours, "our").differences()).isEmpty();
    }
}

package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RecordNormalisationTest {

    private static CapturedRecord record(String topic, String value, Map<String, String> headers) {
        return new CapturedRecord(topic, null, CapturedRecord.parse(value.getBytes(StandardCharsets.UTF_8)), headers);
    }

    @Test
    void replacesThePrefixInTopicsSchemaNamesAndSourceNameButNotInOtherText() {
        RecordNormalisation.Normalised normalised = RecordNormalisation.apply(record("dbz_x.public.t",
                "{\"schema\":{\"name\":\"dbz_x.public.t.Envelope\"},\"payload\":{\"op\":\"c\",\"after\":{\"v\":\"dbz_xy\"},"
                        + "\"source\":{\"name\":\"dbz_x\"}}}", Map.of()), "dbz_x");

        assertThat(normalised.topic()).isEqualTo("public.t");
        assertThat(normalised.value().at("/schema/name").asText()).isEqualTo("<prefix>.public.t.Envelope");
        assertThat(normalised.value().at("/payload/source/name").asText()).isEqualTo("<prefix>");
        assertThat(normalised.value().at("/payload/after/v").asText()).isEqualTo("dbz_xy");
    }

    @Test
    void processingTimesAndTheVersionVaryButTheCommitTimeOfAStreamedChangeDoesNot() {
        RecordNormalisation.Normalised normalised = RecordNormalisation.apply(record("p.public.t",
                "{\"payload\":{\"op\":\"u\",\"ts_ms\":5,\"ts_us\":5000,\"source\":{\"version\":\"3.6.1.Final\",\"ts_ms\":4,"
                        + "\"lsn\":100,\"txId\":7}}}", Map.of()), "p");

        assertThat(normalised.value().at("/payload/ts_ms").asText()).isEqualTo(RecordNormalisation.VARIES);
        assertThat(normalised.value().at("/payload/ts_us").asText()).isEqualTo(RecordNormalisation.VARIES);
        assertThat(normalised.value().at("/payload/source/version").asText()).isEqualTo("<version>");
        assertThat(normalised.value().at("/payload/source/ts_ms").asLong()).isEqualTo(4);
        assertThat(normalised.value().at("/payload/source/lsn").asLong()).isEqualTo(100);
        assertThat(normalised.label()).isEqualTo("u");
    }

    @Test
    void aSnapshotReadsPositionAndTimeVaryBecauseEachConnectorHasItsOwnSlot() {
        RecordNormalisation.Normalised normalised = RecordNormalisation.apply(record("p.public.t",
                "{\"payload\":{\"op\":\"r\",\"source\":{\"ts_ms\":4,\"lsn\":100,\"txId\":7,\"snapshot\":\"first\"}}}",
                Map.of("__debezium.context.runId", "abc", "__debezium.context.connectorLogicalName", "p")), "p");

        assertThat(normalised.value().at("/payload/source/lsn").asText()).isEqualTo(RecordNormalisation.VARIES);
        assertThat(normalised.value().at("/payload/source/txId").asText()).isEqualTo(RecordNormalisation.VARIES);
        assertThat(normalised.value().at("/payload/source/snapshot").asText()).isEqualTo("first");
        assertThat(normalised.headers()).containsEntry("__debezium.context.runId", RecordNormalisation.VARIES)
                .containsEntry("__debezium.context.connectorLogicalName", "<prefix>");
    }

    @Test
    void aTransactionsDataCollectionsAreSortedAndDebeziumsIdentityHashIsHidden() {
        RecordNormalisation.Normalised normalised = RecordNormalisation.apply(record("p.transaction",
                "{\"payload\":{\"status\":\"END\",\"data_collections\":[{\"data_collection\":\"public.b\",\"event_count\":1},"
                        + "{\"data_collection\":\"io.debezium.X$MessageId@5f6d16eb\",\"event_count\":2},"
                        + "{\"data_collection\":\"public.a\",\"event_count\":3}]}}", Map.of()), "p");

        assertThat(normalised.value().at("/payload/data_collections").findValuesAsText("data_collection"))
                .containsExactly("io.debezium.X$MessageId@<identity hash>", "public.a", "public.b");
    }

    @Test
    void labelsTombstonesTransactionStatusesAndHeartbeats() {
        assertThat(RecordNormalisation.apply(new CapturedRecord("p.public.t", null, null, Map.of()), "p").label())
                .isEqualTo("tombstone");
        assertThat(RecordNormalisation.apply(record("p.transaction", "{\"payload\":{\"status\":\"END\"}}", Map.of()), "p").label())
                .isEqualTo("END");
        RecordNormalisation.Normalised heartbeat = RecordNormalisation.apply(record("__debezium-heartbeat.p",
                "{\"payload\":{\"ts_ms\":1}}", Map.of()), "p");
        assertThat(heartbeat.topic()).isEqualTo("heartbeat");
        assertThat(heartbeat.value().at("/payload/ts_ms").asText()).isEqualTo(RecordNormalisation.VARIES);
    }
}

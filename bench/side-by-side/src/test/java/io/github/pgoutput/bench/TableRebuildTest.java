package io.github.pgoutput.bench;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TableRebuildTest {

    private static final byte[] KEY = "{\"id\":42}".getBytes(UTF_8);

    private static byte[] value(String op, String after) {
        return ("{\"before\":null,\"after\":" + after + ",\"source\":{\"version\":\"0.1.0\",\"connector\":\"postgresql\","
                + "\"name\":\"w7\",\"snapshot\":\"incremental\",\"db\":\"bench\",\"sequence\":\"[null,\\\"1\\\"]\","
                + "\"schema\":\"public\",\"table\":\"bench\",\"txId\":null,\"lsn\":null,\"xmin\":null},"
                + "\"transaction\":null,\"op\":\"" + op + "\",\"ts_ms\":1}").getBytes(UTF_8);
    }

    @Test
    void readsTheIdOfTheKeyAndTheVOfTheRowAfterTheChange() throws Exception {
        byte[] read = value("r", "{\"id\":42,\"v\":\"abc\",\"n\":\"6.0\",\"ts\":\"2026-01-01T00:00:42Z\",\"flag\":true}");

        assertThat(TableRebuild.parse(KEY, read)).isEqualTo(new TableRebuild.TopicChange(42, 'r', "abc"));
    }

    @Test
    void aDeleteHasNoValueAndATombstoneIsNoChange() throws Exception {
        assertThat(TableRebuild.parse(KEY, value("d", "null"))).isEqualTo(new TableRebuild.TopicChange(42, 'd', null));
        assertThat(TableRebuild.parse(KEY, null)).isNull();
    }

    @Test
    void aRecordThatIsNoChangeOfTheTableFailsInsteadOfBeingSkipped() {
        assertThatThrownBy(() -> TableRebuild.parse(KEY, value("u", "null")))
                .hasMessageContaining("not a change of public.bench");
        assertThatThrownBy(() -> TableRebuild.parse("{\"other\":1}".getBytes(UTF_8), value("r", "{\"v\":\"x\"}")))
                .hasMessageContaining("not a change of public.bench");
    }

    @Test
    void aRowsHashIsNeverTheAbsentRow() {
        assertThat(TableRebuild.hash("")).isNotZero();
        assertThat(TableRebuild.hash("abc")).isNotEqualTo(TableRebuild.hash("abd"));
    }
}

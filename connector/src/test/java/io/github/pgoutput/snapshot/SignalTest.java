package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SignalTest {

    @Test
    void readsDebeziumsExecuteSnapshotWithItsAdditionalConditions() {
        Signal signal = Signal.parse("s1", "execute-snapshot", "{\"data-collections\": [\"public.orders\", \"inventory\\\\..*\"],"
                + " \"type\": \"INCREMENTAL\", \"additional-conditions\": [{\"data-collection\": \"public.orders\", \"filter\": \"color='blue'\"}]}");

        assertThat(signal).isEqualTo(new Signal.ExecuteSnapshot("s1", List.of("public.orders", "inventory\\..*"),
                Map.of("public.orders", "color='blue'")));
    }

    @Test
    void readsTheOlderSingleAdditionalConditionForEveryNamedTable() {
        Signal signal = Signal.parse("s1", "execute-snapshot", "{\"data-collections\": [\"a.b\", \"c.d\"], \"additional-condition\": \"id > 5\"}");

        assertThat(((Signal.ExecuteSnapshot) signal).conditions()).isEqualTo(Map.of("a.b", "id > 5", "c.d", "id > 5"));
    }

    @Test
    void readsStopPauseResumeAndLog() {
        assertThat(Signal.parse("2", "stop-snapshot", "{\"data-collections\": [\"public.orders\"], \"type\": \"incremental\"}"))
                .isEqualTo(new Signal.StopSnapshot("2", List.of("public.orders")));
        assertThat(Signal.parse("3", "stop-snapshot", null)).isEqualTo(new Signal.StopSnapshot("3", List.of()));
        assertThat(Signal.parse("4", "pause-snapshot", "")).isEqualTo(new Signal.PauseSnapshot("4"));
        assertThat(Signal.parse("5", "Resume-Snapshot", "{}")).isEqualTo(new Signal.ResumeSnapshot("5"));
        assertThat(Signal.parse("6", "log", "{\"message\": \"hello\"}")).isEqualTo(new Signal.Log("6", "hello"));
    }

    @Test
    void refusesWhatItCannotCarryOutNamingTheSignal() {
        assertThatThrownBy(() -> Signal.parse("s9", "execute-snapshot", "{\"data-collections\": [\"a.b\"], \"type\": \"blocking\"}"))
                .hasMessageContaining("signal 's9'").hasMessageContaining("blocking").hasMessageContaining("incremental snapshots only");
        assertThatThrownBy(() -> Signal.parse("s9", "execute-snapshot", "{}")).hasMessageContaining("names no table");
        assertThatThrownBy(() -> Signal.parse("s9", "snapshot-everything", "{}")).hasMessageContaining("unknown type");
        assertThatThrownBy(() -> Signal.parse("s9", "execute-snapshot", "{\"data-collections\": [1]}")).hasMessageContaining("list of non-empty strings");
        assertThatThrownBy(() -> Signal.parse("s9", "execute-snapshot", "{\"data-collections\": ")).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> Signal.parse("s9", "execute-snapshot", "[1]")).hasMessageContaining("must be a JSON object");
    }

    @Test
    void readsASignalDocumentWhoseDataIsAnObjectOrAString() {
        assertThat(Signal.ofDocument("7", "{\"type\": \"execute-snapshot\", \"data\": {\"data-collections\": [\"a.b\"]}}"))
                .isEqualTo(new Signal.ExecuteSnapshot("7", List.of("a.b"), Map.of()));
        assertThat(Signal.ofDocument("7", "{\"id\": \"mine\", \"type\": \"execute-snapshot\", \"data\": \"{\\\"data-collections\\\": [\\\"a.b\\\"]}\"}"))
                .isEqualTo(new Signal.ExecuteSnapshot("mine", List.of("a.b"), Map.of()));
        assertThat(Signal.ofDocument("8", "{\"type\": \"pause-snapshot\"}")).isEqualTo(new Signal.PauseSnapshot("8"));
        assertThatThrownBy(() -> Signal.ofDocument("9", "{\"data\": {}}")).hasMessageContaining("\"type\"");
    }

    @Test
    void jsonReaderReadsEveryKindOfValueAndNamesTheOffsetOfAnError() {
        assertThat(SignalJson.parse(" {\"a\": [1, -2.5e3, true, false, null, \"x\\n\\u00e9\\\"\"], \"b\": {}} "))
                .isEqualTo(Map.of("a", java.util.Arrays.asList(new BigDecimal("1"), new BigDecimal("-2.5e3"), true, false, null, "x\né\""),
                        "b", Map.of()));
        assertThatThrownBy(() -> SignalJson.parse("{\"a\" 1}")).hasMessage("not valid JSON: expected ':' at offset 5, found '1'");
        assertThatThrownBy(() -> SignalJson.parse("[1,]")).hasMessageContaining("offset 3");
        assertThatThrownBy(() -> SignalJson.parse("{} x")).hasMessageContaining("text after the JSON value");
        assertThatThrownBy(() -> SignalJson.parse("\"\\q\"")).hasMessageContaining("an escape");
    }
}

package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ParityReportTest {

    private static final ParityMode DEFAULT = ParityMode.all().get(0);

    @Test
    void aFailedConnectorAndAKeyOursIgnoresAreDifferencesAndOnlyUnlistedDifferencesAreUnaccepted() {
        RecordComparison.Result result = new RecordComparison.Result(10, List.of(
                new Difference("public.t[c] value.payload.after.x", "1", "2"),
                new Difference("public.t[c] value.payload.after.y", "1", "2")));
        ParityReport.ModeOutcome outcome = new ParityReport.ModeOutcome(DEFAULT, result,
                Map.of("our_default", "task FAILED: unknown mode"), Map.of("our_default", List.of("time.precision.mode")));
        ParityReport report = new ParityReport(List.of(outcome),
                KnownDifferences.parse("[default]\npublic.t[*] value.payload.after.x  # known\npublic.gone[*] x  # fixed\n"));

        assertThat(report.unaccepted(outcome)).extracting(Difference::path)
                .containsExactly("connector[ours] failed", "config[ours] time.precision.mode", "public.t[c] value.payload.after.y");
        assertThat(report.unusedEntries()).extracting(KnownDifferences.Entry::pattern).containsExactly("public.gone[*] x");
        assertThat(report.summary()).isEqualTo("Debezium parity: default 10 fields, 4 differences (3 not allowed)");
        assertThat(report.markdown()).contains("| default | default settings | 10 | 4 | 0 | 4 | 3 |")
                .contains("connector `our_default` stopped: task FAILED: unknown mode")
                .contains("connector `our_default` does not know (ignores) `time.precision.mode`")
                .contains("| `public.t[c] value.payload.after.y` | 1 | 1 | 2 | **no** |");
    }

    @Test
    void categoriesSortTheDifferencesByKindMostFirst() {
        assertThat(ParityReport.categories(List.of(
                new Difference("t[c] value.schema.after.x.@name", "\"a\"", "\"b\""),
                new Difference("t[u] value.schema.after.x.@name", "\"a\"", "\"b\""),
                new Difference("t[u] value.payload.after.x", "1", "2"),
                new Difference("t[u] headers.pg.xid", Difference.ABSENT, "1"))))
                .containsExactly(Map.entry("schema name", 2L), Map.entry("headers", 1L), Map.entry("payload values", 1L));
    }
}

package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class KnownDifferencesTest {

    private static final KnownDifferences KNOWN = KnownDifferences.parse("""
            # accepted for now
            [all]
            *[*] value.payload.source.connector   # ours names itself
            [decimal_string]
            public.ps_special[*] value.payload.*.n   # NaN spelled differently
            """);

    @Test
    void aPatternAcceptsMatchingPathsInItsModeAndAllOnlyInEveryMode() {
        assertThat(KNOWN.acceptance("decimal_string", "public.ps_special[c] value.payload.after.n")).isNotNull()
                .extracting(KnownDifferences.Entry::reason).isEqualTo("NaN spelled differently");
        assertThat(KNOWN.acceptance("default", "public.ps_special[c] value.payload.after.n")).isNull();
        assertThat(KNOWN.acceptance("default", "public.t[u] value.payload.source.connector")).isNotNull();
        assertThat(KNOWN.acceptance("default", "public.t[u] value.payload.source.connector.x")).isNull();
    }

    @Test
    void bracesOfferAlternatives() {
        KnownDifferences known = KnownDifferences.parse("[m]\nt[*] value.schema.{before,after}.x.@name\n");

        assertThat(known.acceptance("m", "t[u] value.schema.before.x.@name")).isNotNull();
        assertThat(known.acceptance("m", "t[u] value.schema.after.x.@name")).isNotNull();
        assertThat(known.acceptance("m", "t[u] value.schema.source.x.@name")).isNull();
    }

    @Test
    void aSectionMayNameSeveralModes() {
        KnownDifferences known = KnownDifferences.parse("[default, time_connect]\nx\n");

        assertThat(known.acceptance("time_connect", "x")).isNotNull();
        assertThat(known.acceptance("default", "x")).isNotNull();
        assertThat(known.acceptance("decimal_string", "x")).isNull();
    }

    @Test
    void aPathSeveralTablesShareBecomesOnePatternButARecordOnlyOneSideWritesKeepsItsTopicAndLabel() {
        Map<String, List<Difference>> differences = Map.of("default", List.of(
                new Difference("public.a[c] value.payload.source.connector", "\"postgresql\"", "\"pgoutput\""),
                new Difference("public.b[u] value.payload.source.connector", "\"postgresql\"", "\"pgoutput\""),
                new Difference("public.a[t] record", Difference.ABSENT, "present"),
                new Difference("public.b[t] record", Difference.ABSENT, "present")));

        assertThat(KnownDifferences.suggest(differences).lines().filter(l -> !l.isBlank() && !l.startsWith("[")))
                .containsExactly("public.*[*] value.payload.source.connector   # debezium=\"postgresql\" ours=\"pgoutput\"",
                        "public.a[t] record   # debezium=(absent) ours=present",
                        "public.b[t] record   # debezium=(absent) ours=present");
    }

    @Test
    void dotsAndBracketsInAPatternAreLiteral() {
        KnownDifferences known = KnownDifferences.parse("[m]\na.b[c] x\n");

        assertThat(known.acceptance("m", "a.b[c] x")).isNotNull();
        assertThat(known.acceptance("m", "aXb[c] x")).isNull();
    }

    @Test
    void aPatternBeforeAnySectionIsRefusedWithItsLineNumber() {
        assertThatThrownBy(() -> KnownDifferences.parse("# header\npublic.t[*] x\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2");
    }

    @Test
    void theSuggestedListAcceptsEveryDifferenceItWasMadeFromAndPutsSharedOnesUnderAll() {
        Map<String, List<Difference>> differences = new LinkedHashMap<>();
        differences.put("default", List.of(new Difference("public.t[c] value.payload.after.x", "1", "2"),
                new Difference("public.t[u] value.payload.after.y", "\"a # b\"", "\"c\"")));
        differences.put("decimal_string", List.of(new Difference("public.t[u] value.payload.after.x", "1", "3")));

        String suggested = KnownDifferences.suggest(differences);
        KnownDifferences known = KnownDifferences.parse(suggested);

        differences.forEach((mode, list) -> assertThat(list).allMatch(d -> known.acceptance(mode, d.path()) != null));
        assertThat(known.acceptance("default", "public.t[r] value.payload.before.x").modes()).containsExactly("all");
        assertThat(known.acceptance("default", "public.t[r] value.payload.source.x")).isNull();
        assertThat(known.acceptance("decimal_string", "public.t[u] value.payload.after.y")).isNull();
    }
}

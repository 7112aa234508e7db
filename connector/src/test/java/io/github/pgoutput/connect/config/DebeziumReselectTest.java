package io.github.pgoutput.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.toast.ToastResolver;
import io.github.pgoutput.toast.UnchangedToastResolution;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** Debezium's reselect post processor keys, as users carry them, mapped onto unchanged.toast.resolution. */
class DebeziumReselectTest {

    private static Map<String, String> reselector(String... more) {
        Map<String, String> props = new HashMap<>(MinimalConfig.props());
        props.put("post.processors", "reselector");
        props.put("reselector.type", DebeziumReselect.RESELECT_CLASS);
        for (int i = 0; i < more.length; i += 2) {
            props.put(more[i], more[i + 1]);
        }
        return props;
    }

    @Test
    void resolutionIsOffUnlessAskedFor() {
        assertThat(new PgOutputSourceConnectorConfig(MinimalConfig.props()).unchangedToastResolution())
                .isEqualTo(UnchangedToastResolution.NONE);
    }

    @Test
    void theReselectPostProcessorMeansTheStore() {
        assertThat(new PgOutputSourceConnectorConfig(reselector()).unchangedToastResolution()).isEqualTo(UnchangedToastResolution.STORE);
    }

    @Test
    void theConnectorsOwnKeyWinsOverThePostProcessor() {
        Map<String, String> props = reselector(ToastKeys.UNCHANGED_TOAST_RESOLUTION_CONFIG, "reselect");

        assertThat(new PgOutputSourceConnectorConfig(props).unchangedToastResolution()).isEqualTo(UnchangedToastResolution.RESELECT);
    }

    @Test
    void unavailableValuesFalseResolvesNothing() {
        Map<String, String> props = reselector("reselector.reselect.unavailable.values", "false");

        assertThat(new PgOutputSourceConnectorConfig(props).unchangedToastResolution()).isEqualTo(UnchangedToastResolution.NONE);
    }

    @Test
    void theIncludeListSelectsColumnsByQualifiedTableAndColumnIgnoringCase() {
        ToastResolver.ColumnSelection selection = DebeziumReselect.of(reselector(
                "reselector.reselect.columns.include.list", "public\\.docs:body, public\\.notes:.*")).orElseThrow().columns();

        assertThat(selection.test("public", "docs", "body")).isTrue();
        assertThat(selection.test("public", "DOCS", "BODY")).isTrue();
        assertThat(selection.test("public", "docs", "note")).isFalse();
        assertThat(selection.test("public", "notes", "anything")).isTrue();
    }

    @Test
    void theExcludeListLeavesColumnsOut() {
        ToastResolver.ColumnSelection selection = DebeziumReselect.of(reselector(
                "reselector.reselect.columns.exclude.list", "public\\.docs:body")).orElseThrow().columns();

        assertThat(selection.test("public", "docs", "body")).isFalse();
        assertThat(selection.test("public", "docs", "note")).isTrue();
    }

    @Test
    void errorHandlingModeFailFailsOnWhatCannotBeProven() {
        assertThat(DebeziumReselect.of(reselector("reselector.reselect.error.handling.mode", "FAIL")).orElseThrow().failOnUnproven())
                .isTrue();
        assertThat(DebeziumReselect.of(reselector()).orElseThrow().failOnUnproven()).isFalse();
    }

    @Test
    void anotherPostProcessorIsRefusedOnPostProcessors() {
        Map<String, String> props = reselector("reselector.type", "com.example.MyProcessor");

        assertThatThrownBy(() -> new PgOutputSourceConnectorConfig(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("post.processors").hasMessageContaining(DebeziumReselect.RESELECT_CLASS);
    }

    @Test
    void theReselectKeysAreNotReportedAsIgnored() {
        Map<String, String> props = reselector("reselector.reselect.null.values", "true", "reselector.reselect.use.event.key", "true",
                "reselector.reselect.cache.enabled", "true");

        assertThat(IgnoredKeys.of(props)).isEmpty();
    }

}

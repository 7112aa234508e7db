package io.github.pgoutput.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.converters.BinaryHandlingMode;
import io.github.pgoutput.converters.TemporalPrecisionMode;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.snapshot.SnapshotMode;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigChoicesTest {

    @Test
    void parsesTheConfiguredTextIgnoringCaseAndSurroundingBlanks() {
        assertThat(ConfigChoices.SSL_MODE.parse("database.sslmode", " Verify-Full ")).isEqualTo(SslMode.VERIFY_FULL);
        assertThat(ConfigChoices.SNAPSHOT_MODE.parse("snapshot.mode", "INITIAL_ONLY"))
                .isEqualTo(SnapshotMode.INITIAL_ONLY);
        assertThat(ConfigChoices.PROTOCOL_VERSION.parse("protocol.version", "3"))
                .isEqualTo(ProtocolVersionSetting.V3);
    }

    @Test
    void rejectsUnknownTextNamingTheKeyAndTheAcceptedValues() {
        assertThatThrownBy(() -> ConfigChoices.STREAMING.parse("streaming", "always"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("streaming")
                .hasMessageContaining("always")
                .hasMessageContaining("auto, off, on, parallel");
    }

    @Test
    void writesEnumConstantsAsLowerCaseConfigValues() {
        assertThat(ConfigChoices.PUBLICATION_AUTOCREATE_MODE.texts())
                .containsExactly("disabled", "all_tables", "filtered", "no_tables");
        assertThat(ConfigChoices.SSL_MODE.texts())
                .containsExactly("disable", "allow", "prefer", "require", "verify-ca", "verify-full");
        assertThat(ConfigChoices.DECIMAL_HANDLING_MODE.validator()).hasToString("precise, double, string");
    }

    @Test
    void autoStandsForNoChoiceAndEveryOtherTextForTheLayersConstant() {
        assertThat(ConfigChoices.STREAMING.parse("streaming", "AUTO")).isEmpty();
        assertThat(ConfigChoices.STREAMING.parse("streaming", "parallel")).contains(StreamingMode.PARALLEL);
        assertThat(ConfigChoices.STREAMING.text(Optional.empty())).isEqualTo("auto");
        assertThat(ConfigChoices.STREAMING.text(Optional.of(StreamingMode.OFF))).isEqualTo("off");
    }

    @Test
    void spellsDebeziumsValuesOfTheConverterModes() {
        assertThat(ConfigChoices.BINARY_HANDLING_MODE.texts())
                .containsExactly("bytes", "base64", "base64-url-safe", "hex");
        assertThat(ConfigChoices.BINARY_HANDLING_MODE.parse("binary.handling.mode", "base64-url-safe"))
                .isEqualTo(BinaryHandlingMode.BASE64_URL_SAFE);
        assertThat(ConfigChoices.TIME_PRECISION_MODE.texts()).containsExactlyElementsOf(Arrays.stream(
                TemporalPrecisionMode.values()).map(m -> m.name().toLowerCase(Locale.ROOT)).toList());
    }

    /** Every declared choice: texts distinct ignoring case, and each parses to the value it is the text of. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("declaredChoices")
    void everyTextParsesBackToItselfAndNoTwoDifferOnlyInCase(String name, ConfigChoice<Object> choice) {
        assertThat(choice.texts()).extracting(t -> t.toLowerCase(Locale.ROOT)).doesNotHaveDuplicates();
        for (String text : choice.texts()) {
            assertThat(choice.text(choice.parse(name, text.toUpperCase(Locale.ROOT)))).isEqualTo(text);
        }
    }

    static Stream<Arguments> declaredChoices() throws IllegalAccessException {
        List<Arguments> choices = new ArrayList<>();
        for (Field field : ConfigChoices.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == ConfigChoice.class) {
                choices.add(Arguments.of(field.getName(), field.get(null)));
            }
        }
        assertThat(choices).hasSize(14);
        return choices.stream();
    }

    @Test
    void protocolAutoAllowsEveryVersionAndAFixedVersionOnlyItselfAndBelow() {
        assertThat(ProtocolVersionSetting.AUTO.allowsAtLeast(4)).isTrue();
        assertThat(ProtocolVersionSetting.AUTO.fixedVersion()).isEmpty();
        assertThat(ProtocolVersionSetting.V3.allowsAtLeast(3)).isTrue();
        assertThat(ProtocolVersionSetting.V3.allowsAtLeast(4)).isFalse();
    }
}

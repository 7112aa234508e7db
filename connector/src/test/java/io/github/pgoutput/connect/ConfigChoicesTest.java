package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class ConfigChoicesTest {

    @Test
    void parsesTheConfiguredTextIgnoringCaseAndSurroundingBlanks() {
        assertThat(ConfigChoices.parse(SslMode.class, "database.sslmode", " Verify-Full ")).isEqualTo(SslMode.VERIFY_FULL);
        assertThat(ConfigChoices.parse(SnapshotMode.class, "snapshot.mode", "INITIAL_ONLY"))
                .isEqualTo(SnapshotMode.INITIAL_ONLY);
        assertThat(ConfigChoices.parse(ProtocolVersionSetting.class, "protocol.version", "3"))
                .isEqualTo(ProtocolVersionSetting.V3);
    }

    @Test
    void rejectsUnknownTextNamingTheKeyAndTheAcceptedValues() {
        assertThatThrownBy(() -> ConfigChoices.parse(StreamingMode.class, "streaming", "always"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("streaming")
                .hasMessageContaining("always")
                .hasMessageContaining("auto, off, on, parallel");
    }

    @Test
    void writesEnumConstantsAsLowerCaseConfigValues() {
        assertThat(ConfigChoices.values(PublicationAutocreateMode.class))
                .containsExactly("disabled", "all_tables", "filtered");
        assertThat(ConfigChoices.values(SslMode.class))
                .containsExactly("disable", "allow", "prefer", "require", "verify-ca", "verify-full");
        assertThat(ConfigChoices.validator(DecimalHandlingMode.class)).hasToString("precise, double, string");
    }

    @Test
    void protocolAutoAllowsEveryVersionAndAFixedVersionOnlyItselfAndBelow() {
        assertThat(ProtocolVersionSetting.AUTO.allowsAtLeast(4)).isTrue();
        assertThat(ProtocolVersionSetting.AUTO.fixedVersion()).isEmpty();
        assertThat(ProtocolVersionSetting.V3.allowsAtLeast(3)).isTrue();
        assertThat(ProtocolVersionSetting.V3.allowsAtLeast(4)).isFalse();
    }
}

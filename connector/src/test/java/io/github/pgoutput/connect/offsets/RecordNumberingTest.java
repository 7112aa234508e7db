package io.github.pgoutput.connect.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.MinimalConfig;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordNumberingTest {

    private static String fingerprint(String... keyValues) {
        Map<String, String> props = MinimalConfig.props();
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        return RecordNumbering.fingerprint(new PgOutputSourceConnectorConfig(props).recordNumbering());
    }

    /**
     * The value offsets stored before schema.include.list existed carry for the defaults (SHA-256 of the canonical
     * text, computed apart from this code): a resume after the upgrade keeps skipping what Kafka already has.
     */
    @Test
    void withoutSchemaListsTheFingerprintIsTheOneStoredOffsetsCarry() {
        assertThat(fingerprint()).isEqualTo("1a59a14f7564ca09");
    }

    @Test
    void schemaListsChangeTheFingerprint() {
        String none = fingerprint();

        assertThat(fingerprint("schema.include.list", "inventory")).isNotEqualTo(none)
                .isNotEqualTo(fingerprint("schema.include.list", "sales"))
                .isNotEqualTo(fingerprint("schema.exclude.list", "inventory"))
                .isEqualTo(fingerprint("schema.include.list", "inventory"));
        assertThat(fingerprint("schema.exclude.list", "audit")).isNotEqualTo(none);
    }
}

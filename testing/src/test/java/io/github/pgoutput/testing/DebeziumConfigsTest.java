package io.github.pgoutput.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class DebeziumConfigsTest {

    @Test
    void loadsEveryCollectedConfigurationWithItsSource() {
        List<DebeziumConfigs.DebeziumConfig> configs = DebeziumConfigs.all();

        assertThat(configs).hasSize(52);
        assertThat(configs).extracting(DebeziumConfigs.DebeziumConfig::file).isSorted().doesNotHaveDuplicates();
        assertThat(configs).allSatisfy(c -> {
            assertThat(c.source()).as(c.file()).isNotBlank();
            assertThat(c.config()).as(c.file()).containsEntry("connector.class", "io.debezium.connector.postgresql.PostgresConnector")
                    .containsKeys("database.hostname", "database.dbname");
        });
        assertThat(configs.get(0).name()).isEqualTo("01-dbz-tutorial-0x-schema-whitelist");
    }

    @Test
    void keepsTheValuesAsWrittenEmptyOnesIncluded() {
        DebeziumConfigs.DebeziumConfig odenktools = DebeziumConfigs.all().stream()
                .filter(c -> c.file().startsWith("26-")).findFirst().orElseThrow();

        assertThat(odenktools.config()).containsEntry("table.blacklist", "").containsEntry("database.whitelist", "odenktools");
    }
}

package io.github.pgoutput.connect.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.connect.config.MinimalConfig;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The message.key.columns format: Debezium's {@code <schema.table regex>:<column>[,<column>...]} entries separated by ';'. */
class MessageKeyColumnsTest {

    private static Map<String, String> withKeyColumns(String value) {
        Map<String, String> props = MinimalConfig.props();
        props.put("message.key.columns", value);
        return props;
    }

    @Test
    void theFirstEntryWhoseRegexMatchesTheWholeTableNameNamesItsColumnsInOrder() {
        MessageKeyColumns named = MessageKeyColumns.parse("inventory.customers:pk1,pk2; (.*).purchaseorders:pk3,pk4 ;.*:other");

        assertThat(named.columnsOf("inventory", "customers")).contains(List.of("pk1", "pk2"));
        assertThat(named.columnsOf("sales", "purchaseorders")).contains(List.of("pk3", "pk4"));
        assertThat(named.columnsOf("inventory", "customers_old")).as("matched against the whole name").contains(List.of("other"));
    }

    @Test
    void tablesWithoutEntryAndAnEmptyValueNameNothing() {
        assertThat(MessageKeyColumns.parse("inventory.customers:id").columnsOf("inventory", "orders")).isEqualTo(Optional.empty());
        assertThat(MessageKeyColumns.parse("").columnsOf("public", "t")).isEmpty();
        assertThat(MessageKeyColumns.parse(null)).isSameAs(MessageKeyColumns.NONE);
        assertThat(MessageKeyColumns.parse("a.b:c;").columnsOf("a", "b")).contains(List.of("c"));
    }

    @Test
    void malformedEntriesAreRefusedByTheConfigNamingTheEntry() {
        for (String bad : List.of("inventory.customers", "inventory.customers:", ":id", "a.b:c:d", "a.b:c,,d", "(a.b:c")) {
            assertThatThrownBy(() -> new PgOutputSourceConnectorConfig(withKeyColumns(bad)))
                    .as(bad).isInstanceOf(ConfigException.class).hasMessageContaining("message.key.columns");
        }
    }

    @Test
    void theConfigAccessorParsesTheValue() {
        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(withKeyColumns("public.notes:code"));

        assertThat(config.messageKeyColumns().columnsOf("public", "notes")).contains(List.of("code"));
    }
}

package io.github.pgoutput.connect.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

import io.github.pgoutput.testing.RandomValues;
import io.github.pgoutput.testing.SeededProperty;

class TopicNamesTest {

    private final TopicNames names = new TopicNames("shop", "__debezium-heartbeat");

    @Test
    void namesTheTopicsOfTablesTransactionsMessagesAndHeartbeats() {
        assertThat(names.table("public", "orders")).isEqualTo("shop.public.orders");
        assertThat(names.transaction()).isEqualTo("shop.transaction");
        assertThat(names.message()).isEqualTo("shop.message");
        assertThat(names.heartbeat()).isEqualTo("__debezium-heartbeat.shop");
    }

    @Test
    void replacesEachCharacterKafkaForbidsWithAnUnderscore() {
        assertThat(names.table("Sales Data", "größe$1")).isEqualTo("shop.Sales_Data.gr__e_1");
        assertThat(names.table("public", "emoji😀")).isEqualTo("shop.public.emoji_");
    }

    @Test
    void refusesATopicNameLongerThanKafkaAllows() {
        assertThatThrownBy(() -> names.table("public", "t".repeat(240)))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("public.ttt")
                .hasMessageContaining("249");
    }

    @Test
    void acceptsATopicNameOfExactlyKafkasLimitAndRefusesOneCharacterMore() {
        // "shop." + schema + "." + table: 6 characters besides the schema and the table.
        assertThat(names.table("s", "t".repeat(242))).hasSize(249);
        assertThatThrownBy(() -> names.table("s", "t".repeat(243))).isInstanceOf(ConnectException.class);
        assertThat(names.table("s", "😀".repeat(242))).as("one '_' per code point").hasSize(249);
    }

    @Test
    void everyTableTopicUsesOnlyLegalTopicCharacters() {
        List<String> edges = List.of("", " ", ".", "..", "-", "_", "\u0000", "\uD800", "😀", "größe$1", "t".repeat(243));
        for (String schema : edges) {
            for (String table : edges) {
                assertLegalTopicOrTooLong(schema, table);
            }
        }
        SeededProperty.check(1000, random -> assertLegalTopicOrTooLong(RandomValues.string(random, 255),
                RandomValues.string(random, 255)));
    }

    /** Sanitising keeps one character per code point, so the length is known before the call; only too long fails. */
    private void assertLegalTopicOrTooLong(String schema, String table) {
        int length = "shop.".length() + schema.codePointCount(0, schema.length()) + 1 + table.codePointCount(0, table.length());
        if (length > 249) {
            assertThatThrownBy(() -> names.table(schema, table)).isInstanceOf(ConnectException.class)
                    .hasMessageContaining(length + " characters long, more than Kafka's 249");
        } else {
            assertThat(names.table(schema, table)).matches("[a-zA-Z0-9._-]{1,249}").startsWith("shop.").hasSize(length);
        }
    }
}

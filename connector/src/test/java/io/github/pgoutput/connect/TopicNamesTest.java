package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

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

    @Property
    void everyTableTopicUsesOnlyLegalTopicCharacters(@ForAll String schema, @ForAll String table) {
        String topic;
        try {
            topic = names.table(schema, table);
        } catch (ConnectException tooLong) {
            return;
        }
        assertThat(topic).matches("[a-zA-Z0-9._-]{1,249}").startsWith("shop.");
    }
}

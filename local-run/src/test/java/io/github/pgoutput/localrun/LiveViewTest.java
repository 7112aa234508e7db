package io.github.pgoutput.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class LiveViewTest {

    @Test
    void thePlainRecordLineKeepsSpacesInTheKeyAndListsThePgHeadersInOrder() {
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("shop.public.customers", 0, 7,
                "{\"name\":\"Ada\nLovelace\"}".getBytes(StandardCharsets.UTF_8),
                "{\"op\":\"c\"}".getBytes(StandardCharsets.UTF_8));
        record.headers().add("pg.xid", "745".getBytes(StandardCharsets.UTF_8));
        record.headers().add("other", "x".getBytes(StandardCharsets.UTF_8));
        record.headers().add("pg.outcome", "COMMITTED".getBytes(StandardCharsets.UTF_8));

        assertThat(LiveView.describe(LiveView.row(record))).isEqualTo(
                "topic=shop.public.customers offset=7 op=c key={\"name\":\"Ada Lovelace\"} pg.xid=745 pg.outcome=COMMITTED");
    }
}

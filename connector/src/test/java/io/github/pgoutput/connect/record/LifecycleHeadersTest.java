package io.github.pgoutput.connect.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.header.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.pgoutput.assembly.Delivery.Kind;
import io.github.pgoutput.connect.record.LifecycleHeaders.Change;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;

class LifecycleHeadersTest {

    @Test
    void theRecordsOfADeliveryShareItsHeaderObjectsAndGetTheHeadersOfTheirChanges() {
        LifecycleHeaders.DeliveryHeaders delivery = LifecycleHeaders.ofDelivery(Xid.of(740), Lsn.parse("0/2000"),
                Kind.PREPARED, "order-7");
        Headers first = delivery.addTo(new ConnectHeaders(), Lsn.parse("0/1F00"), 1);
        Headers second = delivery.addTo(new ConnectHeaders(), Lsn.parse("0/1F80"), 2);

        assertThat(asMap(second)).containsExactlyEntriesOf(asMap(LifecycleHeaders.addChange(new ConnectHeaders(),
                new Change(Xid.of(740), Lsn.parse("0/1F80"), Lsn.parse("0/2000"), Kind.PREPARED, true, 2, "order-7"))));
        assertThat(first.lastWithName("pg.commit_lsn")).isSameAs(second.lastWithName("pg.commit_lsn"));
        assertThat(first.lastWithName("pg.lsn").value()).isEqualTo("0/1F00");
        assertThatThrownBy(() -> LifecycleHeaders.ofDelivery(Xid.of(740), Lsn.parse("0/2000"), Kind.PREPARED, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two-phase");
        assertThatThrownBy(() -> delivery.addTo(new ConnectHeaders(), Lsn.parse("0/1F00"), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1-based");
    }

    @Test
    void writesTheHeadersOfAnOrdinaryCommittedChange() {
        Headers headers = LifecycleHeaders.addChange(new ConnectHeaders(), new Change(Xid.of(4_000_000_000L),
                Lsn.parse("0/16B3748"), Lsn.parse("0/16B3800"), Kind.COMMITTED, false, 3, null));

        assertThat(asMap(headers)).containsExactly(
                Map.entry("pg.xid", 4_000_000_000L),
                Map.entry("pg.lsn", "0/16B3748"),
                Map.entry("pg.commit_lsn", "0/16B3800"),
                Map.entry("pg.outcome", "COMMITTED"),
                Map.entry("pg.two_phase", false),
                Map.entry("pg.tx_order", 3L));
        assertThat(headers.lastWithName("pg.xid").schema()).isEqualTo(Schema.INT64_SCHEMA);
        assertThat(headers.lastWithName("pg.two_phase").schema()).isEqualTo(Schema.BOOLEAN_SCHEMA);
    }

    @Test
    void addsTheGidForATwoPhaseTransaction() {
        Headers headers = LifecycleHeaders.addChange(new ConnectHeaders(), new Change(Xid.of(740),
                Lsn.parse("0/1000"), Lsn.parse("0/2000"), Kind.PREPARED, true, 1, "order-17"));

        assertThat(asMap(headers)).containsEntry("pg.outcome", "PREPARED")
                .containsEntry("pg.two_phase", true)
                .containsEntry("pg.gid", "order-17");
    }

    @ParameterizedTest
    @CsvSource({"COMMITTED, COMMITTED", "PREPARED, PREPARED", "ROLLED_BACK, ROLLED_BACK"})
    void writesEachDeliveryKindAsItsPersistedOutcomeValue(Kind kind, String persisted) {
        Headers headers = LifecycleHeaders.addChange(new ConnectHeaders(), new Change(Xid.of(740),
                Lsn.parse("0/1000"), Lsn.parse("0/2000"), kind, true, 1, "order-17"));

        assertThat(LifecycleHeaders.outcome(kind)).isEqualTo(persisted);
        assertThat(asMap(headers)).containsEntry("pg.outcome", persisted);
    }

    @Test
    void marksSnapshotRecordsWithTheConsistentPoint() {
        Headers headers = LifecycleHeaders.addSnapshot(new ConnectHeaders(), Lsn.parse("0/3000"));

        assertThat(asMap(headers)).containsExactly(Map.entry("pg.snapshot", true), Map.entry("pg.lsn", "0/3000"));
    }

    @Test
    void refusesLifecycleStatesThatCannotHappen() {
        Lsn lsn = Lsn.parse("0/1000");
        assertThatThrownBy(() -> new Change(Xid.of(1), lsn, lsn, Kind.PREPARED, false, 1, null))
                .hasMessageContaining("PREPARED exists only for two-phase transactions");
        assertThatThrownBy(() -> new Change(Xid.of(1), lsn, lsn, Kind.COMMITTED, true, 1, null))
                .hasMessageContaining("gid");
        assertThatThrownBy(() -> new Change(Xid.of(1), lsn, lsn, Kind.COMMITTED, false, 0, null))
                .hasMessageContaining("1-based");
    }

    private static Map<String, Object> asMap(Headers headers) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (Header header : headers) {
            map.put(header.key(), header.value());
        }
        return map;
    }
}

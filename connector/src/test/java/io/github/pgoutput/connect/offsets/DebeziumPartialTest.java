package io.github.pgoutput.connect.offsets;

import static io.github.pgoutput.connect.Deliveries.assemble;
import static io.github.pgoutput.connect.Deliveries.concat;
import static io.github.pgoutput.connect.Deliveries.transaction;
import static io.github.pgoutput.connect.Deliveries.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.connect.Deliveries;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.BeginPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.Prepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Truncate;
import io.github.pgoutput.pgoutput.Xid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which changes of the transaction Debezium's offset stopped inside are in Kafka already. */
class DebeziumPartialTest {

    @TempDir
    Path spill;

    private static ChangeEvent insertAt(long walPosition) {
        return new ChangeEvent(new Insert(Xid.INVALID, 1, tuple("1")), List.of(), Lsn.of(walPosition), 0);
    }

    private static ChangeEvent truncateAt(long walPosition, int tables) {
        List<Long> relations = java.util.stream.LongStream.rangeClosed(1, tables).boxed().toList();
        return new ChangeEvent(new Truncate(Xid.INVALID, 0, relations), List.of(), Lsn.of(walPosition), 0);
    }

    @Test
    void coversTheChangesBeforeTheLastOneAndTheLastOne() {
        DebeziumPartial.Prefix prefix = new DebeziumPartial(Xid.of(7), Lsn.of(0x300), 1).prefix();

        assertThat(List.of(insertAt(0x100), insertAt(0x200), insertAt(0x300), insertAt(0x400)))
                .extracting(prefix::covers).containsExactly(true, true, true, false);
    }

    @Test
    void atTheLastLsnCoversAsManyChangesAsTheOffsetCounts() {
        // COPY writes many rows in one WAL record: they share the LSN; Debezium 3.7 counts those in Kafka.
        DebeziumPartial.Prefix prefix = new DebeziumPartial(Xid.of(7), Lsn.of(0x300), 2).prefix();

        assertThat(List.of(insertAt(0x300), insertAt(0x300), insertAt(0x300), insertAt(0x400)))
                .extracting(prefix::covers).containsExactly(true, true, false, false);
    }

    @Test
    void withoutACountOneChangeAtTheLastLsnIsCoveredSoNoneIsLeftOut() {
        DebeziumPartial.Prefix prefix = new DebeziumPartial(Xid.of(7), Lsn.of(0x300), 1).prefix();

        assertThat(List.of(insertAt(0x300), insertAt(0x300))).extracting(prefix::covers).containsExactly(true, false);
    }

    @Test
    void aTruncateCountsOneChangePerTableAsDebeziumEmitsOneEventPerTable() {
        assertThat(new DebeziumPartial(Xid.of(7), Lsn.of(0x300), 2).prefix().covers(truncateAt(0x300, 2))).isTrue();
        // Only one of its tables is in Kafka: the truncate comes again whole rather than a table being left out.
        assertThat(new DebeziumPartial(Xid.of(7), Lsn.of(0x300), 1).prefix().covers(truncateAt(0x300, 2))).isFalse();
    }

    @Test
    void theFirstChangeNotCoveredEndsThePrefix() {
        DebeziumPartial.Prefix prefix = new DebeziumPartial(Xid.of(7), Lsn.of(0x300), 1).prefix();

        assertThat(List.of(insertAt(0x400), insertAt(0x100))).extracting(prefix::covers).containsExactly(false, false);
    }

    @Test
    void namesTheCommittedTransactionOfItsXidOnly() {
        List<Delivery> deliveries = assemble(spill, concat(
                new PgOutputMessage[] {new BeginPrepare(Lsn.of(0x4000), Lsn.of(0x4040), Instant.EPOCH, Xid.of(7), "g"),
                        new Prepare(0, Lsn.of(0x4000), Lsn.of(0x4040), Instant.EPOCH, Xid.of(7), "g")},
                transaction(7, 0x5000), transaction(8, 0x6000))).stream().map(Deliveries.Read::delivery).toList();
        DebeziumPartial partial = new DebeziumPartial(Xid.of(7), Lsn.of(0x300), 1);

        assertThat(deliveries).extracting(partial::names).containsExactly(false, true, false);
    }

    @Test
    void theResumePointAppliesItOnlyWhileItsTransactionLiesAfterThePosition() {
        List<Delivery> deliveries = assemble(spill, concat(transaction(7, 0x5000), transaction(8, 0x6000))).stream()
                .map(Deliveries.Read::delivery).toList();
        DebeziumPartial partial = new DebeziumPartial(Xid.of(7), Lsn.of(0x300), 1);

        assertThat(new ResumePoint(Position.afterDelivery(Lsn.of(0x4000)), Lsn.INVALID, "n", partial).debeziumPrefix(deliveries.get(0)))
                .isNotNull();
        assertThat(new ResumePoint(Position.afterDelivery(Lsn.of(0x4000)), Lsn.INVALID, "n", partial).debeziumPrefix(deliveries.get(1)))
                .isNull();
        // Emitted completely since (a reconnect of the same task run): skipped whole by the position.
        assertThat(new ResumePoint(Position.afterDelivery(Lsn.of(0x5020)), Lsn.INVALID, "n", partial).debeziumPrefix(deliveries.get(0)))
                .isNull();
        assertThat(new ResumePoint(Position.afterDelivery(Lsn.of(0x4000)), Lsn.INVALID, "n").debeziumPrefix(deliveries.get(0))).isNull();
    }

    @Test
    void atLeastTheChangeAtItsLsnIsInKafka() {
        assertThatThrownBy(() -> new DebeziumPartial(Xid.of(7), Lsn.of(0x300), 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

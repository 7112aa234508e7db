package io.github.pgoutput.connect;

import static io.github.pgoutput.connect.Deliveries.assemble;
import static io.github.pgoutput.connect.Deliveries.concat;
import static io.github.pgoutput.connect.Deliveries.transaction;
import static io.github.pgoutput.connect.Deliveries.tuple;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.connect.SourceOffsets.Position;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResumePointTest {

    @TempDir
    Path spill;

    /** Three transactions committed at 0/5000, 0/6000 and 0/6020 (right where the second one ends). */
    private List<Delivery> deliveries() {
        Relation t = new Relation(Xid.INVALID, 1, "public", "t", ReplicaIdentity.DEFAULT, List.of(new RelationColumn(true, "id", 20, -1)));
        return assemble(spill, concat(new PgOutputMessage[] {t},
                transaction(1, 0x5000, new Insert(Xid.INVALID, 1, tuple("1"))),
                transaction(2, 0x6000, new Insert(Xid.INVALID, 1, tuple("2"))),
                transaction(3, 0x6020, new Insert(Xid.INVALID, 1, tuple("3")))))
                .stream().map(Deliveries.Read::delivery).toList();
    }

    @Test
    void withoutAStoredPositionNothingIsSkipped() {
        ResumePoint resume = new ResumePoint(Position.afterDelivery(Lsn.INVALID));
        assertThat(deliveries()).allSatisfy(d -> assertThat(resume.recordsToSkip(d)).isZero());
    }

    @Test
    void skipsInsideTheFirstDeliveryEvenBeforeAnyDeliveryWasCompleted() {
        ResumePoint resume = new ResumePoint(Position.insideDelivery(Lsn.INVALID, Lsn.of(0x5000), 1));
        assertThat(deliveries()).extracting(resume::recordsToSkip).containsExactly(1L, 0L, 0L);
    }

    @Test
    void skipsDeliveriesThatEndedAtOrBeforeTheStoredLsnWhole() {
        ResumePoint resume = new ResumePoint(Position.afterDelivery(Lsn.of(0x6020)));
        assertThat(deliveries()).extracting(resume::recordsToSkip).containsExactly(Long.MAX_VALUE, Long.MAX_VALUE, 0L);
    }

    @Test
    void skipsTheEmittedRecordsOfThePartlyEmittedDeliveryOnly() {
        ResumePoint resume = new ResumePoint(Position.insideDelivery(Lsn.of(0x5020), Lsn.of(0x6000), 2));
        assertThat(deliveries()).extracting(resume::recordsToSkip).containsExactly(Long.MAX_VALUE, 2L, 0L);
    }

    @Test
    void aDeliveryCommittedExactlyWhereTheLastOneEndedIsNotTakenForEmitted() {
        ResumePoint resume = new ResumePoint(Position.insideDelivery(Lsn.of(0x6020), Lsn.of(0x6020), 1));
        assertThat(deliveries()).extracting(resume::recordsToSkip).containsExactly(Long.MAX_VALUE, Long.MAX_VALUE, 1L);
    }
}

package io.github.pgoutput.connect.offsets;

import io.github.pgoutput.connect.Deliveries;

import static io.github.pgoutput.connect.Deliveries.assemble;
import static io.github.pgoutput.connect.Deliveries.concat;
import static io.github.pgoutput.connect.Deliveries.transaction;
import static io.github.pgoutput.connect.Deliveries.tuple;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.BeginPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.CommitPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.Prepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.RollbackPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResumePointTest {

    private static final String NUMBERING = "numbering-a";

    @TempDir
    Path spill;

    /** A resume point for a stream started at 0/0 (before everything), numbered under {@link #NUMBERING}. */
    private static ResumePoint resume(Position position) {
        return new ResumePoint(position, Lsn.INVALID, NUMBERING);
    }

    private static final Relation T = new Relation(Xid.INVALID, 1, "public", "t", ReplicaIdentity.DEFAULT,
            List.of(new RelationColumn(true, "id", 20, -1)));
    private static final Instant TIME = Instant.parse("2026-01-02T03:04:05Z");

    /** Three transactions committed at 0/5000, 0/6000 and 0/6020 (right where the second one ends). */
    private List<Delivery> deliveries() {
        return assemble(spill, concat(new PgOutputMessage[] {T},
                transaction(1, 0x5000, new Insert(Xid.INVALID, 1, tuple("1"))),
                transaction(2, 0x6000, new Insert(Xid.INVALID, 1, tuple("2"))),
                transaction(3, 0x6020, new Insert(Xid.INVALID, 1, tuple("3")))))
                .stream().map(Deliveries.Read::delivery).toList();
    }

    @Test
    void withoutAStoredPositionNothingIsSkipped() {
        ResumePoint resume = resume(Position.afterDelivery(Lsn.INVALID));
        assertThat(deliveries()).allSatisfy(d -> assertThat(resume.recordsToSkip(d)).isZero());
    }

    @Test
    void skipsInsideTheFirstDeliveryEvenBeforeAnyDeliveryWasCompleted() {
        ResumePoint resume = resume(Position.insideDelivery(Lsn.INVALID, Lsn.of(0x5000), 1));
        assertThat(deliveries()).extracting(resume::recordsToSkip).containsExactly(1L, 0L, 0L);
    }

    @Test
    void skipsDeliveriesThatEndedAtOrBeforeTheStoredLsnWhole() {
        ResumePoint resume = resume(Position.afterDelivery(Lsn.of(0x6020)));
        assertThat(deliveries()).extracting(resume::recordsToSkip).containsExactly(Long.MAX_VALUE, Long.MAX_VALUE, 0L);
    }

    @Test
    void skipsTheEmittedRecordsOfThePartlyEmittedDeliveryOnly() {
        ResumePoint resume = resume(Position.insideDelivery(Lsn.of(0x5020), Lsn.of(0x6000), 2));
        assertThat(deliveries()).extracting(resume::recordsToSkip).containsExactly(Long.MAX_VALUE, 2L, 0L);
    }

    @Test
    void aDeliveryCommittedExactlyWhereTheLastOneEndedIsNotTakenForEmitted() {
        ResumePoint resume = resume(Position.insideDelivery(Lsn.of(0x6020), Lsn.of(0x6020), 1));
        assertThat(deliveries()).extracting(resume::recordsToSkip).containsExactly(Long.MAX_VALUE, Long.MAX_VALUE, 1L);
    }

    /**
     * Loss path 2: prepared.transaction.mode=stage turned on for a slot that has a transaction prepared at 0/3000,
     * before the slot decoded two-phase. At its COMMIT PREPARED (0/7000) PostgreSQL sends it whole with the original
     * prepare LSNs, after the stream's start 0/6020, where the stored position already is.
     */
    @Test
    void aTransactionPreparedBeforeTheStreamsStartIsNewDataNotAReplay() {
        List<Delivery> sent = assemble(spill, T,
                new BeginPrepare(Lsn.of(0x3000), Lsn.of(0x3020), TIME, Xid.of(7), "g7"),
                new Insert(Xid.INVALID, 1, tuple("7")),
                new Prepare(0, Lsn.of(0x3000), Lsn.of(0x3020), TIME, Xid.of(7), "g7"),
                new CommitPrepared(0, Lsn.of(0x7000), Lsn.of(0x7020), TIME, Xid.of(7), "g7"))
                .stream().map(Deliveries.Read::delivery).toList();
        ResumePoint resume = new ResumePoint(Position.afterDelivery(Lsn.of(0x6020)), Lsn.of(0x6020), NUMBERING);

        assertThat(sent).extracting(Delivery::kind).containsExactly(Delivery.Kind.PREPARED, Delivery.Kind.COMMITTED);
        assertThat(sent).extracting(resume::recordsToSkip).containsExactly(0L, 0L);
    }

    @Test
    void insideAnOlderPreparedTransactionTheResumeSkipsOnlyItsEmittedRecords() {
        List<Delivery> sent = assemble(spill, T,
                new BeginPrepare(Lsn.of(0x3000), Lsn.of(0x3020), TIME, Xid.of(7), "g7"),
                new Insert(Xid.INVALID, 1, tuple("7")),
                new Insert(Xid.INVALID, 1, tuple("8")),
                new Prepare(0, Lsn.of(0x3000), Lsn.of(0x3020), TIME, Xid.of(7), "g7"))
                .stream().map(Deliveries.Read::delivery).toList();
        // The position names a delivery whose prepare LSN lies before the last completed end: valid, not an error.
        Position inside = Position.insideDelivery(Lsn.of(0x6020), Lsn.of(0x3000), Lsn.of(0x3020), 1, NUMBERING);
        assertThat(SourceOffsets.decode(SourceOffsets.encode(inside))).isEqualTo(inside);

        assertThat(new ResumePoint(inside, Lsn.of(0x6020), NUMBERING).recordsToSkip(sent.get(0))).isEqualTo(1L);
    }

    /**
     * Loss path 3: a ROLLED_BACK outcome names its prepare's end LSN (0/5020) as its lsn, which is where the next
     * transaction's commit record starts; the task stopped inside that transaction. The outcome is not that delivery.
     */
    @Test
    void aRollbackWhoseLsnIsTheStartOfTheDeliveryInProgressIsNotSkipped() {
        List<Delivery> sent = assemble(spill, T,
                new RollbackPrepared(0, Lsn.of(0x5020), Lsn.of(0x8020), TIME, TIME, Xid.of(9), "g9"))
                .stream().map(Deliveries.Read::delivery).toList();
        Delivery rollback = sent.get(0);
        assertThat(rollback.kind()).isEqualTo(Delivery.Kind.ROLLED_BACK);
        assertThat(rollback.lsn()).isEqualTo(Lsn.of(0x5020));
        Position insideOther = Position.insideDelivery(Lsn.of(0x5000), Lsn.of(0x5020), Lsn.of(0x6000), 1, NUMBERING);

        assertThat(new ResumePoint(insideOther, Lsn.of(0x5000), NUMBERING).recordsToSkip(rollback)).isZero();
    }

    @Test
    void aRollbackEmittedBeforeIsSkippedOnReplay() {
        Delivery rollback = assemble(spill, T,
                new RollbackPrepared(0, Lsn.of(0x5020), Lsn.of(0x8020), TIME, TIME, Xid.of(9), "g9")).get(0).delivery();
        ResumePoint resume = new ResumePoint(Position.afterDelivery(Lsn.of(0x8020)), Lsn.of(0x7000), NUMBERING);

        assertThat(resume.recordsToSkip(rollback)).isEqualTo(Long.MAX_VALUE);
    }

    /** Loss path 7: record n of a delivery is another record once the numbering settings changed. */
    @Test
    void insideADeliveryNumberedUnderOtherSettingsEverythingIsEmittedAgain() {
        Position inside = Position.insideDelivery(Lsn.of(0x5020), Lsn.of(0x6000), Lsn.of(0x6020), 2, "numbering-b");
        assertThat(deliveries()).extracting(new ResumePoint(inside, Lsn.INVALID, NUMBERING)::recordsToSkip)
                .containsExactly(Long.MAX_VALUE, 0L, 0L);
    }

    @Test
    void anOffsetFromBeforeTheFingerprintWasStoredResumesByItsNumber() {
        Position legacy = Position.insideDelivery(Lsn.of(0x5020), Lsn.of(0x6000), 2);
        assertThat(deliveries()).extracting(new ResumePoint(legacy, Lsn.INVALID, NUMBERING)::recordsToSkip)
                .containsExactly(Long.MAX_VALUE, 2L, 0L);
    }
}

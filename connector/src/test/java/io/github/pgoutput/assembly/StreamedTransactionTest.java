package io.github.pgoutput.assembly;

import static io.github.pgoutput.assembly.Script.begin;
import static io.github.pgoutput.assembly.Script.commit;
import static io.github.pgoutput.assembly.Script.insert;
import static io.github.pgoutput.assembly.Script.lsn;
import static io.github.pgoutput.assembly.Script.message;
import static io.github.pgoutput.assembly.Script.origin;
import static io.github.pgoutput.assembly.Script.relation;
import static io.github.pgoutput.assembly.Script.streamAbort;
import static io.github.pgoutput.assembly.Script.streamCommit;
import static io.github.pgoutput.assembly.Script.streamStart;
import static io.github.pgoutput.assembly.Script.streamStop;
import static io.github.pgoutput.assembly.Script.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.assembly.Consumer.Received;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamedTransactionTest extends AssemblerTestSupport {

    @Test
    void deliversStreamedTransactionAtItsStreamCommitReadBackFromTheSpill() {
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a")).add(streamStop())
                .add(streamStart(761, false)).add(insert(761, 1, "b")).add(streamStop())
                .add(streamCommit(761, 0x15B81E0, 0x15B8218));
        TransactionAssembler assembler = assembler(script);

        List<Received> received = Consumer.drain(assembler);

        assertThat(received).hasSize(1);
        Delivery delivery = received.get(0).delivery();
        assertThat(delivery.kind()).isEqualTo(Delivery.Kind.COMMITTED);
        assertThat(delivery.xid()).isEqualTo(xid(761));
        assertThat(delivery.lsn()).isEqualTo(lsn(0x15B81E0));
        assertThat(delivery.endLsn()).isEqualTo(lsn(0x15B8218));
        assertThat(received.get(0).values()).containsExactly("a", "b");
        assertThat(assembler.openStreamedTransactions()).isZero();
        assertThat(assembler.spillUsage().transactions()).as("discarded after reading").isZero();
    }

    @Test
    void deliversInterleavedStreamsAndOrdinaryTransactionsInCommitOrder() {
        // The order seen live: S764 S764 S765 S765 S764 [B766 I C] S764 S765 c764 S765 c765
        Script script = new Script()
                .add(streamStart(764, true)).add(relation(764, 1, "t", "id")).add(insert(764, 1, "764-1")).add(streamStop())
                .add(streamStart(764, false)).add(insert(764, 1, "764-2")).add(streamStop())
                .add(streamStart(765, true)).add(relation(765, 1, "t", "id")).add(insert(765, 1, "765-1")).add(streamStop())
                .add(streamStart(765, false)).add(insert(765, 1, "765-2")).add(streamStop())
                .add(streamStart(764, false)).add(insert(764, 1, "764-3")).add(streamStop())
                .add(begin(766, 0x500)).add(relation(0, 1, "t", "id")).add(insert(0, 1, "766-1")).add(commit(0x500, 0x530))
                .add(streamStart(764, false)).add(insert(764, 1, "764-4")).add(streamStop())
                .add(streamStart(765, false)).add(insert(765, 1, "765-3")).add(streamStop())
                .add(streamCommit(764, 0x600, 0x630))
                .add(streamStart(765, false)).add(insert(765, 1, "765-4")).add(streamStop())
                .add(streamCommit(765, 0x700, 0x730));

        List<Received> received = Consumer.drain(assembler(script));

        assertThat(received).extracting(r -> r.delivery().xid()).containsExactly(xid(766), xid(764), xid(765));
        assertThat(received.get(0).values()).containsExactly("766-1");
        assertThat(received.get(1).values()).containsExactly("764-1", "764-2", "764-3", "764-4");
        assertThat(received.get(2).values()).containsExactly("765-1", "765-2", "765-3", "765-4");
    }

    @Test
    void streamAbortOfTheWholeTransactionDiscardsIt() {
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a")).add(streamStop())
                .add(streamAbort(761, 761))
                .add(begin(762, 0x500)).add(relation(0, 1, "t", "id")).add(insert(0, 1, "b")).add(commit(0x500, 0x530));
        TransactionAssembler assembler = assembler(script);

        List<Received> received = Consumer.drain(assembler);

        assertThat(received).extracting(r -> r.delivery().xid()).containsExactly(xid(762));
        assertThat(assembler.spillUsage().transactions()).isZero();
    }

    @Test
    void discardsChangesOfRolledBackSavepointAndAllLaterOnes() {
        // BEGIN; INSERT a; SAVEPOINT s (762); INSERT b; SAVEPOINT s2 (763); INSERT c; RELEASE s2; INSERT d; ROLLBACK TO s
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a"))
                .add(insert(762, 1, "b")).add(insert(763, 1, "c")).add(insert(762, 1, "d")).add(streamStop())
                .add(streamAbort(761, 762))
                .add(streamStart(761, false)).add(insert(764, 1, "e")).add(streamStop())
                .add(streamCommit(761, 0x600, 0x630));

        assertThat(Consumer.drain(assembler(script)).get(0).values()).containsExactly("a", "e");
    }

    @Test
    void nestedRollbackSendsOneAbortPerSubtransactionChildFirst() {
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a"))
                .add(insert(762, 1, "in-a")).add(insert(763, 1, "in-b")).add(streamStop())
                .add(streamAbort(761, 763)).add(streamAbort(761, 762))
                .add(streamStart(761, false)).add(insert(764, 1, "after")).add(streamStop())
                .add(streamCommit(761, 0x600, 0x630));

        assertThat(Consumer.drain(assembler(script)).get(0).values()).containsExactly("a", "after");
    }

    @Test
    void subtransactionAbortIsANoOpWhenTheSubtransactionAppendedNothing() {
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a")).add(streamStop())
                .add(streamAbort(761, 799))
                .add(streamStart(761, false)).add(streamStop())
                .add(streamAbort(761, 798))
                .add(streamCommit(761, 0x600, 0x630));

        assertThat(Consumer.drain(assembler(script)).get(0).values()).containsExactly("a");
    }

    @Test
    void transactionWhoseOnlyChangesWereInARolledBackSavepointCommitsEmpty() {
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(762, 1, "t", "id")).add(insert(762, 1, "gone")).add(streamStop())
                .add(streamAbort(761, 762))
                .add(streamCommit(761, 0x600, 0x630));

        Received received = Consumer.drain(assembler(script)).get(0);

        assertThat(received.changes()).isEmpty();
        assertThat(received.delivery().endLsn()).isEqualTo(lsn(0x630));
    }

    @Test
    void cutsASavepointStreamedInAnEarlierBlockAndKeepsTheRelationsSentBeforeIt() {
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a"))
                .add(insert(762, 1, "b")).add(streamStop())
                .add(streamStart(761, false)).add(insert(762, 1, "c")).add(streamStop())
                .add(streamStart(761, false)).add(insert(761, 1, "d")).add(streamStop())
                .add(streamAbort(761, 762))
                .add(streamStart(761, false)).add(insert(763, 1, "e")).add(streamStop())
                .add(streamCommit(761, 0x600, 0x630));

        Received received = Consumer.drain(assembler(script)).get(0);

        // "d" was written by the top transaction after 762's first change, so PostgreSQL's rule cuts it too.
        assertThat(received.values()).containsExactly("a", "e");
        assertThat(received.changes()).allSatisfy(change -> assertThat(change.relation().relationName()).isEqualTo("t"));
    }

    @Test
    void relationsReceivedInsideAStreamEnterTheGlobalCacheWhenItCommits() {
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t_big", "id", "pad")).add(insert(761, 1, "a")).add(streamStop())
                .add(streamCommit(761, 0x600, 0x630))
                // The server does not send R again after a stream commit.
                .add(begin(770, 0x700)).add(insert(0, 1, "b")).add(commit(0x700, 0x730));

        List<Received> received = Consumer.drain(assembler(script));

        assertThat(received.get(1).changes().get(0).relation().columns()).hasSize(2);
    }

    @Test
    void streamedChangesKeepTheSchemaTheyWereWrittenWithWhenAnOrdinaryTransactionChangesItMeanwhile() {
        Script script = new Script()
                .add(begin(700, 0x100)).add(relation(0, 1, "t", "id")).add(insert(0, 1, "old")).add(commit(0x100, 0x130))
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a")).add(streamStop())
                .add(begin(762, 0x300)).add(relation(0, 1, "t", "id", "added")).add(insert(0, 1, "b")).add(commit(0x300, 0x330))
                .add(streamCommit(761, 0x600, 0x630));

        List<Received> received = Consumer.drain(assembler(script));

        assertThat(received.get(1).changes().get(0).relation().columns()).hasSize(2);
        assertThat(received.get(2).values()).containsExactly("a");
        assertThat(received.get(2).changes().get(0).relation().columns()).hasSize(1);
    }

    @Test
    void relationsOfAnAbortedStreamNeverReachTheCache() {
        Script script = new Script()
                .add(begin(700, 0x100)).add(relation(0, 1, "t", "id")).add(insert(0, 1, "old")).add(commit(0x100, 0x130))
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id", "added")).add(insert(761, 1, "a")).add(streamStop())
                .add(streamAbort(761, 761))
                .add(begin(762, 0x300)).add(insert(0, 1, "b")).add(commit(0x300, 0x330));

        List<Received> received = Consumer.drain(assembler(script));

        assertThat(received.get(1).changes().get(0).relation().columns()).hasSize(1);
    }

    @Test
    void carriesTheOriginSentAfterTheFirstStreamStart() {
        Script script = new Script()
                .add(streamStart(761, true)).add(origin("orig1")).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a"))
                .add(streamStop()).add(streamCommit(761, 0x600, 0x630));

        Delivery delivery = Consumer.drain(assembler(script)).get(0).delivery();

        assertThat(delivery.origin()).hasValueSatisfying(origin -> assertThat(origin.name()).isEqualTo("orig1"));
    }

    @Test
    void emptyStreamBlocksCommitAsAnEmptyDelivery() {
        Script script = new Script().add(streamStart(761, true)).add(streamStop()).add(streamCommit(761, 0x600, 0x630));

        Received received = Consumer.drain(assembler(script)).get(0);

        assertThat(received.changes()).isEmpty();
        assertThat(received.delivery().endLsn()).isEqualTo(lsn(0x630));
    }

    @Test
    void spillsTransactionalMessagesAndDeliversNonTransactionalOnesAtOnce() {
        Script script = new Script()
                .add(streamStart(761, true)).add(message(761, true, 0x200, "in-txn")).add(streamStop())
                .add(message(0, false, 0x210, "ntx"))
                .add(streamCommit(761, 0x600, 0x630));

        List<Received> received = Consumer.drain(assembler(script));

        assertThat(received).extracting(r -> r.delivery().xid()).containsExactly(Xid.INVALID, xid(761));
        assertThat(received.get(1).values()).containsExactly("in-txn");
    }

    @Test
    void consumerMayStopInTheMiddleOfASpilledTransactionAndResume() {
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a")).add(insert(761, 1, "b"))
                .add(streamStop()).add(streamCommit(761, 0x600, 0x630));
        TransactionAssembler assembler = assembler(script);
        Delivery delivery = assembler.nextDelivery();

        assertThat(Script.valueOf(delivery.changes().next().message())).isEqualTo("a");
        assertThat(delivery.changes().atEnd()).isFalse();
        assertThat(Script.valueOf(delivery.changes().next().message())).isEqualTo("b");
        assertThat(delivery.changes().next()).isNull();
        assertThat(delivery.changes().atEnd()).isTrue();
    }

    @Test
    void clearsTheSpillOnStartUp() {
        spill().append(xid(761), xid(761), Lsn.of(1), ByteBuffer.allocate(8));
        Script script = new Script().add(streamStart(761, true)).add(streamStop()).add(streamCommit(761, 0x600, 0x630));

        Received received = Consumer.drain(assembler(script)).get(0);

        assertThat(received.changes()).as("leftover of an earlier session").isEmpty();
    }

    @Test
    void reportsOpenStreamedTransactionsAndSpilledBytes() {
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a")).add(streamStop())
                .add(streamStart(762, true)).add(streamStop());
        TransactionAssembler assembler = assembler(script);

        assertThat(assembler.nextDelivery()).isNull();

        assertThat(assembler.openStreamedTransactions()).isEqualTo(2);
        assertThat(assembler.spillUsage().bytes()).isPositive();
    }
}

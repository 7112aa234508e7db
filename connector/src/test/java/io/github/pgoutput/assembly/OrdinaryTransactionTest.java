package io.github.pgoutput.assembly;

import static io.github.pgoutput.assembly.Script.begin;
import static io.github.pgoutput.assembly.Script.commit;
import static io.github.pgoutput.assembly.Script.delete;
import static io.github.pgoutput.assembly.Script.insert;
import static io.github.pgoutput.assembly.Script.lsn;
import static io.github.pgoutput.assembly.Script.message;
import static io.github.pgoutput.assembly.Script.origin;
import static io.github.pgoutput.assembly.Script.relation;
import static io.github.pgoutput.assembly.Script.truncate;
import static io.github.pgoutput.assembly.Script.type;
import static io.github.pgoutput.assembly.Script.update;
import static io.github.pgoutput.assembly.Script.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.assembly.Consumer.Received;
import io.github.pgoutput.pgoutput.Xid;
import java.util.List;
import org.junit.jupiter.api.Test;

class OrdinaryTransactionTest extends AssemblerTestSupport {

    @Test
    void passesCommittedTransactionThroughWithItsChangesInOrder() {
        Script script = new Script()
                .add(begin(752, 0x15737D0)).add(relation(0, 16406, "t", "id"))
                .add(insert(0, 16406, "1")).add(update(0, 16406, "2")).add(delete(0, 16406, "3"))
                .add(commit(0x15737D0, 0x1573800));

        List<Received> received = Consumer.drain(assembler(script));

        assertThat(received).hasSize(1);
        Delivery delivery = received.get(0).delivery();
        assertThat(delivery.kind()).isEqualTo(Delivery.Kind.COMMITTED);
        assertThat(delivery.xid()).isEqualTo(xid(752));
        assertThat(delivery.lsn()).isEqualTo(lsn(0x15737D0));
        assertThat(delivery.endLsn()).isEqualTo(lsn(0x1573800));
        assertThat(delivery.time()).isEqualTo(Script.T0);
        assertThat(delivery.twoPhase()).isFalse();
        assertThat(delivery.gid()).isEmpty();
        assertThat(delivery.origin()).isEmpty();
        assertThat(received.get(0).values()).containsExactly("1", "2", "3");
        assertThat(received.get(0).changes()).extracting(ChangeEvent::index).containsExactly(0L, 1L, 2L);
        assertThat(received.get(0).changes().get(0).relation().relationName()).isEqualTo("t");
    }

    @Test
    void handsOutATransactionSentWholeOnlyWhenItsCommitBringsTheEndLsn() {
        Script script = new Script().add(begin(1, 0x100)).pause().add(relation(0, 1, "t", "id")).add(insert(0, 1, "a"))
                .pause().add(insert(0, 1, "b")).add(commit(0x100, 0x130));
        TransactionAssembler assembler = assembler(script);

        assertThat(assembler.nextDelivery()).as("Begin alone: an Origin may still follow").isNull();
        assertThat(assembler.nextDelivery()).as("collecting until the Commit").isNull();
        Delivery delivery = assembler.nextDelivery();

        assertThat(delivery.endLsn()).as("known before any change is read").isEqualTo(lsn(0x130));
        assertThat(delivery.lsn()).isEqualTo(lsn(0x100));
        assertThat(Script.valueOf(delivery.changes().next().message())).isEqualTo("a");
        assertThat(Script.valueOf(delivery.changes().next().message())).isEqualTo("b");
        assertThat(delivery.changes().next()).isNull();
        assertThat(delivery.changes().atEnd()).isTrue();
    }

    @Test
    void consumerMayStopMidTransactionAndGoOnLater() {
        Script script = new Script().add(begin(1, 0x100)).add(relation(0, 1, "t", "id"))
                .add(insert(0, 1, "a")).add(insert(0, 1, "b")).add(commit(0x100, 0x130));
        TransactionAssembler assembler = assembler(script);

        Delivery delivery = assembler.nextDelivery();
        ChangeCursor changes = delivery.changes();
        assertThat(Script.valueOf(changes.next().message())).isEqualTo("a");
        assertThatThrownBy(assembler::nextDelivery).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("read the changes");
        assertThat(Script.valueOf(changes.next().message())).isEqualTo("b");
        assertThat(changes.next()).isNull();
        assertThat(changes.atEnd()).isTrue();
        assertThat(assembler.nextDelivery()).isNull();
    }

    @Test
    void aTransactionLargerThanTheHoldLimitGoesOnInTheSpillAndComesBackInOrder() {
        Script script = new Script().add(begin(9, 0x100)).add(relation(0, 1, "t", "id"));
        for (int i = 0; i < 40; i++) {
            script.add(insert(0, 1, "v" + i));
            if (i == 30) {
                // The schema changes in the spilled part: later changes get the new Relation, earlier ones the old.
                script.add(relation(0, 1, "t", "id", "added"));
            }
        }
        script.add(commit(0x100, 0x9000));
        TransactionAssembler assembler = assembler(script, PreparedTransactionMode.FAIL, 2_000);

        Delivery delivery = assembler.nextDelivery();

        assertThat(delivery.endLsn()).isEqualTo(lsn(0x9000));
        assertThat(assembler.spillUsage().bytes()).as("the part beyond the hold limit is in the spill").isPositive();
        List<ChangeEvent> changes = new java.util.ArrayList<>();
        for (ChangeEvent change = delivery.changes().next(); change != null; change = delivery.changes().next()) {
            changes.add(change);
        }
        assertThat(delivery.changes().atEnd()).isTrue();
        assertThat(changes).extracting(c -> Script.valueOf(c.message()))
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 40).mapToObj(i -> "v" + i).toList());
        assertThat(changes).extracting(ChangeEvent::index).containsExactlyElementsOf(
                java.util.stream.LongStream.range(0, 40).boxed().toList());
        assertThat(changes.get(30).relation().columns()).hasSize(1);
        assertThat(changes.get(31).relation().columns()).hasSize(2);
        assertThat(assembler.spillUsage().bytes()).as("read back and discarded").isZero();
    }

    @Test
    void closingWhileATransactionIsCollectedForgetsItsSpilledPart() {
        Script script = new Script().add(begin(9, 0x100)).add(relation(0, 1, "t", "id"));
        for (int i = 0; i < 20; i++) {
            script.add(insert(0, 1, "v" + i));
        }
        TransactionAssembler assembler = assembler(script.pause(), PreparedTransactionMode.FAIL, 0);

        assertThat(assembler.nextDelivery()).isNull();
        assertThat(assembler.spillUsage().bytes()).isPositive();
        assembler.close();

        assertThat(assembler.spillUsage().bytes()).isZero();
    }

    @Test
    void carriesTheOriginSentAfterBegin() {
        Script script = new Script().add(begin(775, 0x1680C40)).add(origin("orig1")).add(relation(0, 1, "t", "id"))
                .add(insert(0, 1, "a")).add(commit(0x1680C40, 0x1680D00));

        Received received = Consumer.drain(assembler(script)).get(0);

        assertThat(received.delivery().origin()).hasValueSatisfying(origin -> assertThat(origin.name()).isEqualTo("orig1"));
        assertThat(received.values()).containsExactly("a");
    }

    @Test
    void givesEachChangeTheRelationInForceWhenItWasWritten() {
        Script script = new Script().add(begin(1, 0x100)).add(relation(0, 1, "t", "id"))
                .add(insert(0, 1, "a")).add(relation(0, 1, "t", "id", "added")).add(insert(0, 1, "b"))
                .add(commit(0x100, 0x130));

        List<ChangeEvent> changes = Consumer.drain(assembler(script)).get(0).changes();

        assertThat(changes.get(0).relation().columns()).hasSize(1);
        assertThat(changes.get(1).relation().columns()).hasSize(2);
    }

    @Test
    void keepsRelationsAndTypesForLaterTransactions() {
        Script script = new Script()
                .add(begin(1, 0x100)).add(type(0, 16500, "mood")).add(relation(0, 1, "t", "id")).add(insert(0, 1, "a"))
                .add(commit(0x100, 0x130))
                .add(begin(2, 0x200)).add(insert(0, 1, "b")).add(commit(0x200, 0x230));
        TransactionAssembler assembler = assembler(script);

        List<Received> received = Consumer.drain(assembler);

        assertThat(received.get(1).changes().get(0).relation().relationName()).isEqualTo("t");
        assertThat(assembler.relations().type(16500)).hasValueSatisfying(type -> assertThat(type.typeName()).isEqualTo("mood"));
    }

    @Test
    void truncateCarriesTheRelationOfEveryTable() {
        Script script = new Script().add(begin(1, 0x100)).add(relation(0, 1, "a", "id")).add(relation(0, 2, "b", "id"))
                .add(truncate(0, 2L, 1L)).add(commit(0x100, 0x130));

        ChangeEvent change = Consumer.drain(assembler(script)).get(0).changes().get(0);

        assertThat(change.relations()).extracting(r -> r.relationName()).containsExactly("b", "a");
    }

    @Test
    void transactionalLogicalMessageIsAChangeOfItsTransaction() {
        Script script = new Script().add(begin(1, 0x100)).add(message(0, true, 0x110, "hello")).add(commit(0x100, 0x130));

        Received received = Consumer.drain(assembler(script)).get(0);

        assertThat(received.values()).containsExactly("hello");
        assertThat(received.changes().get(0).relations()).isEmpty();
    }

    @Test
    void nonTransactionalLogicalMessageBecomesASyntheticCommittedDelivery() {
        Script script = new Script().add(message(0, false, 0x17FB280, "hello-ntx"))
                .add(begin(760, 0x1800000)).add(relation(0, 1, "t", "id")).add(insert(0, 1, "a")).add(commit(0x1800000, 0x1800030));

        List<Received> received = Consumer.drain(assembler(script));

        Delivery synthetic = received.get(0).delivery();
        assertThat(synthetic.kind()).isEqualTo(Delivery.Kind.COMMITTED);
        assertThat(synthetic.xid()).isEqualTo(Xid.INVALID);
        assertThat(synthetic.lsn()).isEqualTo(lsn(0x17FB280));
        assertThat(synthetic.endLsn()).isEqualTo(lsn(0x17FB280));
        assertThat(synthetic.time()).isNull();
        assertThat(received.get(0).values()).containsExactly("hello-ntx");
        assertThat(received.get(1).delivery().xid()).isEqualTo(xid(760));
    }
}

package io.github.pgoutput.assembly;

import static io.github.pgoutput.assembly.Script.begin;
import static io.github.pgoutput.assembly.Script.beginPrepare;
import static io.github.pgoutput.assembly.Script.commit;
import static io.github.pgoutput.assembly.Script.commitPrepared;
import static io.github.pgoutput.assembly.Script.insert;
import static io.github.pgoutput.assembly.Script.lsn;
import static io.github.pgoutput.assembly.Script.prepare;
import static io.github.pgoutput.assembly.Script.relation;
import static io.github.pgoutput.assembly.Script.rollbackPrepared;
import static io.github.pgoutput.assembly.Script.streamPrepare;
import static io.github.pgoutput.assembly.Script.streamStart;
import static io.github.pgoutput.assembly.Script.streamStop;
import static io.github.pgoutput.assembly.Script.xid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.assembly.Consumer.Received;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.spill.SpillUsage;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TwoPhaseTest extends AssemblerTestSupport {

    static Stream<PgOutputMessage> twoPhaseMessages() {
        return Stream.of(beginPrepare(770, "g1", 0x1631DA8, 0x1631EA0), prepare(770, "g1", 0x1631DA8, 0x1631EA0),
                commitPrepared(770, "g1", 0x1631EA0, 0x1631ED8), rollbackPrepared(771, "g2", 0x1632078, 0x16320B0),
                streamPrepare(761, "g3", 0x16593C8, 0x16594C0));
    }

    @ParameterizedTest
    @MethodSource("twoPhaseMessages")
    void failModeRejectsEveryTwoPhaseMessageBeforeChangingState(PgOutputMessage twoPhase) {
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a")).add(streamStop()).pause()
                .add(twoPhase, lsn(0x1631EA0));
        TransactionAssembler assembler = assembler(script, PreparedTransactionMode.FAIL);
        SpillUsage before;

        assertThat(assembler.nextDelivery()).isNull();
        before = assembler.spillUsage();
        assertThatThrownBy(assembler::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("'" + twoPhase.tag() + "'")
                .hasMessageContaining("0/1631EA0")
                .hasMessageContaining("prepared.transaction.mode=stage")
                .hasMessageContaining("recreate the slot without two_phase");

        assertThat(assembler.openStreamedTransactions()).isEqualTo(1);
        assertThat(assembler.spillUsage()).isEqualTo(before);
    }

    @Test
    void stagesAPreparedTransactionAsPreparedWithItsChanges() {
        Script script = new Script().add(beginPrepare(770, "g1", 0x1631DA8, 0x1631EA0)).add(relation(0, 1, "t", "id"))
                .add(insert(0, 1, "a")).add(insert(0, 1, "b")).add(prepare(770, "g1", 0x1631DA8, 0x1631EA0));

        Received received = Consumer.drain(assembler(script)).get(0);

        Delivery delivery = received.delivery();
        assertThat(delivery.kind()).isEqualTo(Delivery.Kind.PREPARED);
        assertThat(delivery.xid()).isEqualTo(xid(770));
        assertThat(delivery.gid()).hasValue("g1");
        assertThat(delivery.lsn()).isEqualTo(lsn(0x1631DA8));
        assertThat(delivery.endLsn()).isEqualTo(lsn(0x1631EA0));
        assertThat(delivery.time()).isEqualTo(Script.T0);
        assertThat(delivery.twoPhase()).isFalse();
        assertThat(received.values()).containsExactly("a", "b");
    }

    @Test
    void commitPreparedIsATwoPhaseCommittedDeliveryWithoutChanges() {
        Script script = new Script().add(commitPrepared(770, "g1", 0x1631EA0, 0x1631ED8));

        Received received = Consumer.drain(assembler(script)).get(0);

        Delivery delivery = received.delivery();
        assertThat(delivery.kind()).isEqualTo(Delivery.Kind.COMMITTED);
        assertThat(delivery.twoPhase()).isTrue();
        assertThat(delivery.xid()).isEqualTo(xid(770));
        assertThat(delivery.gid()).hasValue("g1");
        assertThat(delivery.lsn()).isEqualTo(lsn(0x1631EA0));
        assertThat(delivery.endLsn()).isEqualTo(lsn(0x1631ED8));
        assertThat(delivery.time()).isEqualTo(Script.T0.plusSeconds(5));
        assertThat(received.changes()).isEmpty();
    }

    @Test
    void rollbackPreparedIsARolledBackDeliveryEvenForAGidNeverSeen() {
        Script script = new Script().add(rollbackPrepared(771, "g2", 0x1632078, 0x16320B0));

        Received received = Consumer.drain(assembler(script)).get(0);

        Delivery delivery = received.delivery();
        assertThat(delivery.kind()).isEqualTo(Delivery.Kind.ROLLED_BACK);
        assertThat(delivery.xid()).isEqualTo(xid(771));
        assertThat(delivery.gid()).hasValue("g2");
        assertThat(delivery.lsn()).isEqualTo(lsn(0x1632078));
        assertThat(delivery.endLsn()).isEqualTo(lsn(0x16320B0));
        assertThat(delivery.time()).isEqualTo(Script.T0.plusSeconds(5));
        assertThat(delivery.prepareTime()).hasValue(Script.T0);
        assertThat(received.changes()).isEmpty();
    }

    @Test
    void streamPrepareDeliversTheSpilledTransactionAsPrepared() {
        Script script = new Script()
                .add(streamStart(772, true)).add(relation(772, 1, "t", "id")).add(insert(772, 1, "a")).add(streamStop())
                .add(streamPrepare(772, "g3", 0x16593C8, 0x16594C0))
                .add(commitPrepared(772, "g3", 0x1659500, 0x1659530));

        List<Received> received = Consumer.drain(assembler(script));

        assertThat(received).extracting(r -> r.delivery().kind()).containsExactly(Delivery.Kind.PREPARED, Delivery.Kind.COMMITTED);
        assertThat(received.get(0).delivery().gid()).hasValue("g3");
        assertThat(received.get(0).delivery().endLsn()).isEqualTo(lsn(0x16594C0));
        assertThat(received.get(0).values()).containsExactly("a");
        assertThat(received.get(1).delivery().twoPhase()).isTrue();
        assertThat(received.get(1).delivery().gid()).hasValue("g3");
    }

    @Test
    void transactionPreparedBeforeTwoPhaseWasEnabledArrivesAsPreparedThenCommitted() {
        Script script = new Script().add(beginPrepare(780, "old", 0x100, 0x180)).add(relation(0, 1, "t", "id"))
                .add(insert(0, 1, "a")).add(prepare(780, "old", 0x100, 0x180)).add(commitPrepared(780, "old", 0x900, 0x930));

        List<Received> received = Consumer.drain(assembler(script));

        assertThat(received).extracting(r -> r.delivery().kind()).containsExactly(Delivery.Kind.PREPARED, Delivery.Kind.COMMITTED);
        assertThat(received).extracting(r -> r.delivery().xid()).containsOnly(xid(780));
        assertThat(received.get(0).values()).containsExactly("a");
    }

    @Test
    void preparedTransactionArrivingAsAnOrdinaryCommitIsAnOrdinaryDelivery() {
        Script script = new Script().add(begin(790, 0x100)).add(relation(0, 1, "t", "id")).add(insert(0, 1, "a"))
                .add(commit(0x100, 0x130));

        Delivery delivery = Consumer.drain(assembler(script, PreparedTransactionMode.FAIL)).get(0).delivery();

        assertThat(delivery.kind()).isEqualTo(Delivery.Kind.COMMITTED);
        assertThat(delivery.twoPhase()).isFalse();
        assertThat(delivery.gid()).isEmpty();
    }

    @Test
    void prepareMustMatchItsBeginPrepare() {
        Script script = new Script().add(beginPrepare(770, "g1", 0x100, 0x180)).add(prepare(770, "other", 0x100, 0x180));
        TransactionAssembler assembler = assembler(script);
        Delivery delivery = assembler.nextDelivery();

        assertThatThrownBy(() -> delivery.changes().next()).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("gid 'other'").hasMessageContaining("gid 'g1'");
    }

    @Test
    void aPreparedTransactionKnowsItsEndLsnFromBeginPrepareAndThePrepareMustEndThere() {
        Script script = new Script().add(beginPrepare(770, "g1", 0x100, 0x180)).add(relation(0, 1, "t", "id"))
                .add(insert(0, 1, "a")).add(prepare(770, "g1", 0x100, 0x1C0));
        TransactionAssembler assembler = assembler(script);
        Delivery delivery = assembler.nextDelivery();

        assertThat(delivery.endLsn()).as("before any change is read").isEqualTo(lsn(0x180));
        assertThat(delivery.changes().next()).isNotNull();
        assertThatThrownBy(() -> delivery.changes().next()).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("end_lsn 0/1C0").hasMessageContaining("announced 0/100 and 0/180");
    }
}

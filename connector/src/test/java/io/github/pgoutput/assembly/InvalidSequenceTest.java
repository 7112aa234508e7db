package io.github.pgoutput.assembly;

import static io.github.pgoutput.assembly.Script.begin;
import static io.github.pgoutput.assembly.Script.commit;
import static io.github.pgoutput.assembly.Script.insert;
import static io.github.pgoutput.assembly.Script.lsn;
import static io.github.pgoutput.assembly.Script.message;
import static io.github.pgoutput.assembly.Script.relation;
import static io.github.pgoutput.assembly.Script.streamCommit;
import static io.github.pgoutput.assembly.Script.streamStart;
import static io.github.pgoutput.assembly.Script.streamStop;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InvalidSequenceTest extends AssemblerTestSupport {

    @Test
    void commitWithoutBeginFailsNamingItsLsn() {
        Script script = new Script().add(commit(0x100, 0x130), lsn(0x130));

        assertThatThrownBy(assembler(script)::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("'C' Commit at WAL position 0/130").hasMessageContaining("outside any transaction");
    }

    @Test
    void changeOutsideATransactionOrStreamBlockFails() {
        Script script = new Script().add(relation(0, 1, "t", "id")).add(insert(0, 1, "a"), lsn(0x2A0));

        assertThatThrownBy(assembler(script)::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("'I' Insert at WAL position 0/2A0");
    }

    @Test
    void transactionalMessageOutsideATransactionFails() {
        Script script = new Script().add(message(0, true, 0x2A0, "x"), lsn(0x2A0));

        assertThatThrownBy(assembler(script)::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("'M' LogicalMessage at WAL position 0/2A0");
    }

    @Test
    void nestedBeginFails() {
        Script script = new Script().add(begin(1, 0x100)).add(relation(0, 1, "t", "id")).add(begin(2, 0x200), lsn(0x1F0));
        TransactionAssembler assembler = assembler(script);

        assertThatThrownBy(assembler::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("'B' Begin at WAL position 0/1F0").hasMessageContaining("inside transaction 1");
    }

    @Test
    void beginInsideAStreamBlockFails() {
        Script script = new Script().add(streamStart(761, true)).add(begin(2, 0x200), lsn(0x1F0));

        assertThatThrownBy(assembler(script)::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("'B' Begin at WAL position 0/1F0").hasMessageContaining("stream block of xid 761");
    }

    @Test
    void nestedStreamStartFails() {
        Script script = new Script().add(streamStart(761, true)).add(streamStart(762, true), lsn(0x1F0));

        assertThatThrownBy(assembler(script)::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("'S' StreamStart at WAL position 0/1F0");
    }

    @Test
    void streamStopOutsideABlockFails() {
        Script script = new Script().add(streamStop(), lsn(0x1F0));

        assertThatThrownBy(assembler(script)::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("'E' StreamStop at WAL position 0/1F0");
    }

    @Test
    void streamCommitForAnUnknownXidFails() {
        Script script = new Script().add(streamCommit(761, 0x600, 0x630), lsn(0x630));

        assertThatThrownBy(assembler(script)::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("'c' StreamCommit at WAL position 0/630").hasMessageContaining("xid 761");
    }

    @Test
    void laterBlockOfAStreamWhoseFirstBlockNeverArrivedFails() {
        Script script = new Script().add(streamStart(761, false), lsn(0x1F0));

        assertThatThrownBy(assembler(script)::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("first_segment=0 for xid 761");
    }

    @Test
    void secondFirstSegmentOfAnOpenStreamFails() {
        Script script = new Script().add(streamStart(761, true)).add(streamStop()).add(streamStart(761, true), lsn(0x1F0));

        assertThatThrownBy(assembler(script)::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("first_segment=1 for xid 761");
    }

    @Test
    void changeOfARelationNeverDescribedFails() {
        Script script = new Script().add(begin(1, 0x100)).add(insert(0, 42, "a"), lsn(0x110)).add(commit(0x100, 0x130));
        Delivery delivery = assembler(script).nextDelivery();

        assertThatThrownBy(() -> delivery.changes().next()).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("relation id 42").hasMessageContaining("0/110");
    }

    @Test
    void commitWhoseLsnDiffersFromTheBeginsFinalLsnFails() {
        Script script = new Script().add(begin(1, 0x100)).add(commit(0x200, 0x230), lsn(0x230));

        assertThatThrownBy(assembler(script)::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("commit_lsn 0/200").hasMessageContaining("final_lsn 0/100");
    }

    @Test
    void staysFailedAfterAnError() {
        Script script = new Script().add(commit(0x100, 0x130)).add(begin(1, 0x200)).add(commit(0x200, 0x230));
        TransactionAssembler assembler = assembler(script);

        assertThatThrownBy(assembler::nextDelivery).isInstanceOf(AssemblyException.class);
        assertThatThrownBy(assembler::nextDelivery).isInstanceOf(AssemblyException.class)
                .hasMessageContaining("failed earlier").hasMessageContaining("'C' Commit");
    }
}

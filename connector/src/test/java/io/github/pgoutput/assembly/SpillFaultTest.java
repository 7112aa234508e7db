package io.github.pgoutput.assembly;

import static io.github.pgoutput.assembly.Script.insert;
import static io.github.pgoutput.assembly.Script.relation;
import static io.github.pgoutput.assembly.Script.streamCommit;
import static io.github.pgoutput.assembly.Script.streamStart;
import static io.github.pgoutput.assembly.Script.streamStop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.spill.DiskSpill;
import io.github.pgoutput.spill.SpillException;
import io.github.pgoutput.spill.SpillSettings;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;

/** Damage to the spill between append and Stream Commit: a clear error and no delivery at all, never a partial one. */
class SpillFaultTest extends AssemblerTestSupport {

    private Path file761() {
        return spillDirectory.resolve("test_slot.txn-761.spill");
    }

    private Script streamedThenPausedBeforeCommit() {
        return new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a")).add(insert(761, 1, "b"))
                .add(streamStop()).pause()
                .add(streamCommit(761, 0x600, 0x630));
    }

    @Test
    void corruptedSpillFileFailsTheStreamCommitBeforeAnyChangeIsDelivered() throws Exception {
        TransactionAssembler assembler = assembler(streamedThenPausedBeforeCommit());
        assertThat(assembler.nextDelivery()).isNull();
        spill.read(Script.xid(761)).close(); // flushes the front buffer to the file
        try (FileChannel channel = FileChannel.open(file761(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {0x7F}), channel.size() - 6);
        }

        assertThatThrownBy(assembler::nextDelivery).isInstanceOf(SpillException.class)
                .hasMessageContaining(file761().toString()).hasMessageContaining("CRC-32C mismatch");
        assertThatThrownBy(assembler::nextDelivery).isInstanceOf(AssemblyException.class).hasMessageContaining("failed earlier");
    }

    @Test
    void truncatedSpillFileFailsTheStreamCommitBeforeAnyChangeIsDelivered() throws Exception {
        TransactionAssembler assembler = assembler(streamedThenPausedBeforeCommit());
        assertThat(assembler.nextDelivery()).isNull();
        spill.read(Script.xid(761)).close();
        try (FileChannel channel = FileChannel.open(file761(), StandardOpenOption.WRITE)) {
            channel.truncate(channel.size() - 3);
        }

        assertThatThrownBy(assembler::nextDelivery).isInstanceOf(SpillException.class)
                .hasMessageContaining(file761().toString()).hasMessageContaining("truncated");
    }

    @Test
    void transactionOverTheSpillLimitFailsTheStreamAndNothingAfterItIsDelivered() {
        spill = DiskSpill.open("test_slot",
                SpillSettings.defaults("test_slot").withDirectory(spillDirectory).withLimits(40, SpillSettings.UNLIMITED));
        Script script = new Script()
                .add(streamStart(761, true)).add(relation(761, 1, "t", "id")).add(insert(761, 1, "a")).add(insert(761, 1, "b"))
                .add(insert(761, 1, "c")).add(streamStop())
                .add(streamCommit(761, 0x600, 0x630));
        TransactionAssembler assembler = assembler(script);

        assertThatThrownBy(assembler::nextDelivery).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.max.transaction.bytes=40");
        assertThatThrownBy(assembler::nextDelivery).isInstanceOf(AssemblyException.class);
    }
}

package io.github.pgoutput.assembly;

import io.github.pgoutput.spill.DiskSpill;
import io.github.pgoutput.spill.SpillSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** A real disk spill in a temporary directory, with a small front buffer so that tests also exercise the files. */
abstract class AssemblerTestSupport {

    @TempDir
    Path spillDirectory;

    DiskSpill spill;

    DiskSpill spill() {
        if (spill == null) {
            spill = DiskSpill.open("test_slot",
                    SpillSettings.defaults("test_slot").withDirectory(spillDirectory).withMemoryBufferBytes(64));
        }
        return spill;
    }

    TransactionAssembler assembler(Script script) {
        return assembler(script, PreparedTransactionMode.STAGE);
    }

    TransactionAssembler assembler(Script script, PreparedTransactionMode mode) {
        return assembler(script, mode, 1L << 20);
    }

    TransactionAssembler assembler(Script script, PreparedTransactionMode mode, long holdLimitBytes) {
        return new TransactionAssembler(script.source(), spill(), script.decoder(), mode, holdLimitBytes);
    }

    @AfterEach
    void closeSpill() {
        if (spill != null) {
            spill.close();
        }
    }
}

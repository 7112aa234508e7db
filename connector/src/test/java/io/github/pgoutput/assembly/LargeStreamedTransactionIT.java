package io.github.pgoutput.assembly;

import io.github.pgoutput.testing.Nightly;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory does not grow with transaction size: a streamed transaction with 2 GiB of change data is assembled and
 * read back in a JVM limited to a 256 MiB heap, and the consumer receives every surviving change, bit for bit.
 */
@Nightly
class LargeStreamedTransactionIT {

    private static final long TWO_GIB = 2L << 30;

    @TempDir
    Path spillDirectory;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void assemblesATwoGibibyteStreamedTransactionWithA256MibHeap() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xmx256m", "-XX:+ExitOnOutOfMemoryError",
                "-cp", System.getProperty("java.class.path"), LargeStreamedTransactionRun.class.getName(),
                spillDirectory.toString(), Long.toString(TWO_GIB))
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(9, TimeUnit.MINUTES)).isTrue();

        assertThat(process.exitValue()).as(output).isZero();
        Matcher result = Pattern.compile("RESULT changes=(\\d+) expectedChanges=(\\d+) crc=(\\w+) expectedCrc=(\\w+)"
                + " ordinary=(\\d+) peakHeapBytes=(\\d+)").matcher(output);
        assertThat(result.find()).as(output).isTrue();
        long changes = Long.parseLong(result.group(1));
        assertThat(changes).isEqualTo(Long.parseLong(result.group(2)));
        assertThat(changes * LargeStreamedTransactionRun.ROW_BYTES).as("change data read back").isGreaterThanOrEqualTo(TWO_GIB);
        assertThat(result.group(3)).isEqualTo(result.group(4));
        assertThat(Integer.parseInt(result.group(5))).as("ordinary transactions delivered in between").isPositive();
        assertThat(Long.parseLong(result.group(6))).isLessThan(256L << 20);
        try (var files = Files.list(spillDirectory)) {
            assertThat(files).as("spill files are deleted after delivery").isEmpty();
        }
        System.out.println(output.lines().filter(line -> line.startsWith("RESULT")).findFirst().orElseThrow());
    }
}

package io.github.pgoutput.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class TerminalLinesTest {

    @Test
    void proseBreaksBetweenWordsAndIndentsTheContinuation() {
        List<String> lines = TerminalLines.prose("postgres: starting a throwaway server in "
                + "/tmp/pgoutput-local-1234567890123456789/postgres with the settings the demo needs", 80);

        assertThat(lines).containsExactly(
                "postgres: starting a throwaway server in",
                "  /tmp/pgoutput-local-1234567890123456789/postgres with the settings the demo",
                "  needs");
    }

    @Test
    void aPathLongerThanTheWidthStandsWholeOnItsOwnLine() {
        String path = "/very/long/" + "directory/".repeat(10) + "kafka.classpath";

        List<String> lines = TerminalLines.prose("logs: " + path + " (kept)", 40);

        assertThat(lines).containsExactly("logs:", "  " + path, "  (kept)");
    }

    @Test
    void aLineThatFitsIsKeptAsWrittenWithItsSpacing() {
        assertThat(TerminalLines.prose("usage: x [--a]\n           [--b]   [--c]", 80))
                .containsExactly("usage: x [--a]", "           [--b]   [--c]");
    }

    @Test
    void aCommandBreaksBetweenArgumentsWithBackslashesAndKeepsOptionsWithTheirValues() {
        List<String> lines = TerminalLines.command("java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn "
                + "-cp \"$(cat local-run/target/kafka.classpath)\" org.apache.kafka.tools.consumer.ConsoleConsumer "
                + "--from-beginning --bootstrap-server 127.0.0.1:9092 --topic shop.public.orders", "  ", 78);

        assertThat(lines).containsExactly(
                "  java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \\",
                "    -cp \"$(cat local-run/target/kafka.classpath)\" \\",
                "    org.apache.kafka.tools.consumer.ConsoleConsumer --from-beginning \\",
                "    --bootstrap-server 127.0.0.1:9092 --topic shop.public.orders");
    }

    @Test
    void aWrappedCommandGivesTheShellTheSameArgumentsAsTheCommandOnOneLine() throws Exception {
        String command = "printf '[%s]\\n' -h 127.0.0.1 -p 45813 -U postgres shop "
                + "-c \"UPDATE orders SET status = 'shipped'\" --topic shop.public.orders --from-beginning";
        for (int width : new int[] {20, 40, 80}) {
            List<String> lines = TerminalLines.command(command, "  ", width);

            assertThat(lines).as("width %d", width).hasSizeGreaterThan(width == 80 ? 1 : 2);
            assertThat(bash(String.join("\n", lines))).as("width %d", width).isEqualTo(bash(command))
                    .contains("[UPDATE orders SET status = 'shipped']");
        }
    }

    private static String bash(String script) throws Exception {
        Process bash = new ProcessBuilder("bash", "-c", script).directory(Path.of(".").toFile())
                .redirectErrorStream(true).start();
        String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bash.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(bash.exitValue()).as(output).isZero();
        return output;
    }
}

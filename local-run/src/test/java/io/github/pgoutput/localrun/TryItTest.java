package io.github.pgoutput.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class TryItTest {

    private static TryIt demo(boolean noPsql) {
        return TryIt.of(server("127.0.0.1", "45813", "postgres", "shop"), "127.0.0.1:41234",
                "shop.public.orders", "http://127.0.0.1:41236", "shop", "/home/ada/src/kafka-connect-pgoutput", noPsql, true);
    }

    private static LocalPostgres server(String host, String port, String user, String database) {
        return LocalPostgres.given(Options.parse(Path.of("."), new String[] {"--pg-host", host, "--pg-port", port,
                "--pg-user", user, "--pg-password", "secret", "--pg-database", database}, Map.of(), false));
    }

    /** As pasted into a shell: continuation lines joined. */
    private static String joined(List<String> lines) {
        return String.join(" ", lines.stream().map(l -> l.strip().replaceFirst(" ?\\\\$", "")).toList());
    }

    @Test
    void printsTheConsoleConsumerCommandWithTheRealBootstrapAddressAndATopic() {
        TryIt tryIt = demo(false);

        assertThat(tryIt.consumer()).isEqualTo("java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn"
                + " -cp \"$(cat local-run/target/kafka.classpath)\" org.apache.kafka.tools.consumer.ConsoleConsumer"
                + " --from-beginning --bootstrap-server 127.0.0.1:41234 --topic shop.public.orders");
        assertThat(tryIt.psql()).isEqualTo("psql -h 127.0.0.1 -p 45813 -U postgres shop");
        assertThat(tryIt.status()).isEqualTo("curl -s http://127.0.0.1:41236/connectors/shop/status");
    }

    @Test
    void theStartLinesHoldTheThreeCommandsWrappedToEightyColumns() {
        List<String> lines = demo(false).startLines(80);

        assertThat(lines).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
        assertThat(lines.get(0)).isEqualTo(
                "Try it from a second terminal in this folder (Ctrl-C here stops everything):");
        assertThat(lines).contains("  psql -h 127.0.0.1 -p 45813 -U postgres shop",
                "  curl -s http://127.0.0.1:41236/connectors/shop/status");
        List<String> consumer = lines.subList(lines.indexOf("  psql -h 127.0.0.1 -p 45813 -U postgres shop") + 1,
                lines.indexOf("  curl -s http://127.0.0.1:41236/connectors/shop/status"));
        assertThat(joined(consumer)).isEqualTo(demo(false).consumer());
        assertThat(consumer).hasSize(4);
    }

    @Test
    void longHostsAndPathsStillKeepEveryLineWithinTheWidthBetweenArguments() {
        TryIt tryIt = TryIt.of(server("replica-7.eu-west-1.db.internal.example.com", "5432",
                        "connector_reader", "warehouse"), "127.0.0.1:9092", "shop.public.orders",
                "http://127.0.0.1:8083", "shop", "/home/ada/src/clones/for/the/talk/kafka-connect-pgoutput", true, false);

        for (List<String> lines : List.of(tryIt.startLines(80), tryIt.afterDemo(78))) {
            assertThat(lines).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
        }
        assertThat(tryIt.startLines(80)).startsWith("Try it from a second terminal (Ctrl-C here stops everything):")
                .contains("    (no psql here: apt-get install postgresql-client)")
                .anyMatch(l -> l.startsWith("  cd /home/ada/src/clones/for/the/talk/kafka-connect-pgoutput && "))
                .noneMatch(l -> l.contains("secret"));
    }

    @Test
    void afterTheDemoItSaysStreamingGoesOnHowToChangeRowsAndHowToStop() {
        List<String> notes = demo(false).afterDemo(78);

        assertThat(notes).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(78));
        assertThat(notes.get(0)).startsWith("demo: done").contains("keeps streaming");
        assertThat(joined(notes.subList(1, notes.size() - 1)))
                .isEqualTo("psql -h 127.0.0.1 -p 45813 -U postgres shop -c \"UPDATE orders SET status = 'shipped'\"");
        assertThat(notes.get(notes.size() - 1)).contains("Ctrl-C stops everything");
        assertThat(notes).as("the view shows its newest four notes").hasSizeLessThanOrEqualTo(4);
    }

    @Test
    void theViewLinesAreTheCommandsFittedToTheTerminal() {
        for (int width : new int[] {78, 58, 118}) {
            List<String> lines = demo(false).viewLines(width);

            assertThat(lines).as("width %d", width).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(width));
            assertThat(lines.get(0)).isEqualTo("psql -h 127.0.0.1 -p 45813 -U postgres shop");
            assertThat(lines.get(lines.size() - 1)).isEqualTo("curl -s http://127.0.0.1:41236/connectors/shop/status");
            assertThat(joined(lines.subList(1, lines.size() - 1))).isEqualTo(demo(false).consumer());
        }
    }
}

package io.github.pgoutput.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bin/pgoutput-local --demo --once} as a user runs it (a throwaway PostgreSQL, broker and worker it starts
 * itself): the records per topic its view prints equal what an independent consumer counts on the topics; the demo's
 * prepared transactions show up as PREPARED, COMMITTED (two-phase) and ROLLED_BACK; the rows of the rolled-back
 * savepoint never reach Kafka while the rest of the large transaction does, after passing through the spill; SIGTERM
 * stops every process it started.
 */
class LocalRunIT {

    private static final Path ROOT = Path.of(System.getProperty("project.root"));
    private static final Pattern TOPIC_FIGURE = Pattern.compile("^view t=(\\d+)s topic=(\\S+) records=(\\d+)$");
    private static final Pattern SPILL_FIGURE = Pattern.compile("^view t=\\d+s spill_bytes=(\\d+)$");
    private static final Pattern BROKER_PORTS = Pattern.compile(
            "^kafka: starting a KRaft broker on 127\\.0\\.0\\.1:(\\d+), controller on 127\\.0\\.0\\.1:(\\d+)$");
    private static final Pattern CONNECT_PORT = Pattern.compile(
            "^connect: starting a worker, REST on http://127\\.0\\.0\\.1:(\\d+)$");

    private final List<String> output = Collections.synchronizedList(new ArrayList<>());
    private Process run;

    @Test
    @Timeout(480)
    void demoFiguresMatchTheTopicsAndCtrlCStopsEverything() throws Exception {
        assertThat(ROOT.resolve("packaging/target/plugin/kafka-connect-pgoutput")).as("plugin folder built by the "
                + "packaging module before this test (mvn verify builds it)").isDirectory();
        // Port 0: the run chooses free ports itself and chooses again if another program takes one before the
        // broker or the worker binds it; it prints the ports it used.
        // Started from the clone, as the README says: the commands it prints are relative to it.
        ProcessBuilder builder = new ProcessBuilder(ROOT.resolve("bin/pgoutput-local").toString(), "--demo", "--once",
                "--duration", "300", "--kafka-port", "0", "--connect-port", "0").redirectErrorStream(true)
                .directory(ROOT.toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("PG"));
        run = builder.start();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    output.add(line);
                }
            } catch (IOException endOfRun) {
                // the process is gone
            }
        });
        reader.start();

        Map<String, Long> printed = awaitSettledFigures(Duration.ofSeconds(330));
        Matcher broker = lastMatch(BROKER_PORTS);
        int kafkaPort = Integer.parseInt(broker.group(1));
        int controllerPort = Integer.parseInt(broker.group(2));
        int connectPort = Integer.parseInt(lastMatch(CONNECT_PORT).group(1));
        assertThat(printed).containsKeys("shop.public.customers", "shop.public.orders", "shop.public.order_lines",
                "shop.transaction");

        Map<String, Long> counted = new HashMap<>();
        List<String> orderLines = new ArrayList<>();
        consumeAll("127.0.0.1:" + kafkaPort, printed.keySet(), (record) -> {
            counted.merge(record.topic(), 1L, Long::sum);
            if (record.topic().equals("shop.public.order_lines") && record.value() != null) {
                orderLines.add(new String(record.value(), StandardCharsets.UTF_8));
            }
        });
        assertThat(counted).as("records counted by an independent consumer vs. the view's figures")
                .isEqualTo(printed);

        assertThat(orderLines).as("order_lines records of the rolled-back savepoint")
                .noneMatch(v -> v.contains(DemoWorkload.ROLLED_BACK_PRODUCT));
        assertThat(orderLines.stream().filter(v -> v.contains("\"op\":\"c\"") && v.contains("bulk item")).count())
                .as("inserted rows of the large transaction").isEqualTo(DemoWorkload.LARGE_ROWS);
        List<String> records = snapshot().stream().filter(l -> l.startsWith("record ")).toList();
        assertThat(records).as("view's record lines")
                .anyMatch(l -> l.contains("pg.outcome=PREPARED") && l.contains("shop.public.customers"))
                .anyMatch(l -> l.contains("pg.outcome=COMMITTED") && l.contains("pg.two_phase=true"))
                .anyMatch(l -> l.contains("pg.outcome=ROLLED_BACK"));
        assertThat(snapshot().stream().map(SPILL_FIGURE::matcher).filter(Matcher::matches)
                .mapToLong(m -> Long.parseLong(m.group(1))).max().orElse(0))
                .as("spill bytes seen while the large transaction was open").isPositive();
        assertThat(snapshot()).as("slot figures").anyMatch(l -> l.matches(
                "^view t=\\d+s slot=shop_connector confirmed_flush_lsn=[0-9A-F]+/[0-9A-F]+ current_lsn=\\S+ "
                        + "unconfirmed_bytes=\\d+ retained_wal_bytes=\\d+ active=true$"));

        assertThat(snapshot()).as("lines for people (all but the view's data lines) within 80 columns")
                .filteredOn(l -> !l.startsWith("view ") && !l.startsWith("record "))
                .allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
        List<String> afterDemo = snapshot().subList(indexOf(l -> l.startsWith("demo: done")), snapshot().size())
                .stream().filter(l -> !l.startsWith("view ") && !l.startsWith("record ")).toList();
        assertThat(afterDemo.get(0)).contains("keeps streaming");
        assertThat(afterDemo.get(1)).startsWith("  psql -h 127.0.0.1 -p ");
        assertThat(afterDemo).anyMatch(l -> l.startsWith("Ctrl-C stops everything"));
        assertThat(runPrintedConsumerCommand()).as("the printed console consumer command, run as printed")
                .contains("\"total\":\"42.50\"");

        run.destroy(); // SIGTERM, as Ctrl-C's SIGINT: the shutdown hook stops what the run started
        assertThat(run.waitFor(90, TimeUnit.SECONDS)).as("run ended after SIGTERM; output tail:%n%s", tail()).isTrue();
        reader.join(30_000);
        for (int port : List.of(kafkaPort, controllerPort, connectPort)) {
            assertThat(listening(port)).as("something still listens on 127.0.0.1:%d", port).isFalse();
        }
        String runFolder = snapshot().stream().filter(l -> l.startsWith("run folder: "))
                .map(l -> l.replaceAll("^run folder: (\\S+) .*", "$1")).findFirst().orElseThrow();
        assertThat(Path.of(runFolder)).as("run folder (PostgreSQL, Kafka and spill data)").doesNotExist();
    }

    /** The last complete set of per-topic figures once the demo is done and two refreshes a second apart agree. */
    private Map<String, Long> awaitSettledFigures(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Long> previous = Map.of();
        while (System.nanoTime() < deadline) {
            assertThat(run.isAlive()).as("run alive; output tail:%n%s", tail()).isTrue();
            Thread.sleep(3000);
            List<String> lines = snapshot();
            if (lines.stream().noneMatch(l -> l.startsWith("demo: done"))) {
                assertThat(lines).as("demo step failed").noneMatch(l -> l.startsWith("demo: FAILED"));
                continue;
            }
            Map<String, Long> latest = latestFigures(lines);
            if (!latest.isEmpty() && latest.equals(previous)) {
                return latest;
            }
            previous = latest;
        }
        throw new AssertionError("figures did not settle within " + timeout + "; output tail:\n" + tail());
    }

    private static Map<String, Long> latestFigures(List<String> lines) {
        Map<String, Long> figures = new HashMap<>();
        String second = null;
        for (int i = lines.size() - 1; i >= 0; i--) {
            Matcher m = TOPIC_FIGURE.matcher(lines.get(i));
            if (!m.matches()) {
                if (second != null && !lines.get(i).startsWith("view ")) {
                    break;
                }
                continue;
            }
            if (second == null) {
                second = m.group(1);
            } else if (!second.equals(m.group(1))) {
                break;
            }
            figures.put(m.group(2), Long.parseLong(m.group(3)));
        }
        return figures;
    }

    private interface RecordSink {
        void accept(ConsumerRecord<byte[], byte[]> record);
    }

    private static void consumeAll(String bootstrap, Iterable<String> topics, RecordSink sink) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                assertThat(System.nanoTime()).as("consumed up to the end offsets in 60 s").isLessThan(deadline);
                consumer.poll(Duration.ofMillis(500)).forEach(sink::accept);
            }
        }
    }

    /**
     * The console consumer command of the "Try it" lines (from {@code java} to the line before {@code curl}), pasted
     * into bash in the clone as printed, with {@code --max-messages 1} added so it ends: its output.
     */
    private String runPrintedConsumerCommand() throws Exception {
        List<String> lines = snapshot();
        int start = indexOf(l -> l.startsWith("  java "));
        int end = indexOf(l -> l.startsWith("  curl -s http://127.0.0.1:"));
        assertThat(start).as("consumer command printed").isPositive().isLessThan(end);
        String command = String.join("\n", lines.subList(start, end)) + " --max-messages 1 --timeout-ms 60000";
        Process bash = new ProcessBuilder("bash", "-c", command).directory(ROOT.toFile()).redirectErrorStream(true)
                .start();
        String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bash.waitFor(90, TimeUnit.SECONDS)).as("consumer ended; output:%n%s", output).isTrue();
        assertThat(bash.exitValue()).as("consumer exit; command:%n%s%noutput:%n%s", command, output).isZero();
        return output;
    }

    private int indexOf(java.util.function.Predicate<String> line) {
        List<String> lines = snapshot();
        for (int i = 0; i < lines.size(); i++) {
            if (line.test(lines.get(i))) {
                return i;
            }
        }
        throw new AssertionError("no such output line; output tail:\n" + tail());
    }

    private List<String> snapshot() {
        synchronized (output) {
            return new ArrayList<>(output);
        }
    }

    private String tail() {
        List<String> lines = snapshot();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    private static boolean listening(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException nothing) {
            return false;
        }
    }

    /** The last line of the output that {@code pattern} matches (the ports of the start that succeeded). */
    private Matcher lastMatch(Pattern pattern) {
        List<String> lines = snapshot();
        for (int i = lines.size() - 1; i >= 0; i--) {
            Matcher m = pattern.matcher(lines.get(i));
            if (m.matches()) {
                return m;
            }
        }
        throw new AssertionError("no output line matches " + pattern + "; output tail:\n" + tail());
    }

    @AfterEach
    void stopRun() throws InterruptedException {
        if (run != null && run.isAlive()) {
            run.destroy();
            if (!run.waitFor(90, TimeUnit.SECONDS)) {
                run.destroyForcibly();
            }
        }
    }
}

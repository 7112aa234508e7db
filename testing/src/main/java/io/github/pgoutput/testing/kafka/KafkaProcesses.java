package io.github.pgoutput.testing.kafka;

import java.io.IOException;
import java.io.Writer;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.apache.kafka.common.Uuid;

/**
 * A single-node KRaft broker ({@code kafka.Kafka}, broker and controller in one JVM) and a distributed Connect worker
 * ({@code ConnectDistributed}), each in its own JVM with Kafka's jars only on its class path, both listening on
 * 127.0.0.1 only. The worker finds the connector through its {@code plugin.path}, as an installed one would. Both can
 * be started again on the same files after they were stopped or killed (the soak driver does that).
 */
public final class KafkaProcesses {

    private KafkaProcesses() {
    }

    /**
     * Starts the broker with its log directory in {@code workDir/kafka-logs} and {@code overrides} on top of its
     * defaults, formatting that directory first unless an earlier start did; returns when the broker accepts
     * connections on 127.0.0.1:{@code port}.
     */
    public static Process startBroker(String classPath, int port, int controllerPort, Map<String, String> overrides,
                                      Path workDir, ChildProcesses children) throws IOException, InterruptedException {
        Map<String, String> props = new TreeMap<>();
        String listener = "127.0.0.1:" + port;
        String controller = "127.0.0.1:" + controllerPort;
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.voters", "1@" + controller);
        props.put("listeners", "PLAINTEXT://" + listener + ",CONTROLLER://" + controller);
        props.put("advertised.listeners", "PLAINTEXT://" + listener);
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("log.dirs", workDir.resolve("kafka-logs").toString());
        props.put("num.partitions", "1");
        props.put("auto.create.topics.enable", "true");
        props.put("offsets.topic.replication.factor", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.putAll(overrides);
        Path file = write(workDir.resolve("broker.properties"), props);
        Path log = workDir.resolve("broker.log");

        long logStart = sizeOf(log);
        if (!Files.exists(workDir.resolve("kafka-logs").resolve("meta.properties"))) {
            Process format = new ProcessBuilder(java(classPath, "256m", "kafka.tools.StorageTool", "format",
                    "-t", Uuid.randomUuid().toString(), "-c", file.toString()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (format.waitFor() != 0) {
                throw new StartFailure("formatting the broker's log directory failed", log, logStart);
            }
        }
        Process broker = children.start("kafka broker", java(classPath, "512m", "kafka.Kafka", file.toString()), log);
        awaitPort(broker, port, "the Kafka broker", log, logStart);
        return broker;
    }

    /**
     * How a Connect worker is started.
     *
     * @param restPort   its REST API's port on 127.0.0.1
     * @param pluginPath the worker's {@code plugin.path} (comma-separated directories)
     * @param heap       its {@code -Xmx}, e.g. {@code 512m}
     * @param jvmOptions further JVM options, placed before the main class (e.g. Flight Recorder flags)
     * @param overrides  worker properties on top of the defaults
     */
    public record WorkerSettings(int restPort, String pluginPath, String heap, List<String> jvmOptions,
                                 Map<String, String> overrides) {
    }

    /**
     * Starts the Connect worker with {@code pluginPath} as its {@code plugin.path}, a 512 MB heap and
     * {@code overrides} on top of its defaults; returns when its REST API accepts connections on
     * 127.0.0.1:{@code restPort}.
     */
    public static Process startWorker(String classPath, String bootstrap, int restPort, Path pluginPath,
                                      Map<String, String> overrides, Path workDir, ChildProcesses children)
            throws IOException, InterruptedException {
        return startWorker(classPath, bootstrap,
                new WorkerSettings(restPort, pluginPath.toString(), "512m", List.of(), overrides), workDir, children);
    }

    /**
     * Starts a distributed Connect worker (JSON converters without schemas, offsets flushed every second) as
     * {@code settings} say; returns its process once the REST API accepts connections.
     */
    public static Process startWorker(String classPath, String bootstrap, WorkerSettings settings, Path workDir,
                                      ChildProcesses children) throws IOException, InterruptedException {
        Map<String, String> props = new TreeMap<>();
        props.put("bootstrap.servers", bootstrap);
        props.put("group.id", "pgoutput-local");
        props.put("config.storage.topic", "pgoutput-local-configs");
        props.put("offset.storage.topic", "pgoutput-local-offsets");
        props.put("status.storage.topic", "pgoutput-local-status");
        props.put("config.storage.replication.factor", "1");
        props.put("offset.storage.replication.factor", "1");
        props.put("status.storage.replication.factor", "1");
        props.put("offset.flush.interval.ms", "1000");
        props.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        props.put("key.converter.schemas.enable", "false");
        props.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        props.put("value.converter.schemas.enable", "false");
        props.put("listeners", "http://127.0.0.1:" + settings.restPort());
        props.put("rest.advertised.host.name", "127.0.0.1");
        props.put("plugin.path", settings.pluginPath());
        props.putAll(settings.overrides());
        Path file = write(workDir.resolve("worker.properties"), props);
        Path log = workDir.resolve("worker.log");
        List<String> args = new ArrayList<>(settings.jvmOptions());
        args.addAll(List.of("-Dorg.slf4j.simpleLogger.log.org.apache.kafka.connect.runtime.rest.RestServer=warn",
                "org.apache.kafka.connect.cli.ConnectDistributed", file.toString()));
        long logStart = sizeOf(log);
        Process worker = children.start("connect worker", java(classPath, settings.heap(), args.toArray(String[]::new)),
                log);
        awaitPort(worker, settings.restPort(), "the Connect worker's REST API", log, logStart);
        return worker;
    }

    private static List<String> java(String classPath, String heap, String... mainAndArgs) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap,
                "-XX:+UseSerialGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info", "-cp", classPath));
        command.addAll(List.of(mainAndArgs));
        return command;
    }

    private static Path write(Path file, Map<String, String> props) throws IOException {
        Properties properties = new Properties();
        properties.putAll(props);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            properties.store(out, "written by bin/pgoutput-local");
        }
        return file;
    }

    private static void awaitPort(Process process, int port, String what, Path log, long logStart)
            throws InterruptedException {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new StartFailure(what + " exited (code " + process.exitValue() + ")", log, logStart);
            }
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(300);
            }
        }
        throw new StartFailure(what + " did not listen on 127.0.0.1:" + port + " within 120 s", log, logStart);
    }

    private static long sizeOf(Path log) {
        try {
            return Files.exists(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * A broker or worker that did not come up. The message ends with the tail of what the process wrote to its log
     * during this start, because the run folder holding that log is deleted when the run stops.
     */
    public static final class StartFailure extends IllegalStateException {

        private static final int TAIL_LINES = 40;
        private static final int ERROR_LINES = 10;
        private static final Pattern ERROR_LINE =
                Pattern.compile("\\b(ERROR|FATAL)\\b|Exception|Address already in use");

        private final boolean portInUse;

        StartFailure(String what, Path log, long logStart) {
            this(what, log, outputSince(log, logStart));
        }

        private StartFailure(String what, Path log, List<String> output) {
            super(what + errorsIn(output) + "; its log " + log + " ends with:\n  "
                    + String.join("\n  ", output.subList(Math.max(0, output.size() - TAIL_LINES), output.size())));
            this.portInUse = output.stream().anyMatch(line -> line.contains("Address already in use"));
        }

        /**
         * The first error lines of the output: Kafka may go on logging (its whole configuration, shutdown steps) after
         * the error that stops it, which then falls outside the tail.
         */
        private static String errorsIn(List<String> output) {
            List<String> errors = output.stream().filter(line -> ERROR_LINE.matcher(line).find()).limit(ERROR_LINES).toList();
            return errors.isEmpty() ? "" : "; errors in its log:\n  " + String.join("\n  ", errors) + "\n";
        }

        /** Whether the process could not bind a port: another program took it first. */
        public boolean portInUse() {
            return portInUse;
        }

        private static List<String> outputSince(Path log, long offset) {
            try {
                byte[] all = Files.readAllBytes(log);
                int from = (int) Math.min(offset, all.length);
                String text = new String(all, from, all.length - from, StandardCharsets.UTF_8);
                return text.isEmpty() ? List.of("(nothing)") : List.of(text.split("\\R"));
            } catch (IOException e) {
                return List.of("(cannot read it: " + e.getMessage() + ")");
            }
        }
    }
}

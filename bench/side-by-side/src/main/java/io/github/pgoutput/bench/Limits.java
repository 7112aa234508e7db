package io.github.pgoutput.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.pgoutput.localrun.LocalPostgres;

/**
 * What the pieces around a connector can do on their own, measured in the same run: PostgreSQL emitting the stream
 * to a client that throws it away ({@code pg_recvlogical}), PostgreSQL exporting the table ({@code COPY … TO STDOUT}),
 * and the Kafka producer sending records of the same size ({@code ProducerPerformance}).
 */
final class Limits {

    private static final Pattern PRODUCER_RESULT = Pattern.compile("(\\d+) records sent, ([0-9.]+) records/sec");

    private final LocalPostgres pg;
    private final Path clientBin;
    private final String bootstrap;

    Limits(LocalPostgres pg, Path clientBin, String bootstrap) {
        this.pg = pg;
        this.clientBin = clientBin;
        this.bootstrap = bootstrap;
    }

    /**
     * Seconds from the workload's start until PostgreSQL has sent the whole stream to {@code pg_recvlogical} writing
     * into /dev/null, on a fresh slot, with the options our connector uses on PostgreSQL 17 (protocol 4, streaming
     * on). "Sent" is read from pg_stat_replication.sent_lsn reaching a logical message written after the workload's
     * last commit: the walsender decodes in WAL order, so by then it has sent everything before it.
     */
    double recvlogicalSeconds(Workload workload, int rows, String slot, Path workDir) throws Exception {
        try (Connection connection = pg.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
            Process receiver = new ProcessBuilder(List.of(clientBin.resolve("pg_recvlogical").toString(),
                    "-h", pg.host, "-p", String.valueOf(pg.port), "-U", pg.user, "-d", pg.database, "-S", slot,
                    "--start", "-o", "proto_version=4", "-o", "streaming=on",
                    "-o", "publication_names=" + Workload.PUBLICATION, "-f", "/dev/null"))
                    .redirectErrorStream(true).redirectOutput(workDir.resolve(slot + ".log").toFile()).start();
            try {
                int pid = awaitActive(statement, slot, receiver);
                long start = System.nanoTime();
                workload.run(pg, rows, clientBin, workDir);
                // flush = true (PostgreSQL 17): a non-transactional message is not flushed by itself, and the
                // walsender reads only flushed WAL, so without it the marker would wait for the next WAL page.
                // The function returns the end of the message's record, and sent_lsn is the end of the last record
                // the walsender decoded: equal once it has read the marker. (Waiting for "greater" waited for the
                // next record of any kind, often the running-xacts record written every 15 s.)
                String marker = single(statement, "SELECT pg_logical_emit_message(false, 'bench', 'end', true)::text");
                while (true) {
                    String passed = single(statement, "SELECT count(*) FROM pg_stat_replication WHERE pid = " + pid
                            + " AND sent_lsn >= '" + marker + "'::pg_lsn");
                    if ("1".equals(passed)) {
                        return (System.nanoTime() - start) / 1e9;
                    }
                    if (!receiver.isAlive()) {
                        throw new IllegalStateException("pg_recvlogical exited (" + receiver.exitValue() + "); see "
                                + workDir.resolve(slot + ".log"));
                    }
                    Thread.sleep(50);
                }
            } finally {
                receiver.destroy();
                receiver.waitFor(20, TimeUnit.SECONDS);
                Slots.drop(statement, slot);
            }
        }
    }

    /** Seconds psql needs for {@code COPY (SELECT <columns> FROM public.bench) TO STDOUT} into /dev/null. */
    double copySeconds() throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process psql = new ProcessBuilder(List.of(clientBin.resolve("psql").toString(), "-h", pg.host,
                "-p", String.valueOf(pg.port), "-U", pg.user, "-d", pg.database, "-X", "-q", "-v", "ON_ERROR_STOP=1",
                "-c", "COPY (SELECT " + Workload.COLUMNS + " FROM public.bench) TO STDOUT"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        if (psql.waitFor() != 0) {
            throw new IllegalStateException("psql COPY failed (exit " + psql.exitValue() + ")");
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /**
     * Records/s of ProducerPerformance sending {@code records} records of {@code recordBytes} bytes to a fresh
     * topic, with the producer settings a Connect worker forces on its source tasks (acks=all, one request in flight,
     * no idempotence); its own JVM, the driver's class path (which holds kafka-tools).
     */
    double producerRecordsPerSecond(String topic, long records, int recordBytes, Path workDir) throws IOException,
            InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "org.apache.kafka.tools.ProducerPerformance",
                "--topic", topic, "--num-records", String.valueOf(records), "--record-size", String.valueOf(recordBytes),
                "--throughput", "-1", "--producer-props", "bootstrap.servers=" + bootstrap, "acks=all",
                "max.in.flight.requests.per.connection=1", "enable.idempotence=false"));
        Path log = workDir.resolve(topic + ".log");
        Process perf = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (perf.waitFor() != 0) {
            throw new IllegalStateException("ProducerPerformance failed (exit " + perf.exitValue() + "); see " + log);
        }
        Matcher last = null;
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher m = PRODUCER_RESULT.matcher(line);
            if (m.find()) {
                last = m;
            }
        }
        if (last == null) {
            throw new IllegalStateException("no result line in " + log);
        }
        return Double.parseDouble(last.group(2));
    }

    private static int awaitActive(Statement statement, String slot, Process receiver) throws SQLException,
            InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String pid = single(statement, "SELECT coalesce(active_pid, 0) FROM pg_replication_slots WHERE slot_name = '"
                    + slot + "'");
            if (!"0".equals(pid)) {
                return Integer.parseInt(pid);
            }
            if (!receiver.isAlive()) {
                throw new IllegalStateException("pg_recvlogical exited (" + receiver.exitValue() + ") before streaming");
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("slot " + slot + " not active 60 s after pg_recvlogical started");
    }

    static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : "";
        }
    }
}

package io.github.pgoutput.parity;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;

/**
 * Debezium's PostgreSQL connector and ours capturing the same table of one database with the same SMT configuration,
 * each on its own prefix ({@code dbz_<name>}, {@code our_<name>}), slot and publication; a workload runs once both
 * stream, and their records (after the SMTs) are compared field by field by {@link RecordComparison}, topics named
 * without the prefix. Our {@code pg.*} headers are the only difference accepted, as in the parity test.
 */
final class SmtComparison {

    private SmtComparison() {
    }

    /** Each side's records and the differences. */
    record Outcome(List<CapturedRecord> debeziumRecords, List<CapturedRecord> ourRecords, List<Difference> differences) {

        /** The differences other than our {@code pg.*} headers. */
        List<Difference> unacceptedDifferences() {
            return differences.stream().filter(d -> !(d.isAddition() && d.path().contains(" headers.pg."))).toList();
        }

        String describe() {
            return "Debezium " + debeziumRecords.size() + " records, ours " + ourRecords.size() + "; differences other than"
                    + " our pg.* headers:\n" + unacceptedDifferences().stream().limit(40)
                    .map(d -> d.path() + ": debezium " + d.debezium() + ", ours " + d.ours()).collect(Collectors.joining("\n"))
                    + "\nDebezium's tombstones: " + debeziumRecords.stream().filter(CapturedRecord::isTombstone)
                            .map(CapturedRecord::toJsonLine).collect(Collectors.joining("\n"))
                    + "\nOur tombstones: " + ourRecords.stream().filter(CapturedRecord::isTombstone)
                            .map(CapturedRecord::toJsonLine).collect(Collectors.joining("\n"))
                    + "\nDebezium's first record: " + (debeziumRecords.isEmpty() ? "-" : debeziumRecords.get(0).toJsonLine())
                    + "\nOur first record: " + (ourRecords.isEmpty() ? "-" : ourRecords.get(0).toJsonLine());
        }
    }

    /**
     * Runs both connectors with {@code smt} (plus {@code perPrefix} of each prefix) on {@code tables} of {@code db},
     * runs {@code workload} once both stream, waits until each side wrote {@code expected} records to its topics
     * (its transaction topic left out), and compares. The connectors are deleted afterwards.
     */
    static Outcome run(ConnectWorkerCluster connect, PostgresDatabase db, String name, String tables, Map<String, String> smt,
                       Function<String, Map<String, String>> perPrefix, Runnable workload, int expected, Duration timeout) {
        String debezium = "dbz_" + name;
        String ours = "our_" + name;
        for (String prefix : List.of(debezium, ours)) {
            Map<String, String> config = SourceConfigs.of(prefix.equals(debezium) ? SourceConfigs.DEBEZIUM : SourceConfigs.OURS,
                    db, prefix, tables);
            config.putAll(smt);
            config.putAll(perPrefix.apply(prefix));
            connect.configureConnector(prefix, config);
        }
        try (TopicReader topics = new TopicReader(connect.bootstrapServers())) {
            for (String prefix : List.of(debezium, ours)) {
                connect.awaitRunning(prefix, 1, timeout);
                SourceConfigs.awaitStreaming(db, prefix, timeout);
            }
            workload.run();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (written(topics, debezium) < expected || written(topics, ours) < expected) {
                JdbcSink.failIfFailed(connect, debezium);
                JdbcSink.failIfFailed(connect, ours);
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("after " + timeout + " Debezium wrote " + written(topics, debezium)
                            + " and ours " + written(topics, ours) + " of " + expected + " records");
                }
                sleep();
            }
            Map<String, List<CapturedRecord>> byTopic = topics.readAll(t -> owned(t, debezium) || owned(t, ours));
            List<CapturedRecord> debeziumRecords = new ArrayList<>();
            List<CapturedRecord> ourRecords = new ArrayList<>();
            byTopic.forEach((topic, records) -> (owned(topic, debezium) ? debeziumRecords : ourRecords).addAll(records));
            RecordComparison.Result result = RecordComparison.compare(debeziumRecords, debezium, ourRecords, ours);
            return new Outcome(debeziumRecords, ourRecords, result.differences());
        } finally {
            connect.deleteConnector(debezium);
            connect.deleteConnector(ours);
        }
    }

    private static long written(TopicReader topics, String prefix) {
        return topics.endOffsets().entrySet().stream().filter(e -> owned(e.getKey(), prefix)).mapToLong(Map.Entry::getValue).sum();
    }

    /** The prefix's topics but its transaction topic. */
    private static boolean owned(String topic, String prefix) {
        return topic.startsWith(prefix + ".") && !topic.equals(prefix + ".transaction");
    }

    private static void sleep() {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}

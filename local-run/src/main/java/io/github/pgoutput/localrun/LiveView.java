package io.github.pgoutput.localrun;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The live terminal view, refreshed about once a second: records per topic (end offsets from the AdminClient), the
 * slot's confirmed flush LSN against the server's current LSN, spill bytes on disk, and the latest records with op,
 * key and {@code pg.*} headers. On a terminal it redraws with plain ANSI codes; otherwise ({@code --once}, pipes) it
 * prints each figure as a {@code view ...} line and each new record as a {@code record ...} line, for scripts and
 * tests. Used by one thread; {@link #note} may be called from any thread.
 */
final class LiveView implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int LATEST = 8;

    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final LocalPostgres postgres;
    private final String slot;
    private final Path spillDir;
    private final boolean plain;
    private final PrintStream out;
    private final List<String> header;
    private final Deque<String> latest = new ArrayDeque<>();
    /** Next offset to show per partition: a rebalance (new topic matched) replays from the start, shown once. */
    private final Map<TopicPartition, Long> shownUpTo = new java.util.HashMap<>();
    private final Deque<String> notes = new ArrayDeque<>();
    private final ConcurrentLinkedQueue<String> pendingNotes = new ConcurrentLinkedQueue<>();
    private final long started = System.nanoTime();
    private Connection connection;

    LiveView(String bootstrap, String topicPrefix, LocalPostgres postgres, String slot, Path spillDir, boolean plain,
             PrintStream out, List<String> header) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        this.admin = Admin.create(props);
        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "pgoutput-local-view");
        consumerProps.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "1000");
        this.consumer = new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.consumer.subscribe(Pattern.compile(Pattern.quote(topicPrefix) + "\\..*"));
        this.postgres = postgres;
        this.slot = slot;
        this.spillDir = spillDir;
        this.plain = plain;
        this.out = out;
        this.header = header;
    }

    /** A line shown under the figures (plain mode: printed at once). */
    void note(String line) {
        pendingNotes.add(line);
    }

    /** Reads new records and figures and shows them; takes about a second. */
    void refresh() {
        List<String> newRecords = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofMillis(900).toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                if (record.offset() < shownUpTo.getOrDefault(partition, 0L)) {
                    continue;
                }
                shownUpTo.put(partition, record.offset() + 1);
                String line = describe(record);
                newRecords.add(line);
                latest.addLast(line);
                if (latest.size() > LATEST) {
                    latest.removeFirst();
                }
            }
        }
        Map<String, Long> counts = recordsPerTopic();
        String slotLine = slotFigures();
        long spill = spillBytes();
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        for (String note; (note = pendingNotes.poll()) != null; ) {
            notes.addLast(note);
            if (notes.size() > 6) {
                notes.removeFirst();
            }
            if (plain) {
                out.println(note);
            }
        }
        if (plain) {
            newRecords.forEach(r -> out.println("record " + r));
            counts.forEach((topic, n) -> out.println("view t=" + seconds + "s topic=" + topic + " records=" + n));
            out.println("view t=" + seconds + "s " + slotLine);
            out.println("view t=" + seconds + "s spill_bytes=" + spill);
            out.flush();
            return;
        }
        StringBuilder screen = new StringBuilder("\033[H\033[2J");
        header.forEach(h -> screen.append(h).append('\n'));
        screen.append("\n\033[1mRecords per topic\033[0m  (").append(seconds).append(" s)\n");
        counts.forEach((topic, n) -> screen.append(String.format("  %-40s %10d%n", topic, n)));
        screen.append("\n\033[1mReplication slot\033[0m\n  ").append(slotLine.replace(" ", "\n  ")).append('\n');
        screen.append("\n\033[1mSpill\033[0m  ").append(spill).append(" bytes in ").append(spillDir).append('\n');
        screen.append("\n\033[1mLatest records\033[0m\n");
        latest.forEach(r -> screen.append("  ").append(r).append('\n'));
        screen.append("\n\033[1mActivity\033[0m\n");
        notes.forEach(n -> screen.append("  ").append(n).append('\n'));
        screen.append("\nCtrl-C stops everything this command started.\n");
        out.print(screen);
        out.flush();
    }

    private Map<String, Long> recordsPerTopic() {
        Map<String, Long> counts = new TreeMap<>();
        try {
            List<String> topics = admin.listTopics().names().get().stream()
                    .filter(t -> !t.startsWith("pgoutput-local-") && !t.startsWith("__")).sorted().toList();
            var partitions = admin.describeTopics(topics).allTopicNames().get();
            Map<TopicPartition, OffsetSpec> request = new java.util.HashMap<>();
            partitions.forEach((topic, description) -> description.partitions()
                    .forEach(p -> request.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest())));
            admin.listOffsets(request).all().get()
                    .forEach((tp, info) -> counts.merge(tp.topic(), info.offset(), Long::sum));
        } catch (ExecutionException e) {
            counts.put("(topics unreadable: " + e.getCause() + ")", -1L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return counts;
    }

    private String slotFigures() {
        String sql = "SELECT confirmed_flush_lsn, pg_current_wal_lsn(), "
                + "pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)::bigint, "
                + "pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint, active "
                + "FROM pg_replication_slots WHERE slot_name = '" + slot + "'";
        try {
            if (connection == null || connection.isClosed()) {
                connection = postgres.connect();
            }
            try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
                if (!rows.next()) {
                    return "slot=" + slot + " (not created yet)";
                }
                return "slot=" + slot + " confirmed_flush_lsn=" + rows.getString(1) + " current_lsn="
                        + rows.getString(2) + " unconfirmed_bytes=" + rows.getLong(3) + " retained_wal_bytes="
                        + rows.getLong(4) + " active=" + rows.getBoolean(5);
            }
        } catch (SQLException e) {
            connection = null;
            return "slot=" + slot + " (unreadable: " + e.getMessage() + ")";
        }
    }

    private long spillBytes() {
        if (!Files.isDirectory(spillDir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(spillDir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException goneMeanwhile) {
                    return 0;
                }
            }).sum();
        } catch (IOException | java.io.UncheckedIOException goneMeanwhile) {
            return 0;
        }
    }

    /** {@code topic=.. offset=.. op=.. key=.. pg.xid=.. ...}: one line, key shortened. */
    static String describe(ConsumerRecord<byte[], byte[]> record) {
        String headers = Stream.of(record.headers().toArray()).filter(h -> h.key().startsWith("pg."))
                .map(LiveView::header).collect(Collectors.joining(" "));
        return "topic=" + record.topic() + " offset=" + record.offset() + " op=" + op(record.value()) + " key="
                + shorten(record.key() == null ? "null" : new String(record.key(), StandardCharsets.UTF_8))
                + (headers.isEmpty() ? "" : " " + headers);
    }

    private static String header(Header h) {
        return h.key() + "=" + (h.value() == null ? "null" : new String(h.value(), StandardCharsets.UTF_8));
    }

    /** The envelope's {@code op}, the transaction topic's {@code status}, or {@code tombstone}. */
    private static String op(byte[] value) {
        if (value == null) {
            return "tombstone";
        }
        try {
            JsonNode json = JSON.readTree(value);
            if (json.hasNonNull("op")) {
                return json.get("op").asText();
            }
            if (json.hasNonNull("status")) {
                return json.get("status").asText();
            }
            return "?";
        } catch (IOException notJson) {
            return "?";
        }
    }

    private static String shorten(String text) {
        String oneLine = text.replace('\n', ' ').replace(' ', '_');
        return oneLine.length() <= 60 ? oneLine : oneLine.substring(0, 57) + "...";
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(2));
        admin.close(Duration.ofSeconds(2));
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException ignored) {
            // closing at shutdown; the server may be gone already
        }
    }
}

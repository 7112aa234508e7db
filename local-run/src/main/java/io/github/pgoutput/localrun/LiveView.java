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
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
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
    /** More than any terminal shows: the screen takes the newest that fit. */
    private static final int LATEST = 40;
    private static final int NOTES = 8;

    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final LocalPostgres postgres;
    private final String slot;
    private final Path spillDir;
    private final boolean plain;
    private final PrintStream out;
    private final String topicPrefix;
    /** The lines under the title for a given width: the commands to try. */
    private final IntFunction<List<String>> endpoints;
    private final Deque<LiveScreen.Row> latest = new ArrayDeque<>();
    /** Next offset to show per partition: a rebalance (new topic matched) replays from the start, shown once. */
    private final Map<TopicPartition, Long> shownUpTo = new java.util.HashMap<>();
    private final Deque<String> notes = new ArrayDeque<>();
    private final ConcurrentLinkedQueue<String> pendingNotes = new ConcurrentLinkedQueue<>();
    private final long started = System.nanoTime();
    private Connection connection;
    private boolean firstDraw = true;
    private int[] terminalSize;
    private long terminalSizeRead;

    LiveView(String bootstrap, String topicPrefix, LocalPostgres postgres, String slot, Path spillDir, boolean plain,
             PrintStream out, IntFunction<List<String>> endpoints) {
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
        this.topicPrefix = topicPrefix;
        this.endpoints = endpoints;
    }

    /** A line shown under the figures (plain mode: printed at once). */
    void note(String line) {
        pendingNotes.add(line);
    }

    /** Reads new records and figures and shows them unless {@code show} says no more; takes about a second. */
    void refresh(BooleanSupplier show) {
        List<String> newRecords = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofMillis(900).toNanos();
        while (System.nanoTime() < deadline && show.getAsBoolean()) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                if (record.offset() < shownUpTo.getOrDefault(partition, 0L)) {
                    continue;
                }
                shownUpTo.put(partition, record.offset() + 1);
                LiveScreen.Row row = row(record);
                newRecords.add(describe(row));
                latest.addLast(row);
                if (latest.size() > LATEST) {
                    latest.removeFirst();
                }
            }
        }
        Map<String, Long> counts = recordsPerTopic();
        LiveScreen.Slot slotFigures = slotFigures();
        long spill = spillBytes();
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        for (String note; (note = pendingNotes.poll()) != null; ) {
            notes.addLast(note);
            if (notes.size() > NOTES) {
                notes.removeFirst();
            }
            if (plain) {
                out.println(note);
            }
        }
        if (!show.getAsBoolean()) {
            return;
        }
        if (plain) {
            newRecords.forEach(r -> out.println("record " + r));
            counts.forEach((topic, n) -> out.println("view t=" + seconds + "s topic=" + topic + " records=" + n));
            out.println("view t=" + seconds + "s " + describe(slotFigures));
            out.println("view t=" + seconds + "s spill_bytes=" + spill);
            out.flush();
            return;
        }
        int[] size = terminalSize();
        // The screen indents the lines under its title by two columns.
        List<String> lines = LiveScreen.render(new LiveScreen.Figures(seconds, endpoints.apply(size[0] - 2), topicPrefix,
                counts, slotFigures, spill, List.copyOf(latest), List.copyOf(notes)), size[0], size[1]);
        // Home, each line with the rest of its row cleared, no newline after the last (it would scroll), then the rest
        // of the screen cleared: no flicker, no wrapping, no scrolling.
        StringBuilder screen = new StringBuilder(firstDraw ? "\033[2J\033[H" : "\033[H");
        firstDraw = false;
        screen.append(String.join("\033[K\n", lines)).append("\033[K\033[J");
        out.print(screen);
        out.flush();
    }

    /**
     * Columns and rows of the terminal, from {@code stty size} on {@code /dev/tty}, read every few seconds so a
     * resized window is followed; {@link LiveScreen#DEFAULT_WIDTH} × {@link LiveScreen#DEFAULT_HEIGHT} when unknown.
     */
    private int[] terminalSize() {
        if (terminalSize != null && System.nanoTime() - terminalSizeRead < 5_000_000_000L) {
            return terminalSize;
        }
        terminalSizeRead = System.nanoTime();
        int[] size = {LiveScreen.DEFAULT_WIDTH, LiveScreen.DEFAULT_HEIGHT};
        try {
            Process stty = new ProcessBuilder("stty", "size").redirectInput(new java.io.File("/dev/tty"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String[] rowsColumns = new String(stty.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim().split("\\s+");
            if (stty.waitFor() == 0 && rowsColumns.length == 2) {
                size = new int[] {Integer.parseInt(rowsColumns[1]), Integer.parseInt(rowsColumns[0])};
            }
        } catch (IOException | NumberFormatException unknown) {
            // no terminal to ask: the default size
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        terminalSize = size[0] > 0 && size[1] > 0 ? size : new int[] {LiveScreen.DEFAULT_WIDTH, LiveScreen.DEFAULT_HEIGHT};
        return terminalSize;
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

    private LiveScreen.Slot slotFigures() {
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
                    return LiveScreen.Slot.unreadable(slot, "not created yet");
                }
                return new LiveScreen.Slot(slot, Optional.empty(), rows.getString(1), rows.getString(2), rows.getLong(3),
                        rows.getLong(4), rows.getBoolean(5));
            }
        } catch (SQLException e) {
            connection = null;
            return LiveScreen.Slot.unreadable(slot, "unreadable: " + e.getMessage());
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

    /** The record as the view shows it: key as text, pg.* headers in their order. */
    static LiveScreen.Row row(ConsumerRecord<byte[], byte[]> record) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        for (Header h : record.headers()) {
            if (h.key().startsWith("pg.")) {
                headers.put(h.key(), h.value() == null ? "null" : new String(h.value(), StandardCharsets.UTF_8));
            }
        }
        return new LiveScreen.Row(record.topic(), record.offset(), op(record.value()),
                record.key() == null ? "null" : new String(record.key(), StandardCharsets.UTF_8), headers);
    }

    /** {@code topic=.. offset=.. op=.. key=.. pg.xid=.. ...}: the plain {@code record} line, the key on one line. */
    static String describe(LiveScreen.Row row) {
        String headers = row.pgHeaders().entrySet().stream().map(e -> e.getKey() + "=" + LiveScreen.oneLine(e.getValue()))
                .collect(Collectors.joining(" "));
        return "topic=" + row.topic() + " offset=" + row.offset() + " op=" + row.op() + " key="
                + LiveScreen.fit(row.key(), 200) + (headers.isEmpty() ? "" : " " + headers);
    }

    /** {@code slot=.. confirmed_flush_lsn=.. ...}: the plain {@code view} line of the slot. */
    static String describe(LiveScreen.Slot slot) {
        if (slot.problem().isPresent()) {
            return "slot=" + slot.name() + " (" + slot.problem().get() + ")";
        }
        return "slot=" + slot.name() + " confirmed_flush_lsn=" + slot.confirmedFlushLsn() + " current_lsn="
                + slot.currentLsn() + " unconfirmed_bytes=" + slot.unconfirmedBytes() + " retained_wal_bytes="
                + slot.retainedWalBytes() + " active=" + slot.active();
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

    @Override
    public void close() {
        // Nothing to commit or hand over: no reason to keep the stop waiting.
        consumer.close(Duration.ofMillis(500));
        admin.close(Duration.ofMillis(500));
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException ignored) {
            // closing at shutdown; the server may be gone already
        }
    }
}

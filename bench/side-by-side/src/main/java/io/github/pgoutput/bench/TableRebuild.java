package io.github.pgoutput.bench;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import io.github.pgoutput.localrun.LocalPostgres;

/**
 * W7's referee: rebuilds {@code public.bench} from a leg's topic while the leg runs, and says when the rebuilt table
 * equals the table the database holds once the concurrent changes are over. A row is its id and a hash of its
 * {@code v}, the column every change rewrites; records apply in topic order: a read ({@code r}), insert or update sets
 * the row, a delete removes it, a tombstone changes nothing. The topic's JSON is that of the JSON converter without
 * schemas (or {@code direct.encoding=json}), the same for both connectors.
 *
 * <p>Its consumer runs on its own thread from before the signal; the leg's thread hands it the database's table
 * ({@link #expect}) and waits ({@link #awaitEqual}).
 */
final class TableRebuild implements AutoCloseable {

    /** One record of the topic, as the rebuild reads it. {@code v} is null for a delete. */
    record TopicChange(long id, char op, String v) {
    }

    private static final JsonFactory JSON = new JsonFactory();

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final TopicPartition partition;
    private final Thread thread;
    private final Object lock = new Object();
    /** By id: the hash of the row's v as the topic left it, 0 when absent. Guarded by {@link #lock}. */
    private long[] rows;
    private long[] expected;
    private long mismatches;
    private long reads;
    private long changes;
    private long firstReadNanos;
    private long lastReadNanos;
    private long equalNanos;
    private long lastRecordNanos = System.nanoTime();
    private volatile boolean stopped;
    private volatile Exception failure;

    private TableRebuild(String bootstrap, String topic, int rows) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000");
        // Fetches of at least 256 KB (or after 200 ms): a fetch per produce request would cost the broker, whose CPU
        // the contender's producer shares, a round trip per batch.
        props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, String.valueOf(256 << 10));
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "200");
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        partition = new TopicPartition(topic, 0);
        this.rows = new long[rows * 2 + 1];
        thread = new Thread(this::run, "w7-rebuild");
        thread.setDaemon(true);
    }

    /** Starts reading {@code topic} (which must exist) from its beginning. */
    static TableRebuild start(String bootstrap, String topic, int rows) {
        TableRebuild rebuild = new TableRebuild(bootstrap, topic, rows);
        rebuild.consumer.assign(List.of(rebuild.partition));
        rebuild.consumer.seekToBeginning(List.of(rebuild.partition));
        rebuild.thread.start();
        return rebuild;
    }

    private void run() {
        try {
            while (!stopped) {
                var records = consumer.poll(Duration.ofMillis(100));
                long now = System.nanoTime();
                synchronized (lock) {
                    for (ConsumerRecord<byte[], byte[]> record : records) {
                        TopicChange change = parse(record.key(), record.value());
                        if (change != null) {
                            apply(change, now);
                        }
                    }
                    if (!records.isEmpty()) {
                        lastRecordNanos = now;
                    }
                    if (expected != null && mismatches == 0 && equalNanos == 0) {
                        equalNanos = now;
                    }
                }
            }
        } catch (Exception e) {
            failure = e;
        } finally {
            consumer.close();
        }
    }

    private void apply(TopicChange change, long now) {
        if (change.op() == 'r') {
            reads++;
            if (firstReadNanos == 0) {
                firstReadNanos = now;
            }
            lastReadNanos = now;
        } else {
            changes++;
        }
        int id = Math.toIntExact(change.id());
        if (id >= rows.length) {
            rows = Arrays.copyOf(rows, Math.max(id + 1, rows.length * 2));
        }
        long before = rows[id];
        long after = change.v() == null ? 0 : hash(change.v());
        rows[id] = after;
        if (expected != null) {
            long want = id < expected.length ? expected[id] : 0;
            mismatches += (after != want ? 1 : 0) - (before != want ? 1 : 0);
        }
    }

    /** Never 0, which stands for an absent row. */
    static long hash(String v) {
        return ((long) v.hashCode() << 1) | 1;
    }

    /**
     * The record as the rebuild reads it, or null for a tombstone. Fails on a record that is neither (a key without
     * {@code id}, a value without {@code op}, a create, read or update without {@code after.v}).
     */
    static TopicChange parse(byte[] key, byte[] value) throws IOException {
        if (value == null) {
            return null;
        }
        long id = -1;
        try (JsonParser parser = JSON.createParser(key)) {
            requireToken(parser.nextToken(), JsonToken.START_OBJECT, "key");
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                parser.nextToken();
                if (name.equals("id")) {
                    id = parser.getLongValue();
                } else {
                    parser.skipChildren();
                }
            }
        }
        String op = null;
        String v = null;
        try (JsonParser parser = JSON.createParser(value)) {
            requireToken(parser.nextToken(), JsonToken.START_OBJECT, "value");
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                if (name.equals("op")) {
                    op = parser.getText();
                } else if (name.equals("after") && token == JsonToken.START_OBJECT) {
                    while (parser.nextToken() == JsonToken.FIELD_NAME) {
                        String column = parser.currentName();
                        parser.nextToken();
                        if (column.equals("v")) {
                            v = parser.getText();
                        } else {
                            parser.skipChildren();
                        }
                    }
                } else {
                    parser.skipChildren();
                }
            }
        }
        if (id < 0 || op == null || op.length() != 1 || (!op.equals("d") && v == null)) {
            throw new IllegalStateException("not a change of public.bench: key " + new String(key) + ", value "
                    + new String(value));
        }
        return new TopicChange(id, op.charAt(0), op.equals("d") ? null : v);
    }

    private static void requireToken(JsonToken token, JsonToken wanted, String what) {
        if (token != wanted) {
            throw new IllegalStateException("the record's " + what + " is not a JSON object (" + token + ")");
        }
    }

    /** Reads the table as the database holds it now (after the concurrent changes) and starts comparing with it. */
    void expect(LocalPostgres pg) throws SQLException {
        long[] table = new long[rows.length];
        try (Connection connection = pg.connect()) {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.setFetchSize(10_000);
                try (ResultSet rs = statement.executeQuery("SELECT id, v FROM public.bench")) {
                    while (rs.next()) {
                        int id = Math.toIntExact(rs.getLong(1));
                        if (id >= table.length) {
                            table = Arrays.copyOf(table, Math.max(id + 1, table.length * 2));
                        }
                        table[id] = hash(rs.getString(2));
                    }
                }
            }
            connection.commit();
        }
        synchronized (lock) {
            expected = table;
            mismatches = 0;
            for (int id = 0; id < Math.max(rows.length, table.length); id++) {
                long have = id < rows.length ? rows[id] : 0;
                long want = id < table.length ? table[id] : 0;
                if (have != want) {
                    mismatches++;
                }
            }
        }
    }

    /**
     * Waits until the topic holds at least {@code reads} snapshot reads. Fails when no record arrived for
     * {@code stallSeconds} before that.
     */
    void awaitReads(long reads, int stallSeconds, KafkaProbe.Check check) throws Exception {
        await(now -> {
            if (this.reads >= reads) {
                return true;
            }
            if (now - lastRecordNanos > TimeUnit.SECONDS.toNanos(stallSeconds)) {
                throw new IllegalStateException("the snapshot stalled at " + this.reads + " reads (no record for "
                        + stallSeconds + " s)");
            }
            return false;
        }, check);
    }

    /** When the rebuilt table first equalled the database's and what the topic held, as {@link System#nanoTime()}s. */
    record Outcome(long equalNanos, long firstReadNanos, long lastReadNanos, long reads, long changes) {
    }

    /**
     * Waits until the rebuilt table equals the database's and the topic has been quiet for {@code quietSeconds} after
     * that, still equal. Fails with what differs when no record arrived for {@code stallSeconds} while it differs, or
     * when a later record made it differ again.
     */
    Outcome awaitEqual(int quietSeconds, int stallSeconds, KafkaProbe.Check check) throws Exception {
        await(now -> {
            if (equalNanos != 0 && mismatches != 0) {
                throw new IllegalStateException("the topic rebuilt the table, then a later record broke it: "
                        + differences());
            }
            if (equalNanos == 0 && now - lastRecordNanos > TimeUnit.SECONDS.toNanos(stallSeconds)) {
                throw new IllegalStateException("the topic does not rebuild the table (no record for "
                        + stallSeconds + " s): " + differences());
            }
            return equalNanos != 0 && now - lastRecordNanos > TimeUnit.SECONDS.toNanos(quietSeconds);
        }, check);
        synchronized (lock) {
            return new Outcome(equalNanos, firstReadNanos, lastReadNanos, reads, changes);
        }
    }

    /**
     * Looks every 100 ms until {@code done} (given {@link System#nanoTime()}, under the lock; it throws when the wait
     * failed); runs {@code check} (the connector has not failed) every 5 s.
     */
    private void await(LongPredicate done, KafkaProbe.Check check) throws Exception {
        long lastCheck = 0;
        while (true) {
            if (failure != null) {
                throw new IllegalStateException("reading the topic failed: " + failure.getMessage(), failure);
            }
            long now = System.nanoTime();
            synchronized (lock) {
                if (done.test(now)) {
                    return;
                }
            }
            if (now - lastCheck > TimeUnit.SECONDS.toNanos(5)) {
                check.run();
                lastCheck = now;
            }
            Thread.sleep(100);
        }
    }

    /** Rows missing from the topic's table, rows it has that the database has not, and rows with another v. */
    private String differences() {
        if (expected == null) {
            return "the database's table was not read yet";
        }
        long missing = 0;
        long extra = 0;
        long stale = 0;
        for (int id = 0; id < Math.max(rows.length, expected.length); id++) {
            long have = id < rows.length ? rows[id] : 0;
            long want = id < expected.length ? expected[id] : 0;
            if (have == want) {
                continue;
            }
            if (have == 0) {
                missing++;
            } else if (want == 0) {
                extra++;
            } else {
                stale++;
            }
        }
        return missing + " rows missing, " + extra + " rows the database does not hold, " + stale
                + " rows with another value (" + reads + " reads and " + changes + " changes read)";
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join(TimeUnit.SECONDS.toMillis(10));
    }
}

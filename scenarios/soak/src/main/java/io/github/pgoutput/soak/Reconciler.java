package io.github.pgoutput.soak;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.common.TopicPartition;

/**
 * The end of a soak: lets the connector catch up (a final marker transaction must reach Kafka, the slot must confirm
 * it, and the topics must stop growing), then rebuilds every table from its topic and compares it with the database.
 */
final class Reconciler {

    private final SoakServices services;
    private final Consumer<String> log;

    Reconciler(SoakServices services, Consumer<String> log) {
        this.services = services;
        this.log = log;
    }

    /** Waits for the connector to catch up, restarting what fails meanwhile; false if it did not in time. */
    boolean catchUp(long finalTx, FaultInjector healer, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String ledgerTopic = Schema.topic("soak_tx");
        try (TopicReader reader = new TopicReader(services.bootstrap())) {
            Map<TopicPartition, Long> from = new HashMap<>(reader.endOffsets(ledgerTopic));
            try (Connection connection = services.connect();
                 PreparedStatement insert = connection.prepareStatement(
                         "INSERT INTO soak_tx (tx, kind, gid, marker) VALUES (?, 'final', NULL, ?)")) {
                insert.setLong(1, finalTx);
                insert.setString(2, Schema.OK);
                insert.executeUpdate();
            }
            String[] finalLsn = new String[1];
            while (finalLsn[0] == null) {
                if (System.nanoTime() > deadline) {
                    log.accept("catch-up: the final marker (tx " + finalTx + ") did not reach " + ledgerTopic);
                    return false;
                }
                healer.heal();
                reader.read(from, record -> {
                    from.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
                    JsonNode value = TopicReader.json(record.value());
                    if (value != null && value.path("after").path("tx").asLong() == finalTx) {
                        finalLsn[0] = TopicReader.headers(record).get(Reconciliation.COMMIT_LSN);
                    }
                });
                Thread.sleep(1000);
            }
            log.accept("catch-up: final marker in Kafka, commit LSN " + finalLsn[0]);
            while (!slotConfirmed(finalLsn[0])) {
                if (System.nanoTime() > deadline) {
                    log.accept("catch-up: the slot did not confirm " + finalLsn[0]);
                    return false;
                }
                healer.heal();
                Thread.sleep(1000);
            }
            log.accept("catch-up: slot confirmed_flush_lsn reached " + finalLsn[0]);
            Map<String, Map<TopicPartition, Long>> before = ends(reader);
            while (true) {
                Thread.sleep(5000);
                Map<String, Map<TopicPartition, Long>> now = ends(reader);
                if (now.equals(before)) {
                    log.accept("catch-up: topics quiet for 5 s");
                    return true;
                }
                if (System.nanoTime() > deadline) {
                    log.accept("catch-up: topics still growing");
                    return false;
                }
                before = now;
            }
        }
    }

    /**
     * The figures of a reconciliation.
     *
     * @param committed  ledger rows in the database (the final marker left out)
     * @param lost       rows where a rebuilt table differs from the database
     * @param incomplete prepared transactions whose lifecycle on the transaction topic is incomplete or wrong
     * @param detail     duplicates, leaked records, records read, examples
     */
    record Figures(long committed, long lost, long incomplete, Reconciliation detail) {
    }

    /** Rebuilds every table from its topic and compares it with the database. */
    Figures reconcile(Set<String> knownPrepared, Map<String, Long> outcomeBounds) throws SQLException {
        Reconciliation reconciliation = new Reconciliation();
        try (TopicReader reader = new TopicReader(services.bootstrap())) {
            reader.readAll(Schema.transactionTopic(), r -> reconciliation.lifecycle(TopicReader.json(r.value())));
            try (Connection connection = services.connect()) {
                Map<String, List<String>> columns = new HashMap<>();
                for (String table : Schema.TABLES) {
                    columns.put(table, Schema.columns(connection, table));
                    String key = columns.get(table).get(0);
                    long read = reader.readAll(Schema.topic(table), r -> reconciliation.change(table, key,
                            TopicReader.json(r.value()), TopicReader.headers(r)));
                    log.accept("reconcile: read " + read + " records of " + Schema.topic(table));
                }
                long lost = 0;
                for (String table : Schema.TABLES) {
                    lost += reconciliation.differingRows(table, rows(connection, table, columns.get(table)));
                }
                long committed = count(connection, "SELECT count(*) FROM soak_tx WHERE kind <> 'final'");
                Set<String> committedGids = new HashSet<>();
                try (Statement statement = connection.createStatement();
                     ResultSet rows = statement.executeQuery("SELECT gid FROM soak_tx WHERE gid IS NOT NULL")) {
                    while (rows.next()) {
                        committedGids.add(rows.getString(1));
                    }
                }
                return new Figures(committed, lost, reconciliation.incompleteLifecycles(knownPrepared, committedGids, outcomeBounds),
                        reconciliation);
            }
        }
    }

    private boolean slotConfirmed(String lsn) throws SQLException {
        try (Connection connection = services.connect()) {
            return count(connection, "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '"
                    + SoakServices.SLOT + "' AND confirmed_flush_lsn >= '" + lsn + "'::pg_lsn") == 1;
        } catch (SQLException e) {
            return false;
        }
    }

    private static Map<String, Map<TopicPartition, Long>> ends(TopicReader reader) {
        Map<String, Map<TopicPartition, Long>> ends = new TreeMap<>();
        List<String> topics = new ArrayList<>(Schema.TABLES.stream().map(Schema::topic).toList());
        topics.add(Schema.transactionTopic());
        topics.forEach(t -> ends.put(t, reader.endOffsets(t)));
        return ends;
    }

    private static Map<Long, Map<String, String>> rows(Connection connection, String table, List<String> columns)
            throws SQLException {
        Map<Long, Map<String, String>> rows = new TreeMap<>();
        String select = "SELECT " + String.join(", ", columns.stream().map(c -> c + "::text").toList()) + " FROM "
                + table;
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(select)) {
            while (result.next()) {
                Map<String, String> row = new HashMap<>();
                for (int i = 0; i < columns.size(); i++) {
                    row.put(columns.get(i), result.getString(i + 1));
                }
                rows.put(Long.parseLong(row.get(columns.get(0))), row);
            }
        }
        return rows;
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}

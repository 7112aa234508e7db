package io.github.pgoutput.soak;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a consumer that follows the README's rules rebuilds from the topics, compared with the database. Feed it the
 * whole transaction topic first ({@link #lifecycle}), then each table topic in offset order ({@link #change}):
 * changes apply as they come, except PREPARED ones, which apply only when their GID's outcome is COMMITTED (a prepared
 * transaction holds its row locks until COMMIT PREPARED, so no other change to those rows can come in between).
 * Tombstones are ignored: the delete record before each one removes the row. Not thread-safe.
 */
final class Reconciliation {

    static final String OUTCOME = "pg.outcome";
    static final String GID = "pg.gid";
    static final String COMMIT_LSN = "pg.commit_lsn";
    static final String TX_ORDER = "pg.tx_order";
    static final String SNAPSHOT = "pg.snapshot";
    static final String LSN = "pg.lsn";
    private static final int EXAMPLES = 5;

    /** gid -> the transaction topic's outcomes for it, in offset order (PREPARED, COMMITTED, ROLLED_BACK). */
    private final Map<String, List<String>> lifecycles = new HashMap<>();
    private final Set<String> gidsOnTableTopics = new HashSet<>();
    private final Map<String, Map<Long, Map<String, String>>> tables = new HashMap<>();
    /** table -> commit LSN of a delivery -> highest tx_order seen: a record at or below it is a repeat. */
    private final Map<String, Map<String, Long>> deliveredOrders = new HashMap<>();
    private long records;
    private long duplicates;
    private long leaked;
    private long preparedChecked;
    private long endedBeforeSnapshot;
    /** Consistent points of the snapshots seen on the table topics (snapshot records carry theirs in pg.lsn). */
    private final Set<Long> snapshotPoints = new HashSet<>();
    /** The consistent point of the snapshot each table's rows were last read from. */
    private final Map<String, Long> tableSnapshotPoints = new HashMap<>();
    private final List<String> examples = new ArrayList<>();

    /** One record of the transaction topic (its value). */
    void lifecycle(JsonNode value) {
        JsonNode gid = value.get("gid");
        if (gid == null || gid.isNull()) {
            return;
        }
        String outcome = value.path("outcome").asText();
        lifecycles.computeIfAbsent(gid.asText(), g -> new ArrayList<>()).add(outcome);
    }

    /**
     * One record of {@code table}'s topic.
     *
     * @param key     the table's key column ({@code id}, or {@code tx} for the ledger)
     * @param value   the record's value; null for a tombstone
     * @param headers the record's headers as text
     */
    void change(String table, String key, JsonNode value, Map<String, String> headers) {
        if (value == null) {
            return;
        }
        records++;
        boolean snapshotRow = "true".equals(headers.get(SNAPSHOT));
        if (snapshotRow) {
            snapshotPoints.add(lsn(headers.get(LSN)));
        }
        String commitLsn = headers.get(COMMIT_LSN);
        long order = Long.parseLong(Objects.requireNonNullElse(headers.get(TX_ORDER), "-1"));
        Map<String, Long> orders = deliveredOrders.computeIfAbsent(table, t -> new HashMap<>());
        Long highest = orders.get(commitLsn);
        if (highest != null && order <= highest) {
            duplicates++;
        } else {
            orders.put(commitLsn, order);
        }
        String outcome = headers.getOrDefault(OUTCOME, "");
        String gid = headers.get(GID);
        boolean prepared = outcome.equals("PREPARED");
        if (prepared && gid != null) {
            gidsOnTableTopics.add(gid);
        }
        JsonNode after = value.get("after");
        String marker = after == null || after.isNull() ? null : after.path("marker").asText(null);
        if (Schema.DOOMED.equals(marker) || (Schema.PREPARED_ROLLBACK.equals(marker) && !prepared)) {
            leaked++;
            example("emitted but rolled back (" + outcome + "): " + table + " " + value);
        }
        if (prepared && !"COMMITTED".equals(terminalOutcome(gid))) {
            return;
        }
        Map<Long, Map<String, String>> rows = tables.computeIfAbsent(table, t -> new TreeMap<>());
        if (snapshotRow && !Long.valueOf(lsn(headers.get(LSN))).equals(tableSnapshotPoints.put(table, lsn(headers.get(LSN))))) {
            // A snapshot writes rows only (no truncate, as Debezium's): the first row of a new snapshot of the table
            // replaces what an earlier, interrupted one left, as a consumer does.
            rows.clear();
        }
        switch (value.path("op").asText()) {
            case "c", "u", "r" -> rows.put(after.get(key).asLong(), texts(after));
            case "d" -> rows.remove(value.get("before").get(key).asLong());
            case "t" -> rows.clear();
            default -> throw new IllegalStateException("unexpected op in a record of " + table + ": " + value);
        }
    }

    /**
     * Compares the rebuilt {@code table} with the database's rows (key -> column -> text, SQL NULL as null); returns
     * the rows that differ: missing, extra, or with another value in some column of the database.
     */
    long differingRows(String table, Map<Long, Map<String, String>> database) {
        Map<Long, Map<String, String>> rebuilt = tables.getOrDefault(table, Map.of());
        Set<Long> keys = new TreeSet<>(database.keySet());
        keys.addAll(rebuilt.keySet());
        long differing = 0;
        for (Long key : keys) {
            Map<String, String> expected = database.get(key);
            Map<String, String> actual = rebuilt.get(key);
            if (expected == null || actual == null) {
                differing++;
                example(table + " key " + key + ": database " + expected + ", topics " + actual);
                continue;
            }
            for (Map.Entry<String, String> column : expected.entrySet()) {
                if (!Objects.equals(column.getValue(), actual.get(column.getKey()))) {
                    differing++;
                    example(table + " key " + key + " column " + column.getKey() + ": database " + column.getValue()
                            + ", topics " + actual.get(column.getKey()));
                    break;
                }
            }
        }
        return differing;
    }

    /**
     * Prepared transactions whose lifecycle on the transaction topic is not PREPARED followed by exactly the outcome
     * the database has ({@code committedGids}: the GIDs whose ledger row is in the database).
     * <p>
     * One kind is not counted: a GID with no record at all on any topic whose outcome is known to lie before the
     * newest snapshot's consistent point. A snapshot taken again (its first run's records were not all committed
     * to Kafka when the task stopped) starts streaming at a later point, and a transaction that ended before it is
     * in the new snapshot's rows, like any other, never on the stream; the row comparison checks its result. Such
     * GIDs are counted in {@link #endedBeforeSnapshot()}. A GID that has a PREPARED record anywhere still needs its
     * outcome: a consumer staged it.
     *
     * @param knownPrepared GIDs whose PREPARE TRANSACTION succeeded, as the workload knows
     * @param outcomeBounds GID -> a WAL position at or past the end of its COMMIT/ROLLBACK PREPARED record
     */
    long incompleteLifecycles(Set<String> knownPrepared, Set<String> committedGids, Map<String, Long> outcomeBounds) {
        Set<String> gids = new TreeSet<>(knownPrepared);
        gids.addAll(gidsOnTableTopics);
        gids.addAll(lifecycles.keySet());
        preparedChecked = gids.size();
        OptionalLong newestSnapshotPoint = snapshotPoints.stream().mapToLong(Long::longValue).max();
        long incomplete = 0;
        for (String gid : gids) {
            List<String> outcomes = lifecycles.getOrDefault(gid, List.of());
            Long outcomeBound = outcomeBounds.get(gid);
            if (outcomes.isEmpty() && !gidsOnTableTopics.contains(gid) && outcomeBound != null
                    && newestSnapshotPoint.isPresent() && outcomeBound <= newestSnapshotPoint.getAsLong()) {
                endedBeforeSnapshot++;
                continue;
            }
            String expected = committedGids.contains(gid) ? "COMMITTED" : "ROLLED_BACK";
            int firstPrepared = outcomes.indexOf("PREPARED");
            Set<String> terminal = new TreeSet<>(outcomes);
            terminal.remove("PREPARED");
            int firstTerminal = terminal.isEmpty() ? -1 : outcomes.indexOf(terminal.iterator().next());
            if (firstPrepared < 0 || !terminal.equals(Set.of(expected)) || firstTerminal < firstPrepared) {
                incomplete++;
                example("prepared transaction " + gid + ": transaction topic says " + outcomes + ", database says "
                        + expected);
            }
        }
        return incomplete;
    }

    /** How many GIDs the last {@link #incompleteLifecycles} call checked. */
    long preparedChecked() {
        return preparedChecked;
    }

    /** GIDs the last {@link #incompleteLifecycles} call left out: ended before the newest snapshot's point. */
    long endedBeforeSnapshot() {
        return endedBeforeSnapshot;
    }

    /** Snapshots whose records are on the table topics (distinct consistent points); more than 1: taken again. */
    long snapshotsSeen() {
        return snapshotPoints.size();
    }

    /** PostgreSQL's {@code X/Y} text form of an LSN as a number. */
    static long lsn(String text) {
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("not an LSN: '" + text + "'");
        }
        return Long.parseLong(text, 0, slash, 16) << 32 | Long.parseLong(text, slash + 1, text.length(), 16);
    }

    long records() {
        return records;
    }

    long duplicates() {
        return duplicates;
    }

    long leaked() {
        return leaked;
    }

    List<String> examples() {
        return examples;
    }

    private String terminalOutcome(String gid) {
        for (String outcome : lifecycles.getOrDefault(gid, List.of())) {
            if (!outcome.equals("PREPARED")) {
                return outcome;
            }
        }
        return null;
    }

    private static Map<String, String> texts(JsonNode after) {
        Map<String, String> values = new HashMap<>();
        for (Map.Entry<String, JsonNode> field : after.properties()) {
            values.put(field.getKey(), field.getValue().isNull() ? null : field.getValue().asText());
        }
        return values;
    }

    private void example(String text) {
        if (examples.size() < EXAMPLES * 4) {
            examples.add(text);
        }
    }
}

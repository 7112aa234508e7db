package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.SnapshotException.Reason;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * Reads the captured tables as of an exported snapshot, in parallel, into one bounded stream of rows.
 *
 * <p>Each of up to {@code snapshot.max.threads} reader threads has its own connection, which imports the snapshot
 * ({@code BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT}) before {@link #start} returns;
 * the exporting replication connection may be closed after that. The work is a list of parts: a table, or with more
 * than one thread a plain table of at least two {@link BlockRanges} worth of blocks is split into up to
 * {@code snapshot.max.threads} block ranges, so that one big table is read by every thread at once. The threads take
 * the parts in the order given and read each with {@code COPY ... TO STDOUT} in text format, one row at a time, into a
 * queue that holds {@link SnapshotSettings#bufferedRows()} rows (in batches of up to 256, plus the batch each reader is
 * filling); when the consumer does not keep up, the readers wait. Memory therefore does not depend on table size. Rows
 * of parts read at the same time interleave; each part's rows come in the order COPY returns them.
 *
 * <p>A resumable snapshot ({@link #startInKeyOrder}) reads each table in the order of its {@link TableOrder} instead
 * (its unique key, or for a table without one the hashes of its rows), one table after another: a table of at least
 * two {@link BlockRanges} worth of blocks is split into up to {@code snapshot.max.threads} {@link KeyRanges} read at
 * once, each in that order, and no part of the next table is begun before every part of this one is queued.
 * {@link #position()} then says, after each row handed out, which rows are still to read. Rows with equal keys (the
 * identical rows of a table without a unique key) are a group: the readers queue a group in one batch, the position
 * moves past its key only after its last row, and {@link #groupContinues()} tells the consumer to take the rest of it
 * before it commits, so that a stored position never falls inside a group.
 *
 * <p>Thread-safety: {@link #next} from one consumer thread; {@link #progress()} and {@link #close()} from any.
 */
public final class SnapshotReader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotReader.class);
    private static final Pattern SNAPSHOT_NAME = Pattern.compile("[0-9A-Fa-f-]+");
    /** Placed on the queue by the last reader to finish, after its last row. */
    private static final Object END = new Object();
    /** Rows go through the queue in batches: a hand-over per row between threads was the reader's largest cost (best
     * of 3 in bench/snapshot-benchmark.sh rose from 422k to 486k rows/s with batches). */
    private static final int MAX_BATCH_ROWS = 256;

    private final List<SnapshotTable> tables;
    /** What the threads read, in order: whole tables, or block ranges of one. */
    private final List<Part> parts;
    /** Per table, by index: how its parts are getting on. */
    private final List<TableParts> tableParts;
    /** The rows continue a snapshot begun earlier: none is the snapshot's first. */
    private final boolean continuation;
    /**
     * In key order: the first table's index in the snapshot's table list, and per table read its order and key ranges;
     * else null.
     */
    private final ResumableProgress.Position from;
    private final List<TableOrder> orders;
    private final List<List<ResumableProgress.KeyRange>> keyRanges;
    /** Consumer side, in key order: the rows still to read after the last row handed out. */
    private ResumableProgress.Position position;
    private List<ResumableProgress.KeyRange> positionRanges;
    private int positionTable = -1;
    private final SnapshotProgress progress;
    private final SnapshotSettings settings;
    private final BlockingQueue<Object> queue;
    private final int batchRows;
    private final AtomicInteger nextPart = new AtomicInteger();
    private final AtomicInteger runningReaders;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();
    private final List<Connection> connections;
    /** The first reader transaction's id, or null on a standby: every snapshot row's {@code source.txId}. */
    private final Long transactionId;
    /** Consumer side: the groups of rows to hand out, the rows handed out so far, the last one's place in its group. */
    private final GroupedHandOut handOut = new GroupedHandOut();
    private long handedOut;
    private int rowInGroup;
    /** Consumer side: the tables a row was handed out of, so the next row of any other is its table's first. */
    private final Set<TableName> startedTables = new HashSet<>();

    /**
     * One COPY of the work: table {@code table} (by index), whole or a block range of it, or in key order the key range
     * {@code range} of the table's {@link #keyRanges}.
     */
    private record Part(int table, String copyCommand, int range) {
        Part(int table, String copyCommand) {
            this(table, copyCommand, 0);
        }
    }

    /**
     * Rows of one part, as they go through the queue, whole groups only.
     *
     * @param keys in key order each row's key, else null
     */
    private record Batch(int part, List<SnapshotRow> rows, List<List<String>> keys) {
    }

    private SnapshotReader(List<SnapshotTable> tables, List<Part> parts, SnapshotSettings settings, List<Connection> connections,
                           Long transactionId, boolean continuation, boolean firstTableContinues,
                           ResumableProgress.Position from, List<TableOrder> orders, List<List<ResumableProgress.KeyRange>> keyRanges) {
        this.transactionId = transactionId;
        this.from = from;
        this.orders = orders;
        this.keyRanges = keyRanges;
        this.position = from;
        this.tables = tables;
        this.parts = List.copyOf(parts);
        this.tableParts = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            int table = i;
            tableParts.add(new TableParts((int) parts.stream().filter(p -> p.table() == table).count()));
        }
        this.continuation = continuation;
        // The first table is read after a key: its first row read is not its first.
        if (firstTableContinues && !tables.isEmpty()) {
            startedTables.add(tables.get(0).name());
        }
        this.settings = settings;
        this.connections = connections;
        this.progress = new SnapshotProgress(tables);
        this.batchRows = Math.min(MAX_BATCH_ROWS, settings.bufferedRows());
        this.queue = new ArrayBlockingQueue<>(Math.max(1, settings.bufferedRows() / batchRows));
        this.runningReaders = new AtomicInteger(connections.size());
    }

    /**
     * Imports the snapshot on every reader connection, describes the tables and checks the SELECT privilege on each,
     * then starts reading. Returns once the snapshot is imported everywhere: close the {@link ExportedSnapshot} then.
     *
     * @param capturedTables the tables the connector captures (e.g. {@link SnapshotTables#published}); those that
     *                       {@link SnapshotSettings#includes} are read, in this order ({@link InitialSnapshot} passes
     *                       {@link SnapshotTables#inCaptureOrder}, Debezium's)
     * @param user           the role's name, for the privilege message
     * @throws SnapshotException {@link Reason#SNAPSHOT_NOT_IMPORTABLE} when the snapshot is gone,
     *                           {@link Reason#PRIVILEGE} naming the tables the role may not SELECT from, or
     *                           {@link Reason#READ_FAILED} for other database failures. No row was produced then.
     */
    public static SnapshotReader start(ConnectionSource connectionSource, String snapshotName, List<TableName> capturedTables, String user,
                                       SnapshotSettings settings) {
        return start(connectionSource, snapshotName, capturedTables, user, settings, null);
    }

    /**
     * Like {@link #start(ConnectionSource, String, List, String, SnapshotSettings)}, for a resumable snapshot: the rows
     * {@code from} names as still to read, of {@code tables} (the snapshot's whole table list, already selected and in
     * order), one table after another, each in the order of its {@link TableKey}. The first table is read in the ranges
     * {@code from} gives; every later one, when it is big enough and {@code snapshot.max.threads} is more than 1, in
     * {@link KeyRanges} read at once. With {@code continuation} the rows continue a snapshot begun earlier, so none is
     * marked the snapshot's first, and the first table's first row is not marked first in its table when some of its
     * rows were read before.
     *
     * @throws SnapshotException also {@link Reason#NOT_RESUMABLE} when {@code from} is inside a table whose order is no
     *                           longer the one it was read in (a key added or dropped, or the columns of a table read
     *                           in row-hash order changed)
     */
    public static SnapshotReader startInKeyOrder(ConnectionSource connectionSource, String snapshotName, List<TableName> tables, String user,
                                                 SnapshotSettings settings, ResumableProgress.Position from, boolean continuation) {
        if (from.table() >= tables.size()) {
            throw new IllegalArgumentException("position " + ResumableProgress.encode(from) + " names table index " + from.table()
                    + ", but the snapshot has " + tables.size() + " tables");
        }
        return start(connectionSource, snapshotName, tables, user, settings, new KeyOrder(from, continuation));
    }

    /** How a resumable snapshot reads: in key order, the rows still to read, the rows continuing an earlier part. */
    private record KeyOrder(ResumableProgress.Position from, boolean continuation) {
    }

    private static SnapshotReader start(ConnectionSource connectionSource, String snapshotName, List<TableName> capturedTables, String user,
                                        SnapshotSettings settings, KeyOrder keyOrder) {
        Objects.requireNonNull(connectionSource, "connectionSource");
        if (snapshotName == null || !SNAPSHOT_NAME.matcher(snapshotName).matches()) {
            throw new IllegalArgumentException("not an exported snapshot name: " + snapshotName);
        }
        List<TableName> selected = keyOrder != null ? List.copyOf(capturedTables.subList(keyOrder.from().table(), capturedTables.size()))
                : capturedTables.stream().filter(settings::includes).distinct().toList();
        List<List<ResumableProgress.KeyRange>> keyRanges = keyOrder == null ? null : new ArrayList<>();
        List<TableOrder> orders = keyOrder == null ? null : new ArrayList<>();
        List<Connection> connections = new ArrayList<>();
        try {
            Connection first = connectionSource.open();
            connections.add(first);
            importSnapshot(first, snapshotName);
            SnapshotTables.requireSelectPrivilege(first, selected, user);
            lockTables(first, selected);
            List<SnapshotTable> described = new ArrayList<>();
            List<Part> parts = new ArrayList<>();
            for (TableName t : selected) {
                SnapshotTable table = SnapshotTables.describe(first, t, settings.publication());
                int index = described.size();
                described.add(table);
                if (keyOrder != null) {
                    TableOrder order = TableOrder.of(first, table);
                    orders.add(order);
                    boolean continues = index == 0 && !keyOrder.from().atTableStart();
                    if (continues) {
                        TableOrder.requireSame(t, keyOrder.from(), order);
                    }
                    // The first table continues in the ranges it was being read in, unless none of its rows was read.
                    List<ResumableProgress.KeyRange> ranges = continues ? keyOrder.from().rest()
                            : keyRanges(first, table, order, settings.maxThreads());
                    keyRanges.add(ranges);
                    for (int r = 0; r < ranges.size(); r++) {
                        parts.add(new Part(index, order.orderedCopy(table, ranges.get(r)), r));
                    }
                    if (order instanceof RowHashOrder) {
                        LOG.info("Snapshot {}: {} has no unique key: it is read in the order of its rows' hashes ({}), its identical"
                                + " rows handed out together", snapshotName, t, order.rowOrder());
                    }
                    if (ranges.size() > 1) {
                        LOG.info("Snapshot {}: {} is read in {} key ranges at once", snapshotName, t, ranges.size());
                    }
                    continue;
                }
                List<String> ranges = table.partitioned() || settings.maxThreads() == 1 ? List.of()
                        : BlockRanges.conditions(blocks(first, t), settings.maxThreads());
                if (ranges.isEmpty()) {
                    parts.add(new Part(index, table.copyCommand()));
                } else {
                    ranges.forEach(range -> parts.add(new Part(index, table.copyCommand(range))));
                    LOG.info("Snapshot {}: {} is read in {} block ranges at once", snapshotName, t, ranges.size());
                }
            }
            int threadCount = Math.max(1, Math.min(settings.maxThreads(), parts.size()));
            while (connections.size() < threadCount) {
                Connection c = connectionSource.open();
                connections.add(c);
                importSnapshot(c, snapshotName);
                lockTables(c, selected);
            }
            SnapshotReader reader = new SnapshotReader(List.copyOf(described), parts, settings, connections,
                    transactionId(first), keyOrder != null && keyOrder.continuation(),
                    keyOrder != null && !keyOrder.from().atTableStart(), keyOrder == null ? null : keyOrder.from(), orders, keyRanges);
            LOG.info("Snapshot {}: reading {} table(s) in {} part(s) with {} thread(s){}: {}", snapshotName, selected.size(),
                    parts.size(), threadCount, keyOrder == null ? "" : " in key order, one table after another"
                            + (keyOrder.from().atTableStart() ? "" : ", the first in the ranges still to read "
                            + ResumableProgress.encode(keyOrder.from())), selected);
            reader.startThreads(snapshotName);
            return reader;
        } catch (SQLException e) {
            closeAll(connections);
            throw new SnapshotException(Reason.READ_FAILED, "preparing the snapshot read failed: " + e.getMessage()
                    + " [SQLState " + e.getSQLState() + "]", e);
        } catch (RuntimeException e) {
            closeAll(connections);
            throw e;
        }
    }

    /**
     * The id of the reader transaction on {@code c}, as Debezium reports its snapshot transaction's: assigned here
     * (pg_current_xact_id() gives even a READ ONLY transaction an id), so it is a real xid of the snapshot. Null on a
     * standby, where no id can be assigned.
     */
    private static Long transactionId(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_current_xact_id()::text END")) {
            String id = rs.next() ? rs.getString(1) : null;
            return id == null ? null : Long.valueOf(id);
        }
    }

    /**
     * The key ranges a resumable snapshot reads {@code table} in: one, or for a plain table of at least two
     * {@link BlockRanges} worth of blocks read by more than one reader, up to {@code readers} ranges split at sampled
     * keys ({@link KeyRanges}). The sample is read in the snapshot, but any split points would do: the ranges always
     * cover every key.
     */
    private static List<ResumableProgress.KeyRange> keyRanges(Connection c, SnapshotTable table, TableOrder order, int readers)
            throws SQLException {
        List<ResumableProgress.KeyRange> whole = List.of(ResumableProgress.KeyRange.ALL);
        if (readers == 1 || table.partitioned()) {
            return whole;
        }
        long blocks = blocks(c, table.name());
        int count = KeyRanges.count(blocks, readers);
        if (count == 1) {
            return whole;
        }
        List<List<String>> sample = new ArrayList<>();
        CopyText parser = new CopyText();
        CopyOut copy = c.unwrap(PGConnection.class).getCopyAPI().copyOut(order.sampledKeysCopy(table, KeyRanges.samplePercent(blocks)));
        int width = order.keyWidth();
        try {
            byte[] line;
            while ((line = copy.readFromCopy()) != null) {
                sample.add(List.copyOf(parser.parse(line, width)));
            }
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
        return KeyRanges.split(ResumableProgress.KeyRange.ALL, sample, count);
    }

    /** The table's size in blocks now: not part of the snapshot, but every row it sees lies in those blocks. */
    private static long blocks(Connection c, TableName table) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT pg_relation_size(?::regclass) / current_setting('block_size')::bigint")) {
            st.setString(1, table.quoted());
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The snapshot transaction's id (of the first reader, as Debezium has one): {@code source.txId}; null on a standby. */
    public Long transactionId() {
        return transactionId;
    }

    private static void importSnapshot(Connection c, String snapshotName) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
            try {
                st.execute("SET TRANSACTION SNAPSHOT '" + snapshotName + "'");
                // A table's COPY may run for hours, and a reader waits idle in its transaction while the consumer is
                // slow: server-side limits meant for interactive sessions must not end the snapshot.
                st.execute("SET LOCAL statement_timeout = 0");
                st.execute("SET LOCAL idle_in_transaction_session_timeout = 0");
                // The lower bound of a resumed read is written as literals: a backslash in a key stays a backslash.
                st.execute("SET LOCAL standard_conforming_strings = on");
            } catch (SQLException e) {
                throw new SnapshotException(Reason.SNAPSHOT_NOT_IMPORTABLE, "the exported snapshot '" + snapshotName + "' cannot be imported: "
                        + e.getMessage() + " [SQLState " + e.getSQLState() + "]. An exported snapshot lives only while the replication"
                        + " connection that created it stays open and idle; it was closed (or ran another command) before every reader"
                        + " imported it. Take a new snapshot: drop the slot and create it again with a new exported snapshot", e);
            }
        }
    }

    /**
     * Every reader holds ACCESS SHARE on every table until it ends, so no table can be dropped or altered before the
     * last reader that might still read it is done (the columns were described as of the snapshot, and COPY names them).
     */
    private static void lockTables(Connection c, List<TableName> tables) throws SQLException {
        if (tables.isEmpty()) {
            return;
        }
        try (Statement st = c.createStatement()) {
            st.execute("LOCK TABLE " + String.join(", ", tables.stream().map(TableName::quoted).toList()) + " IN ACCESS SHARE MODE");
        }
    }

    private void startThreads(String snapshotName) {
        for (int i = 0; i < connections.size(); i++) {
            Connection c = connections.get(i);
            Thread t = new Thread(() -> runReader(c), "snapshot-reader-" + (i + 1) + "-" + snapshotName);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    private void runReader(Connection connection) {
        CopyText parser = new CopyText();
        try {
            int index;
            while (!closed.get() && (index = nextPart.getAndIncrement()) < parts.size()) {
                Part part = parts.get(index);
                if (keyRanges != null && part.table() > 0 && !awaitTableDone(part.table() - 1)) {
                    return;
                }
                readPart(connection, index, part, parser);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            fail(new SnapshotException(Reason.READ_FAILED, "reading the snapshot failed: " + e.getMessage() + " [SQLState "
                    + e.getSQLState() + "]", e));
        } catch (RuntimeException e) {
            fail(e instanceof SnapshotException ? e : new SnapshotException(Reason.READ_FAILED, "reading the snapshot failed: " + e, e));
        } finally {
            closeQuietly(connection);
            if (runningReaders.decrementAndGet() == 0 && failure.get() == null) {
                try {
                    put(END);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * In key order, waits until every part of table {@code table} is queued: {@link #position()} has one table in
     * progress. False when the reader was closed or failed meanwhile.
     */
    private boolean awaitTableDone(int table) throws InterruptedException {
        TableParts previous = tableParts.get(table);
        synchronized (previous) {
            while (!previous.done()) {
                if (closed.get() || failure.get() != null) {
                    return false;
                }
                previous.wait(100);
            }
        }
        return true;
    }

    private void readPart(Connection connection, int partIndex, Part part, CopyText parser) throws SQLException, InterruptedException {
        int index = part.table();
        SnapshotTable table = tables.get(index);
        TableOrder order = orders == null ? null : orders.get(index);
        int width = table.columns().size() + (order == null ? 0 : order.extraColumns());
        SnapshotProgress.Counter counter = progress.counter(index);
        if (counter.begin(System.nanoTime())) {
            LOG.info("Snapshot of {} started ({} rows estimated, {} columns)", table.name(),
                    table.estimatedRows() < 0 ? "no" : "~" + table.estimatedRows(), table.columns().size());
        }
        long nextLog = System.nanoTime() + settings.progressInterval().toNanos();
        CopyOut copy = connection.unwrap(PGConnection.class).getCopyAPI().copyOut(part.copyCommand());
        // The current group (rows with equal keys in key order, else one row) goes into a batch only whole, once a row
        // of another group follows; the part's last group is held for the table's end (TableParts).
        List<SnapshotRow> group = new ArrayList<>();
        List<String> groupKey = null;
        List<SnapshotRow> rows = new ArrayList<>(batchRows);
        List<List<String>> keys = order == null ? null : new ArrayList<>(batchRows);
        try {
            byte[] line;
            while ((line = copy.readFromCopy()) != null) {
                if (closed.get()) {
                    return;
                }
                SnapshotRow row;
                List<String> key;
                try {
                    List<String> values = parser.parse(line, width);
                    key = order == null ? null : order.takeKey(values);
                    row = new SnapshotRow(table, values, false, false, SnapshotRow.Marker.TRUE);
                } catch (IllegalArgumentException e) {
                    throw new SnapshotException(Reason.READ_FAILED, "table " + table.name() + ": " + e.getMessage(), e);
                }
                if (!group.isEmpty() && (key == null || !key.equals(groupKey))) {
                    for (SnapshotRow grouped : group) {
                        rows.add(grouped);
                        if (keys != null) {
                            keys.add(groupKey);
                        }
                    }
                    group.clear();
                    if (rows.size() >= batchRows) {
                        put(new Batch(partIndex, rows, keys));
                        rows = new ArrayList<>(batchRows);
                        keys = order == null ? null : new ArrayList<>(batchRows);
                    }
                }
                if (group.size() == settings.maxGroupRows()) {
                    group.clear();
                    throw RowHashOrder.tooManyIdenticalRows(table.name(), order, settings.maxGroupRows(),
                            settings.maxGroupRows() + 1 + restOfGroup(copy, parser, width, order, key));
                }
                group.add(row);
                groupKey = key;
                long done = counter.rows.incrementAndGet();
                if ((done & 1023) == 0 && System.nanoTime() >= nextLog) {
                    LOG.info("Snapshot of {}", counter.status(System.nanoTime()).describe());
                    nextLog = System.nanoTime() + settings.progressInterval().toNanos();
                }
            }
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
        TableParts ending = tableParts.get(index);
        // Under the table's lock, so that the row marked last is queued after every other row of the table: the
        // other parts queued all theirs before they took the lock to end.
        synchronized (ending) {
            if (!rows.isEmpty()) {
                put(new Batch(partIndex, rows, keys));
            }
            for (TableParts.PartRows held : ending.partEnded(group.isEmpty() ? null : new TableParts.PartRows(partIndex, group, groupKey))) {
                put(new Batch(held.part(), held.rows(), order == null ? null : Collections.nCopies(held.rows().size(), held.key())));
            }
            if (ending.done()) {
                counter.endNanos = System.nanoTime();
                LOG.info("Snapshot of {} finished: {}", table.name(), counter.status(counter.endNanos).describe());
                ending.notifyAll();
            }
        }
    }

    /**
     * Counts, without keeping them, the rows of {@code copy} that still have the key {@code key}: the size of a group too
     * large to hand out, for the message that refuses it.
     */
    private int restOfGroup(CopyOut copy, CopyText parser, int width, TableOrder order, List<String> key) throws SQLException {
        int rows = 0;
        byte[] line;
        while (!closed.get() && (line = copy.readFromCopy()) != null && order.takeKey(parser.parse(line, width)).equals(key)) {
            rows++;
        }
        return rows;
    }

    /** Waits for room in the queue, giving up when the reader is closed or failed. */
    private void put(Object item) throws InterruptedException {
        while (!closed.get() && failure.get() == null) {
            if (queue.offer(item, 100, TimeUnit.MILLISECONDS)) {
                return;
            }
        }
    }

    private void fail(RuntimeException e) {
        if (failure.compareAndSet(null, e)) {
            LOG.error("Snapshot failed: {}", e.getMessage());
        }
    }

    /**
     * Returns the next row, waiting at most {@code maxWait} for one; null when none is ready yet or the snapshot is
     * {@linkplain #finished() finished}. The row's {@link SnapshotRow#marker()} is {@code LAST} only on the very last
     * row, which is therefore handed out only once every table is read. While {@link #groupContinues()}, the next row
     * is returned at once.
     *
     * @throws SnapshotException when a reader failed; the reader is unusable then (close it)
     */
    public SnapshotRow next(Duration maxWait) throws InterruptedException {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (!handOut.finished()) {
            GroupedHandOut.Item item = handOut.next();
            if (item != null) {
                return handOut(item);
            }
            RuntimeException failed = failure.get();
            if (failed != null) {
                throw failed;
            }
            if (closed.get()) {
                throw new IllegalStateException("the snapshot reader is closed");
            }
            long left = deadline - System.nanoTime();
            Object queued = queue.poll(Math.max(0, Math.min(left, TimeUnit.MILLISECONDS.toNanos(100))), TimeUnit.NANOSECONDS);
            if (queued == null) {
                if (left <= 0) {
                    return null;
                }
                continue;
            }
            if (queued == END) {
                handOut.end();
            } else {
                Batch rows = (Batch) queued;
                handOut.batch(rows.part(), rows.rows(), rows.keys());
            }
        }
        return null;
    }

    /**
     * Whether the row {@link #next} returned last is followed by more rows of its group (identical rows of a table
     * without a unique key), which {@link #next} returns without waiting: a caller that commits what it has must
     * take them first, or the stored position, which moves past a group only after its last row, would say that the
     * rows of it already in Kafka are still to read.
     */
    public boolean groupContinues() {
        return handOut.groupContinues();
    }

    /**
     * The place of the row {@link #next} returned last among the rows of its group, from 1: above 1 only for a copy of
     * an identical row of a table without a unique key. Such copies share their {@link #position()} (it moves past a
     * group after its last row), so a caller that stores it with each row must tell them apart by this.
     */
    public int rowInGroup() {
        return rowInGroup;
    }

    private SnapshotRow handOut(GroupedHandOut.Item item) {
        SnapshotRow row = item.row();
        SnapshotRow.Marker marker = item.last() ? SnapshotRow.Marker.LAST
                : handedOut == 0 && !continuation ? SnapshotRow.Marker.FIRST : SnapshotRow.Marker.TRUE;
        handedOut++;
        rowInGroup = item.rowInGroup();
        if (keyRanges != null && item.endsGroup()) {
            advancePosition(parts.get(item.part()), item.key());
        }
        // Marked here, not by the readers: with a table's block ranges read at once, the row a reader reads first is
        // not necessarily the first to reach the queue.
        return row.withMarkers(startedTables.add(row.table().name()), marker);
    }

    /** In key order: the last row of a group with key {@code key}, of {@code part}, was handed out, so its range continues after it. */
    private void advancePosition(Part part, List<String> key) {
        if (part.table() != positionTable) {
            positionTable = part.table();
            positionRanges = new ArrayList<>(keyRanges.get(part.table()));
        }
        positionRanges.set(part.range(), positionRanges.get(part.range()).after(key));
        position = new ResumableProgress.Position(from.table() + part.table(), positionRanges, orders.get(part.table()).rowOrder());
    }

    /**
     * For a reader {@linkplain #startInKeyOrder started in key order}: the rows still to read after the last row
     * {@link #next} handed out (table indexes in the snapshot's whole table list), or the position it started from
     * before the first.
     *
     * @throws IllegalStateException for a reader not started in key order
     */
    public ResumableProgress.Position position() {
        if (keyRanges == null) {
            throw new IllegalStateException("only a snapshot read in key order has a position");
        }
        return position;
    }

    /** True once every row was handed out by {@link #next}. */
    public boolean finished() {
        return handOut.finished();
    }

    /** The tables being read, in reading order. */
    public List<SnapshotTable> tables() {
        return tables;
    }

    public SnapshotProgress progress() {
        return progress;
    }

    /** Stops the readers and closes their connections (ending their transactions). Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (Thread t : threads) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        closeAll(connections);
        queue.clear();
    }

    private static void closeAll(List<Connection> connections) {
        connections.forEach(SnapshotReader::closeQuietly);
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.debug("closing a snapshot connection failed: {}", e.getMessage());
        }
    }
}

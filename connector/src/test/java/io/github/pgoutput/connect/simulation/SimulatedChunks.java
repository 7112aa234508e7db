package io.github.pgoutput.connect.simulation;

import io.github.pgoutput.connect.config.ConnectorSettings;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;

import io.github.pgoutput.connect.simulation.SimulationHistory.Item;
import io.github.pgoutput.connect.simulation.SimulationHistory.Table;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ChunkReader.Chunk;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.SnapshotTable;
import io.github.pgoutput.snapshot.TableKey;
import io.github.pgoutput.snapshot.TransactionSnapshot;
import io.github.pgoutput.snapshot.IncrementalSnapshot;

/**
 * The database side of one task's incremental snapshots, as {@code ChunkReader} behind {@code PrefetchedChunks} serves
 * it in production: the captured tables (published and in table.include.list, in its order), and chunks of the next
 * rows in key order from the {@link SimulatedDatabase} as of the moment of the read, with that moment's
 * {@code pg_current_snapshot()}. Only the database is modelled; when a chunk may be placed, and when it is read again,
 * is the connector's own code.
 *
 * <p>A prefetch (the hint for the next chunk) is read at once, as {@code PrefetchedChunks} starts it in the background,
 * and handed out when the task asks for that chunk, however much later: the stale-chunk case the task's visibility
 * check must catch. A failure of the prefetched read is reported then. Any other call drops the prefetch. Not
 * thread-safe.
 */
final class SimulatedChunks implements IncrementalSnapshot.Chunks {

    /** What a prefetched chunk was read for. */
    private record Request(TableName table, List<String> after, int size, String condition) {
    }

    private final SimulatedPostgres server;
    private final PgOutputSourceConnectorConfig config;
    private Request prefetched;
    private Chunk prefetchedChunk;
    private SQLException prefetchFailure;

    SimulatedChunks(SimulatedPostgres server, PgOutputSourceConnectorConfig config) {
        this.server = server;
        this.config = config;
    }

    @Override
    public List<TableName> capturedTables() throws SQLException {
        prefetched = null;
        server.chunkOperation("listing the captured tables");
        List<TableName> captured = new ArrayList<>();
        for (Table table : SimulatedDatabase.TABLES) {
            if (table.published && ConnectorSettings.captured(config, "public", table.sqlName())) {
                captured.add(name(table));
            }
        }
        return captured;
    }

    @Override
    public Chunk read(TableName table, List<String> after, int size, String condition) throws SQLException {
        Request request = new Request(table, List.copyOf(after), size, condition);
        if (request.equals(prefetched)) {
            prefetched = null;
            server.stats().count("snapshot chunks prefetched");
            if (prefetchFailure != null) {
                throw prefetchFailure;
            }
            return prefetchedChunk;
        }
        prefetched = null;
        return readNow(request);
    }

    @Override
    public void prefetch(TableName table, List<String> after, int size, String condition) {
        Request request = new Request(table, List.copyOf(after), size, condition);
        prefetchFailure = null;
        prefetchedChunk = null;
        try {
            prefetchedChunk = readNow(request);
        } catch (SQLException e) {
            prefetchFailure = e;
        }
        prefetched = request;
    }

    private Chunk readNow(Request request) throws SQLException {
        server.chunkOperation("reading a chunk of " + request.table());
        Table table = table(request.table());
        IntPredicate filter = request.condition() == null ? id -> true : SimulatedSignal.condition(request.condition());
        if (filter == null) {
            throw new SQLException("simulated: syntax error in the condition " + request.condition(), "42601");
        }
        SimulatedDatabase database = server.database();
        int p = server.readPoint();
        Item lagging = server.laggingCommit(p);
        List<RelationColumn> columns = SimulatedRows.columns(table, database.version(table, p));
        SnapshotTable described = new SnapshotTable(request.table(), table.oid, columns, -1, false, null);
        TableKey key = new TableKey(request.table(), List.of(new TableKey.Column("id", 0, "integer", null)));
        TreeMap<Integer, Map<String, String>> all = database.rows(table, p, lagging);
        Map<Integer, Map<String, String>> after = request.after().isEmpty() ? all : all.tailMap(Integer.parseInt(request.after().get(0)), false);
        List<SnapshotRow> rows = new ArrayList<>();
        for (Map.Entry<Integer, Map<String, String>> row : after.entrySet()) {
            if (rows.size() == request.size()) {
                break;
            }
            if (!filter.test(row.getKey())) {
                continue;
            }
            List<String> values = new ArrayList<>();
            for (RelationColumn column : columns) {
                values.add(row.getValue().get(column.name()));
            }
            rows.add(new SnapshotRow(described, values, false, false, SnapshotRow.Marker.INCREMENTAL));
        }
        TransactionSnapshot visibility = database.visibility(p, lagging);
        if (SimulatedConnect.TRACE) {
            System.out.println("TRACE chunk of " + table.sqlName() + " after " + request.after() + " read after WAL record " + p
                    + (lagging == null ? "" : ", not seeing tx " + lagging.id() + " yet") + ": " + rows.size() + " rows, " + visibility);
        }
        server.stats().count("snapshot chunks read");
        if (lagging != null) {
            server.stats().count("snapshot chunks read while a commit was not yet visible");
        }
        server.stats().add("snapshot rows read", rows.size());
        return new Chunk(described, key, rows, visibility, rows.size() < request.size());
    }

    private static Table table(TableName name) throws SQLException {
        for (Table table : SimulatedDatabase.TABLES) {
            if (name.equals(name(table))) {
                return table;
            }
        }
        throw new SQLException("simulated: relation \"" + name + "\" does not exist", "42P01");
    }

    static TableName name(Table table) {
        return new TableName("public", table.sqlName());
    }

    @Override
    public void close() {
        prefetched = null;
    }
}

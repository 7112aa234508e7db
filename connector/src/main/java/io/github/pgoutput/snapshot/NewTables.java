package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.TableName;
import java.sql.SQLException;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * {@code snapshot.new.tables=incremental}: which captured tables are new. The tables captured when a record is
 * emitted travel in its offset (the connector's source offsets keep {@link #knownText()}); the captured tables are listed again
 * every interval, and one the list did not hold is new. Without a list in the offsets (the first run with the
 * setting) the tables of the first listing are the known ones: the initial snapshot, or the stream since, has them.
 * Not thread-safe: the task's poll thread.
 */
public final class NewTables {

    /** Lists the captured tables; {@link IncrementalSnapshot.Chunks#capturedTables} in production. */
    @FunctionalInterface
    interface Listing {
        List<TableName> captured() throws SQLException;
    }

    private final long intervalNanos;
    private final LongSupplier nanos;
    private long nextCheck;
    private List<TableName> known;
    private String knownText;
    private List<TableName> handedKnown;
    private String handedKnownText;

    /**
     * @param intervalNanos how often the tables are listed (the first time at once)
     * @param storedText    the known tables as the stored offset has them ({@link #knownText()}), or null
     */
    NewTables(long intervalNanos, LongSupplier nanos, String storedText) {
        this.intervalNanos = intervalNanos;
        this.nanos = nanos;
        this.nextCheck = nanos.getAsLong();
        if (storedText != null) {
            known = List.copyOf(IncrementalSnapshotState.decodeTables(storedText));
            knownText = storedText;
        }
        handedKnown = known;
        handedKnownText = knownText;
    }

    /**
     * The captured tables not known before, when a listing is due (empty otherwise, and at the first listing without a
     * stored list); the listed tables are the known ones from then on.
     */
    List<TableName> added(Listing listing) throws SQLException {
        if (nanos.getAsLong() - nextCheck < 0) {
            return List.of();
        }
        nextCheck = nanos.getAsLong() + intervalNanos;
        List<TableName> captured = listing.captured();
        List<TableName> added = known == null ? List.of() : captured.stream().filter(t -> !known.contains(t)).toList();
        if (known == null || !known.equals(captured)) {
            known = List.copyOf(captured);
            knownText = IncrementalSnapshotState.encodeTables(captured);
        }
        return added;
    }

    /** Whether the tables are known yet (a first listing without a stored list makes them so). */
    boolean knowsTables() {
        return known != null;
    }

    /** The known tables as their offset text; null before they are known. */
    String knownText() {
        return knownText;
    }

    /** The records built so far were handed to Connect. */
    void handedOver() {
        handedKnown = known;
        handedKnownText = knownText;
    }

    /** The records built since the last hand-over are lost: back to what the handed ones say, and list again. */
    void abandoned() {
        known = handedKnown;
        knownText = handedKnownText;
        nextCheck = nanos.getAsLong();
    }
}

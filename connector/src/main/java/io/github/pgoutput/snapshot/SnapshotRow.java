package io.github.pgoutput.snapshot;

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One row of the snapshot. Immutable.
 *
 * @param table        the table and its columns ({@code values.get(i)} belongs to {@code table.columns().get(i)})
 * @param values       each column in the type's text output form, exactly as pgoutput sends it in text mode;
 *                     {@code null} for SQL NULL
 * @param firstInTable the first row read from its table
 * @param lastInTable  the last row read from its table
 * @param marker       Debezium's {@code source.snapshot} value for this row
 */
public record SnapshotRow(SnapshotTable table, List<String> values, boolean firstInTable, boolean lastInTable, Marker marker) {

    /**
     * {@code source.snapshot}: the first row of the whole snapshot, the last, or any other; or a row of an incremental
     * snapshot's chunk.
     */
    public enum Marker {
        FIRST("first"), TRUE("true"), LAST("last"), INCREMENTAL("incremental");

        private final String value;

        Marker(String value) {
            this.value = value;
        }

        /** The value for Debezium's {@code source.snapshot} field. */
        public String sourceValue() {
            return value;
        }
    }

    public SnapshotRow {
        Objects.requireNonNull(table, "table");
        // The list comes from the reader, which may hold nulls; it is never changed afterwards.
        values = Collections.unmodifiableList(values);
        Objects.requireNonNull(marker, "marker");
    }

    SnapshotRow withMarkers(boolean first, Marker value) {
        return new SnapshotRow(table, values, first, lastInTable, value);
    }
}

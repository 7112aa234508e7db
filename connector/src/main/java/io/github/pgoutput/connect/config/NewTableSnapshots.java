package io.github.pgoutput.connect.config;

/**
 * {@code snapshot.new.tables}: what happens to a table that becomes captured while the connector runs or between two
 * of its runs (it starts matching {@code table.include.list}, or enters the publication).
 */
public enum NewTableSnapshots {
    /** Nothing: its changes stream from then on, its earlier rows are not read (Debezium's default). */
    OFF,
    /** An incremental snapshot of that table alone, queued like one an {@code execute-snapshot} signal asks for. */
    INCREMENTAL
}

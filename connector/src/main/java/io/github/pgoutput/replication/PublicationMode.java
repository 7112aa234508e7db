package io.github.pgoutput.replication;

/** Whether the session creates the publication when it does not exist, and what it publishes then. */
public enum PublicationMode {
    /** The publication must already exist; a missing one is a setup error. */
    DISABLED,
    /** Create it as {@code FOR ALL TABLES} (needs superuser). */
    ALL_TABLES,
    /** Create it {@code FOR TABLE} the configured table list (needs ownership of those tables). */
    FILTERED,
    /**
     * Create it without tables (needs CREATE on the database); its tables are added later with
     * {@code ALTER PUBLICATION ... ADD TABLE}, by whoever owns them.
     */
    NO_TABLES
}

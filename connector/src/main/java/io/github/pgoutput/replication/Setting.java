package io.github.pgoutput.replication;

/**
 * The replication settings a problem can be blamed on. The connector maps each to its config key, so that a
 * validation error is shown next to the key the user has to change. Server-wide problems (for example
 * {@code wal_level}) are blamed on {@link #HOSTNAME}: the server the connector points at.
 */
public enum Setting {
    HOSTNAME,
    PORT,
    USER,
    PASSWORD,
    DBNAME,
    SSL,
    SSL_ROOT_CERT,
    SSL_CLIENT_CERT,
    SSL_CLIENT_KEY,
    SSL_KEY_PASSWORD,
    SLOT_NAME,
    SLOT_FAILOVER,
    PUBLICATION_NAME,
    PUBLICATION_AUTOCREATE_MODE,
    PUBLICATION_TABLES,
    REPLICA_IDENTITY,
    PROTOCOL_VERSION,
    STREAMING,
    TWO_PHASE,
    BINARY,
    MESSAGES,
    ORIGIN,
    STATUS_INTERVAL,
    KEEPALIVE_GUARD_INTERVAL
}

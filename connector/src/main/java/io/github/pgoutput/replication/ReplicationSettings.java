package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.StreamingMode;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything needed to open a replication session. Immutable and thread-safe; build one with {@link #builder}.
 *
 * @param host                   server host name or address; not null
 * @param port                   server port, 1-65535
 * @param database               database the slot belongs to; not null
 * @param user                   role to connect as; it needs REPLICATION (or superuser); not null
 * @param password               password, or null for password-less authentication; never logged
 * @param sslMode                pgjdbc {@code sslmode} ({@code disable}, {@code prefer}, {@code require},
 *                               {@code verify-ca}, {@code verify-full}), or null for pgjdbc's default
 * @param sslRootCert            path of the CA certificate file, or null
 * @param sslCert                path of the client certificate file, or null
 * @param sslKey                 path of the client key file, or null
 * @param sslPassword            password of an encrypted client key, or null; never logged
 * @param slotName               logical replication slot: lower-case letters, digits, underscores, at most 63 (the
 *                               caller's to check: pgjdbc pastes the name unquoted into {@code START_REPLICATION})
 * @param publicationName        publication to stream; created when {@code publicationMode} allows
 * @param publicationMode        whether and how a missing publication is created; not null
 * @param publicationTables      the tables of a {@link PublicationMode#FILTERED} publication; empty otherwise
 * @param publicationColumns     the column list of tables of a {@link PublicationMode#FILTERED} publication, for
 *                               PostgreSQL 15 and later (an older server publishes every column); a table not in the
 *                               map gets no column list
 * @param protocolVersion        pgoutput {@code proto_version} 1-4, or 0 for the highest the server speaks
 * @param streaming              pgoutput {@code streaming} option; not null
 * @param twoPhase               decode prepared transactions at PREPARE time (protocol 3+, PostgreSQL 15+)
 * @param failover               create the slot as a failover slot, and make an existing slot one (PostgreSQL 17+), so
 *                               that standbys with {@code sync_replication_slots} keep a copy of it
 * @param binary                 ask for column values in binary send format
 * @param messages               ask for logical decoding messages ({@code pg_logical_emit_message})
 * @param origin                 pgoutput {@code origin} option (PostgreSQL 16+); not null
 * @param statusInterval         how often a standby status update is sent while the caller reads; positive
 * @param keepaliveGuardInterval when the caller has not read for this long, a background keeper answers the server
 *                               so that {@code wal_sender_timeout} does not end the connection; positive. The session
 *                               shortens it to a quarter of the server's {@code wal_sender_timeout} when that is smaller.
 * @param applicationName        {@code application_name} of every connection; it names the client, so that the
 *                               pre-flight check can tell this client's own walsender from another consumer's
 *                               ({@link #defaultApplicationName} when not given)
 */
public record ReplicationSettings(
        String host, int port, String database, String user, String password,
        String sslMode, String sslRootCert, String sslCert, String sslKey, String sslPassword,
        String slotName, String publicationName, PublicationMode publicationMode, List<TableName> publicationTables,
        Map<TableName, List<String>> publicationColumns, int protocolVersion, StreamingMode streaming, boolean twoPhase, boolean failover, boolean binary, boolean messages,
        OriginFilter origin, Duration statusInterval, Duration keepaliveGuardInterval, String applicationName) {

    /** The {@code application_name} of a client that gave none: the product and the slot. */
    public static String defaultApplicationName(String slotName) {
        return "kafka-connect-pgoutput:" + slotName;
    }

    /** {@code protocolVersion} value meaning "the highest version the server speaks". */
    public static final int AUTO_PROTOCOL_VERSION = 0;

    /**
     * Checks what only this layer knows: the publication name is pasted into SQL and into a pgoutput option, and the
     * table list must fit the publication mode. The values a user configures (host, port, names, protocol version,
     * status interval) are checked once, by the connector's configuration, where the error names the key to change.
     */
    public ReplicationSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(slotName, "slotName");
        Identifiers.requireValid(publicationName, "publication name", Setting.PUBLICATION_NAME);
        Objects.requireNonNull(publicationMode, "publicationMode");
        publicationTables = List.copyOf(publicationTables == null ? List.of() : publicationTables);
        if (publicationMode == PublicationMode.FILTERED && publicationTables.isEmpty()) {
            throw new ReplicationSetupException(Setting.PUBLICATION_TABLES, "publication mode FILTERED needs at least one table;"
                    + " list the tables as schema.table, or use ALL_TABLES");
        }
        if (publicationMode != PublicationMode.FILTERED && !publicationTables.isEmpty()) {
            throw new ReplicationSetupException(Setting.PUBLICATION_TABLES, "a table list " + publicationTables + " was given with publication mode "
                    + publicationMode + ", which ignores it; use FILTERED or drop the list");
        }
        publicationColumns = publicationColumns == null ? Map.of() : Map.copyOf(publicationColumns);
        if (!publicationTables.containsAll(publicationColumns.keySet())) {
            throw new IllegalArgumentException("column lists " + publicationColumns + " name tables outside the publication's "
                    + publicationTables);
        }
        Objects.requireNonNull(streaming, "streaming");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(statusInterval, "statusInterval");
        if (keepaliveGuardInterval == null || keepaliveGuardInterval.isNegative() || keepaliveGuardInterval.isZero()) {
            throw new IllegalArgumentException("keepalive guard interval must be positive but is " + keepaliveGuardInterval);
        }
    }

    /** A builder with defaults: streaming ON, protocol auto, no two-phase/binary/messages, 10 s status, 5 s guard. */
    public static Builder builder(String host, int port, String database, String user, String slotName, String publicationName) {
        return new Builder(host, port, database, user, slotName, publicationName);
    }

    /** A builder that starts from these settings, to derive a variant. */
    public Builder toBuilder() {
        Builder b = new Builder(host, port, database, user, slotName, publicationName);
        b.password = password;
        b.sslMode = sslMode;
        b.sslRootCert = sslRootCert;
        b.sslCert = sslCert;
        b.sslKey = sslKey;
        b.sslPassword = sslPassword;
        b.publicationMode = publicationMode;
        b.publicationTables = publicationTables;
        b.publicationColumns = publicationColumns;
        b.protocolVersion = protocolVersion;
        b.streaming = streaming;
        b.twoPhase = twoPhase;
        b.failover = failover;
        b.binary = binary;
        b.messages = messages;
        b.origin = origin;
        b.statusInterval = statusInterval;
        b.keepaliveGuardInterval = keepaliveGuardInterval;
        b.applicationName = applicationName;
        return b;
    }

    @Override
    public String toString() {
        // Never print the password.
        return "ReplicationSettings[" + user + "@" + host + ":" + port + "/" + database + ", slot=" + slotName
                + ", publication=" + publicationName + " (" + publicationMode + (publicationTables.isEmpty() ? "" : " " + publicationTables)
                + "), proto=" + (protocolVersion == 0 ? "auto" : protocolVersion) + ", streaming=" + streaming + ", twoPhase=" + twoPhase
                + ", failover=" + failover
                + ", binary=" + binary + ", messages=" + messages + ", origin=" + origin + "]";
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private String host;
        private int port;
        private String database;
        private String user;
        private String slotName;
        private String publicationName;
        private String password;
        private String sslMode;
        private String sslRootCert;
        private String sslCert;
        private String sslKey;
        private String sslPassword;
        private PublicationMode publicationMode = PublicationMode.DISABLED;
        private List<TableName> publicationTables = List.of();
        private Map<TableName, List<String>> publicationColumns = Map.of();
        private int protocolVersion = AUTO_PROTOCOL_VERSION;
        private StreamingMode streaming = StreamingMode.ON;
        private boolean twoPhase;
        private boolean failover;
        private boolean binary;
        private boolean messages;
        private OriginFilter origin = OriginFilter.SERVER_DEFAULT;
        private Duration statusInterval = Duration.ofSeconds(10);
        private Duration keepaliveGuardInterval = Duration.ofSeconds(5);
        private String applicationName;

        private Builder(String host, int port, String database, String user, String slotName, String publicationName) {
            this.host = host;
            this.port = port;
            this.database = database;
            this.user = user;
            this.slotName = slotName;
            this.publicationName = publicationName;
        }

        public Builder slotName(String value) {
            slotName = value;
            return this;
        }

        public Builder publicationName(String value) {
            publicationName = value;
            return this;
        }

        public Builder password(String value) {
            password = value;
            return this;
        }

        public Builder ssl(String mode, String rootCert, String cert, String key) {
            sslMode = mode;
            sslRootCert = rootCert;
            sslCert = cert;
            sslKey = key;
            return this;
        }

        /** The password of an encrypted client key ({@code sslKey}); null for an unencrypted one. */
        public Builder sslPassword(String value) {
            sslPassword = value;
            return this;
        }

        public Builder publication(PublicationMode mode, List<TableName> tables) {
            publicationMode = mode;
            publicationTables = tables;
            return this;
        }

        /** The column lists of tables of a FILTERED publication (see {@link ReplicationSettings#publicationColumns}). */
        public Builder publicationColumns(Map<TableName, List<String>> columns) {
            publicationColumns = columns;
            return this;
        }

        public Builder protocolVersion(int value) {
            protocolVersion = value;
            return this;
        }

        public Builder streaming(StreamingMode value) {
            streaming = value;
            return this;
        }

        public Builder twoPhase(boolean value) {
            twoPhase = value;
            return this;
        }

        public Builder failover(boolean value) {
            failover = value;
            return this;
        }

        public Builder binary(boolean value) {
            binary = value;
            return this;
        }

        public Builder messages(boolean value) {
            messages = value;
            return this;
        }

        public Builder origin(OriginFilter value) {
            origin = value;
            return this;
        }

        public Builder statusInterval(Duration value) {
            statusInterval = value;
            return this;
        }

        public Builder applicationName(String value) {
            applicationName = value;
            return this;
        }

        public Builder keepaliveGuardInterval(Duration value) {
            keepaliveGuardInterval = value;
            return this;
        }

        /** @throws ReplicationSetupException naming the offending setting */
        public ReplicationSettings build() {
            return new ReplicationSettings(host, port, database, user, password, sslMode, sslRootCert, sslCert, sslKey,
                    sslPassword, slotName, publicationName, publicationMode, publicationTables, publicationColumns, protocolVersion,
                    streaming, twoPhase,
                    failover, binary, messages, origin, statusInterval, keepaliveGuardInterval,
                    applicationName == null || applicationName.isBlank() ? defaultApplicationName(slotName) : applicationName);
        }
    }
}

package io.github.pgoutput.replication;

import org.postgresql.PGProperty;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Opens the two kinds of connection the connector uses: a normal SQL one and a {@code replication=database} one. Public
 * so the snapshot package and the connect layer (the connections of the database spill) open their
 * connections with the same settings (SSL, timeouts, application name).
 */
public final class PgConnections {

    private PgConnections() {
    }

    /** A normal connection, for checks, publication and slot management. The caller closes it. */
    public static Connection openSql(ReplicationSettings settings) throws SQLException {
        Properties props = common(settings);
        PGProperty.APPLICATION_NAME.set(props, settings.applicationName());
        return DriverManager.getConnection(url(settings), props);
    }

    /**
     * A walsender connection in database mode. The walsender speaks only the simple query protocol and refuses some of
     * pgjdbc's start-up queries, hence the two extra properties (docs/pgoutput-protocol.md §8.1).
     */
    public static Connection openReplication(ReplicationSettings settings) throws SQLException {
        Properties props = common(settings);
        PGProperty.APPLICATION_NAME.set(props, settings.applicationName());
        PGProperty.REPLICATION.set(props, "database");
        PGProperty.ASSUME_MIN_SERVER_VERSION.set(props, "9.4");
        PGProperty.PREFER_QUERY_MODE.set(props, "simple");
        return DriverManager.getConnection(url(settings), props);
    }

    private static String url(ReplicationSettings settings) {
        String hosts = ServerAddresses.forUrl(ServerAddresses.parse(settings.host(), settings.port()));
        String database = URLEncoder.encode(settings.database(), StandardCharsets.UTF_8).replace("+", "%20");
        return "jdbc:postgresql://" + hosts + "/" + database;
    }

    private static Properties common(ReplicationSettings settings) {
        Properties props = new Properties();
        if (ServerAddresses.parse(settings.host(), settings.port()).size() > 1) {
            // A primary and its standbys: connect to whichever accepts writes now, so the task follows a promotion.
            // One host keeps pgjdbc's default (any), so a connector may still be pointed at a standby on purpose
            // (logical decoding on a standby, PostgreSQL 16+).
            PGProperty.TARGET_SERVER_TYPE.set(props, "primary");
            // pgjdbc remembers for hostRecheckSeconds (default 10) which host was a standby; a promoted one must be
            // tried again at the next reconnect, not 10 s later.
            PGProperty.HOST_RECHECK_SECONDS.set(props, 1);
        }
        PGProperty.USER.set(props, settings.user());
        if (settings.password() != null) {
            PGProperty.PASSWORD.set(props, settings.password());
        }
        if (settings.sslMode() != null) {
            PGProperty.SSL_MODE.set(props, settings.sslMode());
        }
        if (settings.sslRootCert() != null) {
            PGProperty.SSL_ROOT_CERT.set(props, settings.sslRootCert());
        }
        if (settings.sslCert() != null) {
            PGProperty.SSL_CERT.set(props, settings.sslCert());
        }
        if (settings.sslKey() != null) {
            PGProperty.SSL_KEY.set(props, settings.sslKey());
        }
        if (settings.sslPassword() != null) {
            PGProperty.SSL_PASSWORD.set(props, settings.sslPassword());
        }
        PGProperty.CONNECT_TIMEOUT.set(props, 10);
        // A dead peer must not block a read for ever: the session reads non-blocking, and the socket timeout bounds
        // the writes of status updates and the close handshake.
        PGProperty.SOCKET_TIMEOUT.set(props, 60);
        PGProperty.TCP_KEEP_ALIVE.set(props, true);
        return props;
    }
}

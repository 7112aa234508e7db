package io.github.pgoutput.connect.config;

import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;

/**
 * The keys of the configuration group "Database": the server and the role the connector logs in as. Each key is
 * declared here once, with its documentation, default, order and single-key validator;
 * {@link PgOutputSourceConnectorConfig} reads it.
 */
public final class DatabaseKeys {

    /** The group the keys are listed under in the documentation and in Connect's configuration forms. */
    static final String GROUP = "Database";

    public static final String DATABASE_HOSTNAME_CONFIG = "database.hostname";
    private static final String DATABASE_HOSTNAME_DOC = "Host name or IP address of the PostgreSQL server, or a "
            + "comma-separated list of a primary and its standbys, each host or host:port ([address]:port for IPv6; "
            + "without a port, database.port). With a list the connector connects to whichever server is the primary "
            + "at the time, so after a failover it follows the promoted standby (see slot.failover).";
    private static final String DATABASE_HOSTNAME_DISPLAY = "Host";

    public static final String DATABASE_PORT_CONFIG = "database.port";
    private static final String DATABASE_PORT_DOC = "TCP port of the PostgreSQL server, and of each host in "
            + "database.hostname that names no port of its own.";
    private static final int DATABASE_PORT_DEFAULT = 5432;
    private static final String DATABASE_PORT_DISPLAY = "Port";

    public static final String DATABASE_USER_CONFIG = "database.user";
    private static final String DATABASE_USER_DOC = "PostgreSQL role to connect as. It needs the REPLICATION attribute "
            + "(or superuser; on Amazon RDS and Aurora, membership in rds_replication) and CONNECT on the database; "
            + "USAGE on the schemas and SELECT on the tables a snapshot or an incremental snapshot reads; and, to create "
            + "the publication (publication.autocreate.mode), CREATE on the database and ownership rights on each table "
            + "(filtered), CREATE (no_tables) or superuser (all_tables). docs/setup-postgresql.md gives the SQL of a "
            + "least-privilege role for each mode; validation checks each privilege the configuration needs.";
    private static final String DATABASE_USER_DISPLAY = "User";

    public static final String DATABASE_PASSWORD_CONFIG = "database.password";
    private static final String DATABASE_PASSWORD_DOC = "Password of database.user. Never logged. Leave unset for "
            + "authentication methods that need none.";
    private static final String DATABASE_PASSWORD_DISPLAY = "Password";

    public static final String DATABASE_DBNAME_CONFIG = "database.dbname";
    private static final String DATABASE_DBNAME_DOC = "Name of the database to stream from. A replication slot "
            + "belongs to one database.";
    private static final String DATABASE_DBNAME_DISPLAY = "Database";

    public static final String DATABASE_SSLMODE_CONFIG = "database.sslmode";
    private static final String DATABASE_SSLMODE_DOC = "TLS mode of the connection, with pgjdbc's meaning: disable, "
            + "allow, prefer (TLS if the server offers it), require (TLS, certificate not checked), verify-ca "
            + "(certificate signed by database.sslrootcert), verify-full (verify-ca plus host name check).";
    private static final String DATABASE_SSLMODE_DEFAULT = ConfigChoices.SSL_MODE.text(SslMode.PREFER);
    private static final String DATABASE_SSLMODE_DISPLAY = "TLS mode";

    public static final String DATABASE_SSLROOTCERT_CONFIG = "database.sslrootcert";
    private static final String DATABASE_SSLROOTCERT_DOC = "File with the CA certificate(s) that verify the server "
            + "(verify-ca, verify-full). Unset: pgjdbc's default, ~/.postgresql/root.crt.";
    private static final String DATABASE_SSLROOTCERT_DISPLAY = "TLS root certificate file";

    public static final String DATABASE_SSLCERT_CONFIG = "database.sslcert";
    private static final String DATABASE_SSLCERT_DOC = "File with the client certificate, for certificate "
            + "authentication. Unset: pgjdbc's default, ~/.postgresql/postgresql.crt.";
    private static final String DATABASE_SSLCERT_DISPLAY = "TLS client certificate file";

    public static final String DATABASE_SSLKEY_CONFIG = "database.sslkey";
    private static final String DATABASE_SSLKEY_DOC = "File with the client certificate's private key (PKCS-8 DER "
            + "or PKCS-12, as pgjdbc reads them). Unset: pgjdbc's default, ~/.postgresql/postgresql.pk8.";
    private static final String DATABASE_SSLKEY_DISPLAY = "TLS client key file";

    public static final String DATABASE_SSLPASSWORD_CONFIG = "database.sslpassword";
    private static final String DATABASE_SSLPASSWORD_DOC = "Password of an encrypted database.sslkey. pgjdbc reads an "
            + "encrypted key as PKCS-8 DER with a PKCS#12 PBE (openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES -outform DER; an AES, "
            + "PBES2, key is refused), or a PKCS-12 file (.p12). Never logged. Leave unset for an unencrypted key.";
    private static final String DATABASE_SSLPASSWORD_DISPLAY = "TLS client key password";

    private DatabaseKeys() {
    }

    /** Declares the keys of the group in {@code def}, in the order the documentation lists them. */
    static void define(ConfigDef def) {
        int order = 0;
        def.define(DATABASE_HOSTNAME_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigValidators.hostnameValidator(),
                Importance.HIGH, DATABASE_HOSTNAME_DOC, GROUP, ++order, Width.LONG, DATABASE_HOSTNAME_DISPLAY);
        def.define(DATABASE_PORT_CONFIG, Type.INT, DATABASE_PORT_DEFAULT, ConfigDef.Range.between(1, 65535),
                Importance.HIGH, DATABASE_PORT_DOC, GROUP, ++order, Width.SHORT, DATABASE_PORT_DISPLAY);
        def.define(DATABASE_USER_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, DATABASE_USER_DOC, GROUP, ++order, Width.MEDIUM, DATABASE_USER_DISPLAY);
        def.define(DATABASE_PASSWORD_CONFIG, Type.PASSWORD, null, null,
                Importance.HIGH, DATABASE_PASSWORD_DOC, GROUP, ++order, Width.MEDIUM, DATABASE_PASSWORD_DISPLAY);
        def.define(DATABASE_DBNAME_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, DATABASE_DBNAME_DOC, GROUP, ++order, Width.MEDIUM, DATABASE_DBNAME_DISPLAY);
        def.define(DATABASE_SSLMODE_CONFIG, Type.STRING, DATABASE_SSLMODE_DEFAULT, ConfigChoices.SSL_MODE.validator(),
                Importance.MEDIUM, DATABASE_SSLMODE_DOC, GROUP, ++order, Width.SHORT, DATABASE_SSLMODE_DISPLAY);
        def.define(DATABASE_SSLROOTCERT_CONFIG, Type.STRING, null, null,
                Importance.LOW, DATABASE_SSLROOTCERT_DOC, GROUP, ++order, Width.LONG, DATABASE_SSLROOTCERT_DISPLAY);
        def.define(DATABASE_SSLCERT_CONFIG, Type.STRING, null, null,
                Importance.LOW, DATABASE_SSLCERT_DOC, GROUP, ++order, Width.LONG, DATABASE_SSLCERT_DISPLAY);
        def.define(DATABASE_SSLKEY_CONFIG, Type.STRING, null, null,
                Importance.LOW, DATABASE_SSLKEY_DOC, GROUP, ++order, Width.LONG, DATABASE_SSLKEY_DISPLAY);
        def.define(DATABASE_SSLPASSWORD_CONFIG, Type.PASSWORD, null, null,
                Importance.LOW, DATABASE_SSLPASSWORD_DOC, GROUP, ++order, Width.MEDIUM, DATABASE_SSLPASSWORD_DISPLAY);
    }
}

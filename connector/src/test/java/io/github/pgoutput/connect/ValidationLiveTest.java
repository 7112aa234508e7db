package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresExtension;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 4, integration test 5, and issues 36 and 37: {@link PgOutputSourceConnector#validate} checks the live server
 * and attaches each problem to the key to change, with the advice that fits a one-off check (nothing is retried): a
 * wrong password (also in filtered mode) or an unknown role under scram-sha-256, a missing password, an unknown role
 * under trust, a pg_hba.conf reject line, a refused connection, {@code wal_level=replica}, a missing publication with
 * autocreate disabled, {@code tasks.max=2}, and {@code stage} with {@code max_prepared_transactions=0}; what a server
 * version cannot serve (protocol 4, parallel streaming before PostgreSQL 16); and the live problems of a configuration
 * that also has static errors, all in one validation. Direct calls of {@code validate()}, as Connect's
 * {@code PUT /connector-plugins/.../config/validate} makes them (PgOutputSourceConnectorValidationIT shows that path
 * through a real worker). Runs on every PostgreSQL version {@code pg.versions} selects, each with its own two servers
 * (they need settings of their own).
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ValidationLiveTest {

    private static final String ROLE = "app";
    private static final String PASSWORD = "s3cret";
    /** A role pg_hba.conf rejects. */
    private static final String REJECTED = "rejected";
    /** A role that does not exist, for which pg_hba.conf asks a password (scram-sha-256). */
    private static final String GHOST = "ghost";

    /** Per version: logical decoding, but no prepared transactions, and password authentication for the role {@code app}. */
    private static final Map<Integer, PostgresCluster> LOGICAL = new HashMap<>();
    /** Per version: wal_level=replica. */
    private static final Map<Integer, PostgresCluster> REPLICA = new HashMap<>();

    static List<Integer> versions() {
        return PostgresExtension.selectedVersions();
    }

    private static synchronized PostgresCluster logical(int version) {
        return LOGICAL.computeIfAbsent(version, v -> {
            PostgresCluster server = PostgresCluster.start(v, Map.of("max_prepared_transactions", "0"));
            server.execute("postgres", "CREATE ROLE " + ROLE + " LOGIN REPLICATION PASSWORD '" + PASSWORD + "'",
                    "CREATE ROLE " + REJECTED + " LOGIN REPLICATION",
                    "CREATE PUBLICATION existing_pub FOR ALL TABLES", "CREATE TABLE public.orders (id int PRIMARY KEY)",
                    // The snapshot (snapshot.mode=initial, the default) reads it.
                    "GRANT SELECT ON public.orders TO " + ROLE);
            requirePassword(server);
            return server;
        });
    }

    private static synchronized PostgresCluster replica(int version) {
        return REPLICA.computeIfAbsent(version, v -> PostgresCluster.start(v, Map.of("wal_level", "replica")));
    }

    /** pg_hba.conf is read top-down: the role gets scram-sha-256 ahead of the trust lines initdb wrote. */
    private static void requirePassword(PostgresCluster cluster) {
        Path hba = cluster.dataDirectory().resolve("pg_hba.conf");
        String lines = "host all " + ROLE + " 127.0.0.1/32 scram-sha-256\nhost replication " + ROLE + " 127.0.0.1/32 scram-sha-256\n"
                + "host all " + REJECTED + " 127.0.0.1/32 reject\nhost all " + GHOST + " 127.0.0.1/32 scram-sha-256\n";
        try {
            Files.writeString(hba, lines + Files.readString(hba, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        cluster.execute("postgres", "SELECT pg_reload_conf()");
    }

    @AfterAll
    static void stopServers() {
        LOGICAL.values().forEach(PostgresCluster::close);
        REPLICA.values().forEach(PostgresCluster::close);
    }

    private static Map<String, String> config(PostgresCluster server) {
        Map<String, String> config = new HashMap<>();
        config.put("name", "validated");
        config.put("connector.class", PgOutputSourceConnector.class.getName());
        config.put("tasks.max", "1");
        config.put("database.hostname", server.host());
        config.put("database.port", Integer.toString(server.port()));
        config.put("database.user", ROLE);
        config.put("database.password", PASSWORD);
        config.put("database.dbname", "postgres");
        config.put("slot.name", "validated_slot");
        config.put("publication.name", "existing_pub");
        config.put("topic.prefix", "validated");
        return config;
    }

    private static Map<String, List<String>> errors(Map<String, String> config) {
        Map<String, List<String>> errors = new HashMap<>();
        for (ConfigValue value : new PgOutputSourceConnector().validate(config).configValues()) {
            if (!value.errorMessages().isEmpty()) {
                errors.put(value.name(), value.errorMessages());
            }
        }
        return errors;
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void acceptsAConfigurationTheServerCanServe(int version) {
        assertThat(errors(config(logical(version)))).isEmpty();
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void wrongPasswordIsReportedOnThePassword(int version) {
        Map<String, String> config = config(logical(version));
        config.put("database.password", "wrong");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.password");
        assertThat(errors.get("database.password")).singleElement().asString().contains("password");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void walLevelReplicaIsReportedOnTheHost(int version) {
        Map<String, String> config = config(replica(version));
        config.put("database.user", PostgresCluster.SUPERUSER);
        config.remove("database.password");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsKey("database.hostname");
        assertThat(errors.get("database.hostname")).anySatisfy(m -> assertThat(m).contains("wal_level is 'replica'"));
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void missingPublicationWithAutocreateDisabledIsReportedOnThePublicationName(int version) {
        Map<String, String> config = config(logical(version));
        config.put("publication.name", "missing_pub");
        config.put("publication.autocreate.mode", "disabled");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("publication.name");
        assertThat(errors.get("publication.name")).singleElement().asString().contains("missing_pub").contains("does not exist");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void moreThanOneTaskIsReportedOnTasksMax(int version) {
        Map<String, String> config = config(logical(version));
        config.put("tasks.max", "2");

        assertThat(errors(config)).containsOnlyKeys("tasks.max");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void oneValidationShowsTheLiveProblemsBesideTheStaticOnes(int version) {
        Map<String, String> config = config(logical(version));
        config.put("tasks.max", "2");
        config.put("table.whitelist", "public.orders");
        config.put("publication.name", "missing_pub");
        config.put("publication.autocreate.mode", "disabled");
        config.put("prepared.transaction.mode", "stage");
        config.put("provide.transaction.metadata", "true");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("tasks.max", "table.whitelist", "publication.name", "prepared.transaction.mode");
        assertThat(errors.get("publication.name")).singleElement().asString().contains("missing_pub").contains("does not exist");
        assertThat(errors.get("prepared.transaction.mode")).singleElement().asString().contains("max_prepared_transactions is 0");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void aWrongPasswordIsReportedBesideAStaticError(int version) {
        Map<String, String> config = config(logical(version));
        config.put("database.password", "wrong");
        config.put("slot.name", "Bad-Slot");

        assertThat(errors(config)).containsOnlyKeys("database.password", "slot.name");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void stageModeWithoutPreparedTransactionsIsReportedOnTheMode(int version) {
        Map<String, String> config = config(logical(version));
        config.put("prepared.transaction.mode", "stage");
        config.put("provide.transaction.metadata", "true");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("prepared.transaction.mode");
        assertThat(errors.get("prepared.transaction.mode")).singleElement().asString().contains("max_prepared_transactions is 0");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void protocolFourAndParallelStreamingAreReportedBeforePostgres16Only(int version) {
        Map<String, String> protocol4 = config(logical(version));
        protocol4.put("protocol.version", "4");
        Map<String, String> parallel = config(logical(version));
        parallel.put("streaming", "parallel");

        if (version >= 16) {
            assertThat(errors(protocol4)).isEmpty();
            assertThat(errors(parallel)).isEmpty();
        } else {
            assertThat(errors(protocol4)).containsOnlyKeys("protocol.version");
            assertThat(errors(parallel)).containsOnlyKeys("streaming");
            assertThat(errors(parallel).get("streaming")).singleElement().asString().contains("PostgreSQL 16+");
        }
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void anUnknownHostIsReportedOnTheHostNamingIt(int version) {
        Map<String, String> config = config(logical(version));
        config.put("database.hostname", "no-such-host.invalid");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.hostname");
        assertThat(errors.get("database.hostname")).singleElement().asString()
                .contains("'no-such-host.invalid' could not be resolved").contains("fix database.hostname");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void requiringTlsFromAServerWithoutItIsReportedOnTheSslMode(int version) {
        Map<String, String> config = config(logical(version));
        config.put("database.sslmode", "require");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.sslmode");
        assertThat(errors.get("database.sslmode")).singleElement().asString()
                .contains("ssl = off").contains("database.sslmode=prefer");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void anIncludeListThatMatchesNoTableIsReportedOnTheListWithTheTablesSeen(int version) {
        Map<String, String> config = config(logical(version));
        config.put("table.include.list", "orders");
        Map<String, String> qualified = config(logical(version));
        qualified.put("table.include.list", "public\\.orders");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("table.include.list");
        assertThat(errors.get("table.include.list")).singleElement().asString()
                .contains("table.include.list (orders) select no table").contains("tables seen: public.orders");
        assertThat(errors(qualified)).as("the schema-qualified name").isEmpty();
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void anEmptyConfigurationReportsEachMissingKeyOnce(int version) {
        Map<String, String> config = Map.of("name", "empty", "connector.class", PgOutputSourceConnector.class.getName());

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.hostname", "database.user", "database.dbname", "topic.prefix");
        assertThat(errors).allSatisfy((key, messages) -> assertThat(messages).as(key).singleElement().asString()
                .contains("Write " + key + "=<"));
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void aWrongPasswordInFilteredModeIsReportedOnThePasswordNotTheHost(int version) {
        Map<String, String> config = config(logical(version));
        config.put("database.password", "wrong");
        config.put("publication.autocreate.mode", "filtered");
        config.put("table.include.list", "public\\.orders");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.password");
        assertThat(errors.get("database.password")).singleElement().asString().contains("refused database.password for role 'app'")
                .contains("ALTER ROLE \"app\" PASSWORD");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void anUnknownRoleUnderScramIsReportedOnThePasswordSayingTheServerDoesNotTellWhich(int version) {
        Map<String, String> config = config(logical(version));
        config.put("database.user", GHOST);

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.password");
        assertThat(errors.get("database.password")).singleElement().asString().contains("refused database.password for role 'ghost'")
                .contains("it says the same when no role of that name exists");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void anUnknownRoleUnderTrustIsReportedOnTheUserWithTheCreateRole(int version) {
        Map<String, String> config = config(logical(version));
        config.put("database.user", "nobody");
        config.remove("database.password");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.user");
        assertThat(errors.get("database.user")).singleElement().asString().contains("no role 'nobody' exists")
                .contains("CREATE ROLE \"nobody\" WITH LOGIN REPLICATION");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void aMissingPasswordTheServerAsksForIsReportedOnThePasswordNotAsARetry(int version) {
        Map<String, String> config = config(logical(version));
        config.remove("database.password");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.password");
        assertThat(errors.get("database.password")).singleElement().asString()
                .contains("the server requires a password for this role").doesNotContain("reconnect").doesNotContain("retr");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void aPgHbaRejectLineIsReportedOnTheUserQuotingTheLineToAdd(int version) {
        Map<String, String> config = config(logical(version));
        config.put("database.user", REJECTED);
        config.remove("database.password");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.user");
        assertThat(errors.get("database.user")).singleElement().asString().contains("has a reject line that matches")
                .contains("host postgres " + REJECTED + " 127.0.0.1/32 scram-sha-256");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void aRefusedConnectionIsReportedOnTheHostWithWhatWasTriedAndWhatToCheckNotAsARetry(int version) {
        Map<String, String> config = config(logical(version));
        config.put("database.port", "1");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.hostname");
        assertThat(errors.get("database.hostname")).singleElement().asString().contains("Tried 127.0.0.1:1")
                .contains("listen_addresses").contains("firewall").contains("pg_hba.conf")
                .doesNotContain("reconnect").doesNotContain("will retry");
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void aDatabaseSpillTheRoleCannotCreateIsReportedOnItsSchemaWithTheGrant(int version) {
        PostgresCluster server = logical(version);
        Map<String, String> config = config(server);
        config.put("spill.backend", "database");
        config.put("spill.database.schema", "spill_of_app");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("spill.database.schema");
        assertThat(errors.get("spill.database.schema")).singleElement().asString()
                .contains("GRANT CREATE ON DATABASE \"postgres\" TO \"app\"")
                .contains("CREATE SCHEMA \"spill_of_app\" AUTHORIZATION \"app\"");
        server.execute("postgres", "CREATE SCHEMA IF NOT EXISTS spill_of_app AUTHORIZATION " + ROLE);
        assertThat(errors(config)).as("the schema made for the role").isEmpty();
    }
}

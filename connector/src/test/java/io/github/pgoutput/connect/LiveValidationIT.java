package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 4, integration test 5: {@code PUT /connector-plugins/PgOutputSourceConnector/config/validate} checks the
 * live server and attaches each problem to the key to change: wrong password, {@code wal_level=replica}, a missing
 * publication with autocreate disabled, {@code tasks.max=2}, and {@code stage} with {@code max_prepared_transactions=0}.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class LiveValidationIT {

    private static final String ROLE = "app";
    private static final String PASSWORD = "s3cret";

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(1);

    /** Logical decoding, but no prepared transactions, and password authentication for the role {@code app}. */
    private static PostgresCluster logical;
    /** wal_level=replica. */
    private static PostgresCluster replica;

    @BeforeAll
    static void startServers() throws IOException {
        logical = PostgresCluster.start(17, Map.of("max_prepared_transactions", "0"));
        logical.execute("postgres", "CREATE ROLE " + ROLE + " LOGIN REPLICATION PASSWORD '" + PASSWORD + "'",
                "CREATE PUBLICATION existing_pub FOR ALL TABLES");
        requirePassword(logical);
        replica = PostgresCluster.start(17, Map.of("wal_level", "replica"));
    }

    /** pg_hba.conf is read top-down: the role gets scram-sha-256 ahead of the trust lines initdb wrote. */
    private static void requirePassword(PostgresCluster cluster) throws IOException {
        Path hba = cluster.dataDirectory().resolve("pg_hba.conf");
        String lines = "host all " + ROLE + " 127.0.0.1/32 scram-sha-256\nhost replication " + ROLE + " 127.0.0.1/32 scram-sha-256\n";
        Files.writeString(hba, lines + Files.readString(hba, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        cluster.execute("postgres", "SELECT pg_reload_conf()");
    }

    @AfterAll
    static void stopServers() {
        if (logical != null) {
            logical.close();
        }
        if (replica != null) {
            replica.close();
        }
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
        return connect.validationErrors("PgOutputSourceConnector", config);
    }

    @Test
    void acceptsAConfigurationTheServerCanServe() {
        assertThat(errors(config(logical))).isEmpty();
    }

    @Test
    void wrongPasswordIsReportedOnThePassword() {
        Map<String, String> config = config(logical);
        config.put("database.password", "wrong");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("database.password");
        assertThat(errors.get("database.password")).singleElement().asString().contains("password");
    }

    @Test
    void walLevelReplicaIsReportedOnTheHost() {
        Map<String, String> config = config(replica);
        config.put("database.user", PostgresCluster.SUPERUSER);
        config.remove("database.password");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsKey("database.hostname");
        assertThat(errors.get("database.hostname")).anySatisfy(m -> assertThat(m).contains("wal_level is 'replica'"));
    }

    @Test
    void missingPublicationWithAutocreateDisabledIsReportedOnThePublicationName() {
        Map<String, String> config = config(logical);
        config.put("publication.name", "missing_pub");
        config.put("publication.autocreate.mode", "disabled");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("publication.name");
        assertThat(errors.get("publication.name")).singleElement().asString().contains("missing_pub").contains("does not exist");
    }

    @Test
    void moreThanOneTaskIsReportedOnTasksMax() {
        Map<String, String> config = config(logical);
        config.put("tasks.max", "2");

        assertThat(errors(config)).containsOnlyKeys("tasks.max");
    }

    @Test
    void stageModeWithoutPreparedTransactionsIsReportedOnTheMode() {
        Map<String, String> config = config(logical);
        config.put("prepared.transaction.mode", "stage");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("prepared.transaction.mode");
        assertThat(errors.get("prepared.transaction.mode")).singleElement().asString().contains("max_prepared_transactions is 0");
    }
}

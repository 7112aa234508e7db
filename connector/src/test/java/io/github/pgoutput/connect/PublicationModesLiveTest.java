package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.pgoutput.replication.PublicationManager;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Timeout;

/**
 * Debezium's publication modes against a live server: {@code all_tables} is the default, {@code no_tables} creates a
 * publication without tables (CREATE on the database is enough), and a {@code filtered} publication that exists but
 * lacks tables the lists select, which Debezium would alter, is refused with the ALTER PUBLICATION to run.
 */
@Timeout(120)
class PublicationModesLiveTest {

    private static Map<String, String> config(PostgresDatabase db, String user) {
        Map<String, String> config = new HashMap<>();
        config.put("database.hostname", db.host());
        config.put("database.port", Integer.toString(db.port()));
        config.put("database.user", user);
        config.put("database.dbname", db.name());
        config.put("topic.prefix", "pm");
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

    @PostgresTest(representative = 16)
    void aFilteredPublicationThatLacksSelectedTablesIsRefusedWithTheAlterToRun(PostgresDatabase db) {
        db.execute("CREATE TABLE public.orders (id int PRIMARY KEY)", "CREATE TABLE public.order_lines (id int PRIMARY KEY)",
                "CREATE TABLE public.audit (id int PRIMARY KEY)", "CREATE PUBLICATION dbz_publication FOR TABLE public.orders");
        Map<String, String> config = config(db, db.user());
        config.put("publication.autocreate.mode", "filtered");
        config.put("table.include.list", "public\\.order.*");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("publication.autocreate.mode");
        assertThat(errors.get("publication.autocreate.mode")).singleElement().asString()
                .contains("does not send public.order_lines").contains("ALTER PUBLICATION dbz_publication ADD TABLE \"public\".\"order_lines\"");
        db.execute("ALTER PUBLICATION dbz_publication ADD TABLE public.order_lines");
        assertThat(errors(config)).isEmpty();
    }

    @PostgresTest(representative = 16)
    void noTablesNeedsCreateOnTheDatabaseAndCreatesAPublicationWithoutTables(PostgresDatabase db) throws Exception {
        String role = "pm_" + db.name();
        db.execute("CREATE ROLE " + role + " LOGIN REPLICATION", "REVOKE CREATE ON DATABASE " + db.name() + " FROM PUBLIC");
        try {
            Map<String, String> config = config(db, role);
            config.put("publication.autocreate.mode", "no_tables");

            assertThat(errors(config).get("publication.autocreate.mode")).singleElement().asString()
                    .contains("GRANT CREATE ON DATABASE \"" + db.name() + "\" TO \"" + role + "\"");
            db.execute("GRANT CREATE ON DATABASE " + db.name() + " TO " + role);
            assertThat(errors(config)).isEmpty();
        } finally {
            db.execute("REVOKE ALL ON DATABASE " + db.name() + " FROM " + role, "DROP ROLE " + role);
        }
        try (Connection sql = db.connect()) {
            PublicationManager.create(sql, "empty_pub", PublicationMode.NO_TABLES, List.of());
        }
        assertThat(db.queryValue("SELECT count(*) FROM pg_publication WHERE pubname = 'empty_pub' AND NOT puballtables")).isEqualTo("1");
        assertThat(db.queryValue("SELECT count(*) FROM pg_publication_tables WHERE pubname = 'empty_pub'")).isEqualTo("0");
    }
}

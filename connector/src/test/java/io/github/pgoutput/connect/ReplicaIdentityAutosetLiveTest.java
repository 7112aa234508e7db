package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicaIdentityAutoset;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Timeout;

/**
 * {@code replica.identity.autoset.values} against a live server: validation names what stands in the way (a table the
 * role does not own, with the GRANT to run; an index that cannot be an identity), and a start gives the captured
 * tables their identities, or fails, naming the key, instead of streaming without the old values asked for.
 */
@Timeout(120)
class ReplicaIdentityAutosetLiveTest {

    private static Map<String, String> config(PostgresDatabase db, String user, String autoset) {
        Map<String, String> config = new HashMap<>();
        config.put("database.hostname", db.host());
        config.put("database.port", Integer.toString(db.port()));
        config.put("database.user", user);
        config.put("database.dbname", db.name());
        config.put("slot.name", "ri_slot");
        config.put("publication.name", "ri_pub");
        config.put("topic.prefix", "ri");
        config.put("replica.identity.autoset.values", autoset);
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

    private static String identity(PostgresDatabase db, String table) {
        return db.queryValue("SELECT relreplident FROM pg_class WHERE oid = '" + table + "'::regclass");
    }

    @PostgresTest(representative = 18)
    void aStartGivesEachCapturedTableTheIdentityItsEntryNamesAndLeavesTheOthers(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
                "CREATE TABLE public.items (id int PRIMARY KEY, code text NOT NULL)", "CREATE UNIQUE INDEX items_code ON public.items (code)",
                "CREATE TABLE public.audit (id int PRIMARY KEY)", "CREATE PUBLICATION ri_pub FOR ALL TABLES");
        Map<String, String> config = config(db, db.user(), "public.orders:FULL,public\\.ITEMS:INDEX items_code,public.audit:FULL");
        config.put("table.exclude.list", "public\\.audit");
        PgOutputSourceConnectorConfig parsed = new PgOutputSourceConnectorConfig(config);

        assertThat(errors(config)).isEmpty();
        List<String> changed = ReplicaIdentityAutoset.apply(parsed);

        assertThat(changed).containsExactly("public.items: DEFAULT -> INDEX items_code", "public.orders: DEFAULT -> FULL");
        assertThat(identity(db, "public.orders")).isEqualTo("f");
        assertThat(identity(db, "public.items")).isEqualTo("i");
        assertThat(db.queryValue("SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = 'public.items'::regclass AND indisreplident"))
                .isEqualTo("items_code");
        assertThat(identity(db, "public.audit")).as("not captured: left alone").isEqualTo("d");
        assertThat(ReplicaIdentityAutoset.apply(parsed)).as("the next start finds them set").isEmpty();
    }

    @PostgresTest(representative = 18)
    void validationAndTheStartNameATableTheRoleDoesNotOwnWithTheGrantToRun(PostgresDatabase db) throws Exception {
        String role = "ri_" + db.name();
        db.execute("CREATE TABLE public.orders (id int PRIMARY KEY)", "CREATE PUBLICATION ri_pub FOR ALL TABLES",
                "CREATE ROLE " + role + " LOGIN REPLICATION", "GRANT SELECT ON public.orders TO " + role);
        try {
            Map<String, String> config = config(db, role, "public.orders:FULL");

            Map<String, List<String>> errors = errors(config);

            assertThat(errors).containsOnlyKeys("replica.identity.autoset.values");
            assertThat(errors.get("replica.identity.autoset.values")).singleElement().asString()
                    .startsWith("replica.identity.autoset.values: REPLICA IDENTITY FULL for public.orders (now DEFAULT) needs ownership")
                    .contains("GRANT \"postgres\" TO \"" + role + "\"");
            PostgresPipeline pipeline = new PostgresPipeline(new PgOutputSourceConnectorConfig(config));
            assertThatThrownBy(pipeline::setReplicaIdentities).isInstanceOf(ConnectException.class)
                    .hasMessageStartingWith("replica.identity.autoset.values: ").hasMessageContaining("GRANT");
            assertThat(identity(db, "public.orders")).isEqualTo("d");
        } finally {
            db.execute("DROP OWNED BY " + role, "DROP ROLE " + role);
        }
    }

    @PostgresTest(representative = 18)
    void validationNamesAnIndexThatIsMissingOrCannotBeAnIdentity(PostgresDatabase db) {
        db.execute("CREATE TABLE public.orders (id int PRIMARY KEY, code text)", "CREATE UNIQUE INDEX orders_code ON public.orders (code)",
                "CREATE PUBLICATION ri_pub FOR ALL TABLES");

        assertThat(errors(config(db, db.user(), "public.orders:INDEX no_such_index")).get("replica.identity.autoset.values"))
                .singleElement().asString().contains("has no index named no_such_index");
        assertThat(errors(config(db, db.user(), "public.orders:INDEX orders_code")).get("replica.identity.autoset.values"))
                .as("code may be NULL").singleElement().asString().contains("on NOT NULL columns only");
    }

    @PostgresTest(representative = 18)
    void validationRefusesATableTwoEntriesMatch(PostgresDatabase db) {
        db.execute("CREATE TABLE public.orders (id int PRIMARY KEY)", "CREATE PUBLICATION ri_pub FOR ALL TABLES");

        assertThat(errors(config(db, db.user(), "public\\..*:FULL,public.orders:DEFAULT")).get("replica.identity.autoset.values"))
                .singleElement().asString().contains("all match table public.orders");
    }
}

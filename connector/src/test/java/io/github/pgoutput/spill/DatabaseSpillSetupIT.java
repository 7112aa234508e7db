package io.github.pgoutput.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.testing.PostgresDatabase;
import java.nio.ByteBuffer;
import java.sql.DriverManager;
import java.util.Properties;
import org.junit.jupiter.api.Timeout;

/** How the database backend sets up its table, and what it says when the database user may not. */
@Timeout(60)
class DatabaseSpillSetupIT {

    private static SpillContext context(PostgresDatabase database, String user, String schema) {
        SourceConnections connections = () -> {
            Properties properties = new Properties();
            properties.setProperty("user", user);
            return DriverManager.getConnection(database.jdbcUrl(), properties);
        };
        SpillSettings settings = SpillSettings.defaults("my_slot").withBackend(SpillSettings.DATABASE_BACKEND)
                .withDatabaseSchema(schema);
        return new SpillContext("my_slot", settings, connections);
    }

    @io.github.pgoutput.testing.PostgresTest
    void createsAnUnloggedTableNamedAfterTheSlotInTheConfiguredSchema(PostgresDatabase database) {
        try (TransactionSpill spill = TransactionSpills.open(context(database, database.user(), "Spill \"Schema\""))) {
            spill.append(Xid.of(5), Xid.of(5), Lsn.of(1), ByteBuffer.wrap(new byte[] {1, 2, 3}));
            spill.read(Xid.of(5)).close();

            assertThat(spill).isInstanceOf(DatabaseSpill.class);
            assertThat(database.queryValue("SELECT c.relpersistence FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                    + "WHERE n.nspname = 'Spill \"Schema\"' AND c.relname = 'my_slot'")).isEqualTo("u");
            assertThat(database.queryValue("SELECT count(*) FROM \"Spill \"\"Schema\"\"\".my_slot")).isEqualTo("1");
        }
    }

    @io.github.pgoutput.testing.PostgresTest
    void userWithoutCreateOnTheDatabaseIsToldWhichPrivilegeAndSettingToFix(PostgresDatabase database) {
        database.execute("CREATE ROLE spill_user LOGIN", "REVOKE CREATE ON DATABASE " + database.name() + " FROM PUBLIC");
        try {
            assertThatThrownBy(() -> TransactionSpills.open(context(database, "spill_user", "kafka_connect_pgoutput")))
                    .isInstanceOf(SpillException.class)
                    .hasMessageContaining("'spill_user' lacks the CREATE privilege on the database")
                    .hasMessageContaining("spill.database.schema");
        } finally {
            database.execute("DROP ROLE spill_user");
        }
    }

    @io.github.pgoutput.testing.PostgresTest
    void userWithoutCreateOnTheSchemaIsToldWhichPrivilegeAndSettingToFix(PostgresDatabase database) {
        database.execute("CREATE ROLE spill_user2 LOGIN", "CREATE SCHEMA locked", "GRANT USAGE ON SCHEMA locked TO spill_user2");
        try {
            assertThatThrownBy(() -> TransactionSpills.open(context(database, "spill_user2", "locked")))
                    .isInstanceOf(SpillException.class)
                    .hasMessageContaining("'spill_user2' lacks the CREATE privilege on schema 'locked' (spill.database.schema)")
                    .hasMessageContaining("\"locked\".\"my_slot\"");
        } finally {
            database.execute("DROP SCHEMA locked", "DROP ROLE spill_user2");
        }
    }
}

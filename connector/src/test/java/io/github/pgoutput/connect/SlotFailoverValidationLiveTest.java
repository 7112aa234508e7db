package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Timeout;

/**
 * {@code validate()} with {@code slot.failover=true} against a live server: below PostgreSQL 17 the refusal is shown on
 * {@code slot.failover}, naming the server's version and the fix; from 17 on the key has no error. No Connect worker:
 * the REST validation only lists what {@code validate()} returns (PgOutputSourceConnectorValidationIT shows that path).
 */
class SlotFailoverValidationLiveTest {

    /** One test over every selected version, so that a run of any one version has it (a min/max would fail such runs). */
    @PostgresTest
    @Timeout(60)
    void olderServersShowTheRefusalOnSlotFailoverAnd17AcceptsIt(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION fo_pub FOR ALL TABLES");

        Map<String, List<String>> errors = errors(db);

        if (db.majorVersion() >= 17) {
            assertThat(errors).isEmpty();
        } else {
            assertThat(errors).containsOnlyKeys(ReplicationKeys.SLOT_FAILOVER_CONFIG);
            assertThat(errors.get(ReplicationKeys.SLOT_FAILOVER_CONFIG)).singleElement().asString()
                    .contains("PostgreSQL " + db.majorVersion()).contains("PostgreSQL 17").contains("slot.failover=false");
        }
    }

    private static Map<String, List<String>> errors(PostgresDatabase db) {
        Map<String, String> config = new HashMap<>();
        config.put("name", "failover-validation");
        config.put("database.hostname", db.host());
        config.put("database.port", Integer.toString(db.port()));
        config.put("database.user", db.user());
        config.put("database.dbname", db.name());
        config.put("slot.name", "fo_validate");
        config.put("publication.name", "fo_pub");
        config.put("topic.prefix", "fo");
        config.put(ReplicationKeys.SLOT_FAILOVER_CONFIG, "true");
        Map<String, List<String>> errors = new HashMap<>();
        for (ConfigValue value : new PgOutputSourceConnector().validate(config).configValues()) {
            if (!value.errorMessages().isEmpty()) {
                errors.put(value.name(), value.errorMessages());
            }
        }
        return errors;
    }
}

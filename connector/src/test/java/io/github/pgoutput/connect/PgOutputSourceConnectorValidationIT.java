package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.MinimalConfig;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Connect's path to the validation: a real worker finds the connector through its service manifest, reports the
 * build's version, and {@code PUT /connector-plugins/PgOutputSourceConnector/config/validate} shows each error on the
 * key a user has to change, static ones (Connect's own {@code tasks.max} among them) beside the live server's, with an
 * empty value read as unset. Every other validation behaviour is tested by calling {@code validate()} directly
 * (ValidationLiveTest, DebeziumConfigsLiveTest, PgOutputSourceConnectorConfigTest): the worker only relays it.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PgOutputSourceConnectorValidationIT {

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @Test
    void workerListsThePluginWithTheBuildVersion() {
        assertThat(connect.restGet("connector-plugins"))
                .contains("\"class\":\"" + PgOutputSourceConnector.class.getName() + "\"")
                .contains("\"version\":\"" + new PgOutputSourceConnector().version() + "\"");
    }

    @PostgresTest(representative = 17)
    void theWorkersValidationShowsStaticAndLiveErrorsEachOnItsKey(PostgresDatabase db) {
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, "validated", "validated_slot");
        config.put("name", "validated");
        config.put("tasks.max", "2");
        config.put("slot.name", "Shop-Slot");
        config.put("streaming", "parallel");
        config.put("protocol.version", "3");
        config.put("publication.autocreate.mode", "disabled");
        config.put("column.exclude.list", "");

        Map<String, List<String>> errors = connect.validationErrors("PgOutputSourceConnector", config);

        assertThat(errors).containsOnlyKeys("tasks.max", "slot.name", "streaming", "publication.name");
        assertThat(errors.get("tasks.max")).anySatisfy(m -> assertThat(m).contains("Set tasks.max=1"));
        assertThat(errors.get("slot.name")).singleElement().asString()
                .contains("lowercase letters, digits and underscores");
        assertThat(errors.get("streaming")).singleElement().asString()
                .contains("streaming=parallel needs pgoutput protocol 4");
        assertThat(errors.get("publication.name")).singleElement().asString()
                .contains("'validated_slot_pub' does not exist").contains("CREATE PUBLICATION");
        assertThat(connect.startupTime()).isLessThan(Duration.ofSeconds(90));
    }
}

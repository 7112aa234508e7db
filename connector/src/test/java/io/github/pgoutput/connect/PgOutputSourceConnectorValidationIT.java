package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A real Connect worker finds the connector through its service manifest, reports the build's version, and
 * {@code PUT /connector-plugins/PgOutputSourceConnector/config/validate} shows each static error on the key a
 * user has to change, Connect's own {@code tasks.max} included.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PgOutputSourceConnectorValidationIT {

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    private static Map<String, String> config() {
        Map<String, String> config = PgOutputSourceConnectorConfigTest.minimal();
        config.put("name", "shop");
        config.put("connector.class", PgOutputSourceConnector.class.getName());
        config.put("tasks.max", "1");
        return config;
    }

    @Test
    void workerListsThePluginWithTheBuildVersion() {
        assertThat(connect.restGet("connector-plugins"))
                .contains("\"class\":\"" + PgOutputSourceConnector.class.getName() + "\"")
                .contains("\"version\":\"" + new PgOutputSourceConnector().version() + "\"");
    }

    @Test
    void checksAStaticallyValidConfigurationAgainstTheServer() {
        Map<String, String> config = config();
        config.put("database.hostname", "127.0.0.1");
        config.put("database.port", "1"); // nothing listens there

        Map<String, List<String>> errors = connect.validationErrors("PgOutputSourceConnector", config);

        assertThat(errors).containsOnlyKeys("database.hostname");
    }

    @Test
    void reportsEachErrorOnTheKeyToChange() {
        Map<String, String> config = config();
        config.put("tasks.max", "2");
        config.put("slot.name", "Shop-Slot");
        config.put("streaming", "parallel");
        config.put("protocol.version", "3");

        Map<String, List<String>> errors = connect.validationErrors("PgOutputSourceConnector", config);

        assertThat(errors).containsOnlyKeys("tasks.max", "slot.name", "streaming");
        assertThat(errors.get("tasks.max")).anySatisfy(m -> assertThat(m).contains("Set tasks.max=1"));
        assertThat(errors.get("slot.name")).singleElement().asString()
                .contains("lowercase letters, digits and underscores");
        assertThat(errors.get("streaming")).singleElement().asString()
                .contains("streaming=parallel needs pgoutput protocol 4");
        assertThat(connect.startupTime()).isLessThan(Duration.ofSeconds(90));
    }
}

package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code PUT /connectors/NAME/config} on a running connector: Connect validates the new configuration while the
 * connector's own task holds the slot. Its session is recognised by its application_name (the connector's name) and
 * is no conflict; another connector naming the same slot still is.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ReconfigureRunningConnectorIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 16)
    void aRunningConnectorIsReconfiguredInPlaceWhileAnotherConnectorOnItsSlotIsRefused(PostgresDatabase db) {
        String name = "reconf" + db.majorVersion();
        String slot = "reconf_slot";
        db.execute("CREATE TABLE t (id bigint PRIMARY KEY, note text)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, slot);
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
        assertThat(db.queryValue("SELECT application_name FROM pg_stat_activity WHERE pid = (SELECT active_pid FROM "
                + "pg_replication_slots WHERE slot_name = '" + slot + "')")).isEqualTo("kafka-connect-pgoutput:" + name);

        Map<String, String> other = new java.util.HashMap<>(config);
        other.put("name", "intruder" + db.majorVersion());
        Map<String, List<String>> otherErrors = connect.validationErrors(PgOutputSourceConnector.class.getName(), other);
        assertThat(otherErrors).containsOnlyKeys("slot.name");
        assertThat(otherErrors.get("slot.name")).singleElement().asString().contains("is in use by another consumer");

        config.put("heartbeat.interval.ms", "1000");
        connect.configureConnector(name, config); // validated by Connect first: refused with HTTP 400 before
        connect.awaitRunning(name, 1, WAIT);
        db.execute("INSERT INTO t VALUES (1, 'after-reconfiguration')");
        assertThat(connect.awaitRecords(name + ".public.t", 1, WAIT)).map(ConnectWorkerCluster::valueText).singleElement()
                .asString().contains("after-reconfiguration");

        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
    }
}

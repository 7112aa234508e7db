package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Through a real Connect worker: REPLICA IDENTITY FULL tables whose rows hold NULLs are snapshotted and streamed
 * with the task RUNNING throughout; the table with a primary key is keyed by it alone in snapshot and stream alike,
 * the one without primary key or replica identity index has null keys.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class FullIdentityKeysWorkerIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    private static String keyText(ConsumerRecord<byte[], byte[]> record) {
        return record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
    }

    private static String op(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return null;
        }
        JsonNode value = TopicReplica.json(record.value());
        return value.get("op").asText();
    }

    @PostgresTest(representative = 16)
    void fullIdentityRowsWithNullsAreKeyedByThePrimaryKeyOrNullAndTheTaskKeepsRunning(PostgresDatabase db) {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: names per version.
        String name = "fk" + db.majorVersion();
        db.execute("CREATE TABLE f (id bigint PRIMARY KEY, note text)",
                "ALTER TABLE f REPLICA IDENTITY FULL",
                "INSERT INTO f VALUES (1, NULL)",
                "CREATE TABLE g (a int, note text)",
                "ALTER TABLE g REPLICA IDENTITY FULL",
                "INSERT INTO g VALUES (NULL, NULL)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "fk_slot");
        config.remove("snapshot.mode");
        connect.configureConnector(name, config);
        try {
            connect.awaitRunning(name, 1, WAIT);
            connect.awaitRecords(name + ".public.f", 1, WAIT); // the snapshot's row (a snapshot writes no truncate records)
            db.execute("INSERT INTO f VALUES (2, NULL)",
                    "UPDATE f SET note = 'one' WHERE id = 1",
                    "UPDATE f SET note = NULL WHERE id = 1",
                    "DELETE FROM f WHERE id = 2",
                    "INSERT INTO g VALUES (1, NULL)",
                    "UPDATE g SET note = 'x' WHERE a IS NULL",
                    "DELETE FROM g");

            List<ConsumerRecord<byte[], byte[]>> f = connect.awaitRecords(name + ".public.f", 6, WAIT);
            assertThat(f).extracting(FullIdentityKeysWorkerIT::op).containsExactly("r", "c", "u", "u", "d", null);
            assertThat(f).extracting(FullIdentityKeysWorkerIT::keyText)
                    .containsExactly("{\"id\":1}", "{\"id\":2}", "{\"id\":1}", "{\"id\":1}", "{\"id\":2}", "{\"id\":2}");

            List<ConsumerRecord<byte[], byte[]>> g = connect.awaitRecords(name + ".public.g", 7, WAIT);
            assertThat(g).extracting(FullIdentityKeysWorkerIT::op).as("tombstones with a null key, as Debezium writes them")
                    .containsExactly("r", "c", "u", "d", null, "d", null);
            assertThat(g).extracting(FullIdentityKeysWorkerIT::keyText).containsOnlyNulls();
            assertThat(connect.status(name).tasks()).singleElement().satisfies(t -> assertThat(t.state()).isEqualTo("RUNNING"));
        } finally {
            connect.deleteConnector(name);
        }
    }
}

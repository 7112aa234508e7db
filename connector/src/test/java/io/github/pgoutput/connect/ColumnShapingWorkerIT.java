package io.github.pgoutput.connect;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgoutput.connect.shaping.UpperCaseConverter;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Debezium's column keys on a real worker and server, as a Debezium user configures them: an excluded column, a mask,
 * a hash, a truncation and a custom converter (loaded by its class name, configured with its own keys) shape the
 * initial snapshot's rows, the streamed changes and an incremental snapshot's rows alike, and the excluded column
 * never leaves PostgreSQL 15+: the publication the connector creates lists the other columns only.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ColumnShapingWorkerIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest
    void theColumnKeysShapeSnapshotStreamedAndIncrementalRecordsAndTheLeftOutColumnStaysOnTheServer(PostgresDatabase db)
            throws Exception {
        String name = "shaping" + db.majorVersion();
        String slot = "shaping_slot";
        db.execute("CREATE TABLE customers (id bigint PRIMARY KEY, email text NOT NULL DEFAULT 'none', ssn text, note varchar(40),"
                        + " active bool, bio text)",
                "CREATE TABLE dbz_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048))",
                "INSERT INTO customers VALUES (1, 'ada@example.com', '123-45-6789', 'first', true, 'a long biography')");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, slot);
        config.remove("snapshot.mode");
        config.put("publication.autocreate.mode", "filtered");
        config.put("table.include.list", "public\\.(customers|dbz_signal)");
        config.put("signal.data.collection", "public.dbz_signal");
        config.put("value.converter.schemas.enable", "true");
        config.put("column.exclude.list", "public\\.customers\\.ssn");
        config.put("column.mask.with.4.chars", "public\\.customers\\.note");
        config.put("column.mask.hash.SHA-256.with.salt.CzQMA0cB5K", "public\\.customers\\.email");
        config.put("column.truncate.to.6.chars", "public\\.customers\\.bio");
        config.put("converters", "upper");
        config.put("upper.type", UpperCaseConverter.class.getName());
        config.put("upper.tables", "public\\.customers");
        config.put("name", name);

        assertThat(connect.validationErrors(PgOutputSourceConnector.class.getName(), config)).isEmpty();
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        String topic = name + ".public.customers";
        connect.awaitRecords(topic, 1, WAIT);

        if (db.majorVersion() >= 15) {
            assertThat(db.queryValue("SELECT array_to_string(attnames, ',') FROM pg_publication_tables WHERE pubname = '"
                    + slot + "_pub' AND tablename = 'customers'")).as("the column list leaves ssn on the server")
                    .isEqualTo("id,email,note,active,bio");
        }
        db.execute("INSERT INTO customers VALUES (2, 'bob@example.com', '987-65-4321', NULL, false, 'short')",
                "UPDATE customers SET note = 'second', bio = 'another long text' WHERE id = 1",
                "DELETE FROM customers WHERE id = 2",
                "INSERT INTO dbz_signal VALUES ('s1', 'execute-snapshot',"
                        + " '{\"data-collections\": [\"public.customers\"], \"type\": \"incremental\"}')");
        // snapshot r, c, u, d, tombstone, then the incremental snapshot's r of row 1
        List<ConsumerRecord<byte[], byte[]>> records = connect.awaitRecords(topic, 6, WAIT);

        List<JsonNode> values = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (record.value() != null) {
                values.add(JSON.readTree(record.value()));
            }
            assertThat(JSON.readTree(record.key()).has("id")).as("the key keeps the key column").isTrue();
        }
        assertThat(values).extracting(v -> v.at("/payload/op").asText()).containsExactly("r", "c", "u", "d", "r");
        assertThat(values.get(4).at("/payload/source/snapshot").asText()).isEqualTo("incremental");
        for (JsonNode value : values) {
            JsonNode row = value.at("/payload/op").asText().equals("d") ? value.at("/payload/before") : value.at("/payload/after");
            assertThat(row.has("ssn")).as("left out: %s", row).isFalse();
            assertThat(row.get("email").asText()).as("converted, then hashed").matches("[0-9a-f]{64}");
        }
        JsonNode snapshot = values.get(0).at("/payload/after");
        assertThat(snapshot.get("note").asText()).isEqualTo("****");
        assertThat(snapshot.get("bio").asText()).as("upper case, then cut to 6").isEqualTo("A LONG");
        assertThat(snapshot.get("active").asInt()).as("converted to int16").isEqualTo(1);
        JsonNode created = values.get(1).at("/payload/after");
        assertThat(created.get("note").asText()).as("a NULL is masked too").isEqualTo("****");
        assertThat(created.get("active").asInt()).isEqualTo(0);
        assertThat(created.get("email").asText()).isNotEqualTo(snapshot.get("email").asText());
        assertThat(values.get(4).at("/payload/after/email").asText()).as("the same input, the same digest")
                .isEqualTo(snapshot.get("email").asText());
        assertThat(values.get(4).at("/payload/after/bio").asText()).isEqualTo("ANOTHE");
        JsonNode fields = values.get(0).at("/schema/fields/1/fields");
        assertThat(fields.findValues("field")).extracting(JsonNode::asText)
                .containsExactly("id", "email", "note", "active", "bio");
        assertThat(fields.get(1).at("/parameters/masked").asText()).isEqualTo("true");
        assertThat(fields.get(3).get("type").asText()).isEqualTo("int16");
        assertThat(fields.get(4).at("/parameters/truncateLength").asText()).isEqualTo("6");

        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
    }
}

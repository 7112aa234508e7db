package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.replication.ReplicationSession;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.replication.WalFrame;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * The snapshot has the shape streaming has: the columns (names, type OIDs, typmods, key flags) of pgoutput's Relation
 * message, the publication's column list and row filter, and values in the same text form.
 */
class PublicationShapeSnapshotIT {

    @PostgresTest
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void snapshotRowsLookLikeStreamedRowsOfTheSamePublication(PostgresDatabase db) throws Exception {
        db.execute("CREATE DOMAIN posint AS int CHECK (VALUE > 0)",
                "CREATE TABLE items (id int, code varchar(12), secret text, price numeric(10,2), d posint, at timestamp(3),"
                        + " PRIMARY KEY (code, id))",
                "ALTER TABLE items DROP COLUMN secret",
                "INSERT INTO items SELECT g, 'c' || g, g * 1.5, g, timestamp '2026-01-01 10:00:00.123' FROM generate_series(1, 20) g",
                "CREATE PUBLICATION pub FOR TABLE items (id, code, price, d) WHERE (id > 10)");
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "shape_slot", "pub");
        List<SnapshotRow> rows;
        Lsn consistentPoint;
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, false, Duration.ofSeconds(30));
             SnapshotReader reader = SnapshotTestSupport.start(settings, exported, List.of(new TableName("public", "items")),
                     SnapshotSettings.defaults().withPublication("pub"))) {
            consistentPoint = exported.consistentPoint();
            rows = SnapshotTestSupport.readAll(reader);
        }
        assertThat(rows).hasSize(10);
        assertThat(rows).extracting(r -> Integer.parseInt(r.values().get(0))).allMatch(id -> id > 10);
        assertThat(rows).filteredOn(r -> r.values().get(0).equals("12")).singleElement()
                .extracting(SnapshotRow::values).isEqualTo(List.of("12", "c12", "18.00", "12"));

        db.execute("INSERT INTO items VALUES (12, 'x12', 18, 12, now())");
        PgOutputMessage.Relation relation = null;
        List<String> inserted = null;
        try (ReplicationSession session = ReplicationSession.open(settings, consistentPoint)) {
            PgOutputDecoder decoder = new PgOutputDecoder(session.protocol().decoderSettings());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (inserted == null) {
                assertThat(System.nanoTime()).as("insert streamed in time").isLessThan(deadline);
                WalFrame frame = session.readPending();
                if (frame == null) {
                    Thread.sleep(5);
                    continue;
                }
                PgOutputMessage message = decoder.decode(frame.payload(), frame.headerLsn());
                if (message instanceof PgOutputMessage.Relation r) {
                    relation = r;
                } else if (message instanceof PgOutputMessage.Insert insert) {
                    inserted = new ArrayList<>();
                    for (ColumnValue v : insert.newTuple().columns()) {
                        inserted.add(((ColumnValue.Text) v).asString());
                    }
                }
            }
        }
        SnapshotTable table = rows.get(0).table();
        assertThat(table.relationId()).isEqualTo(relation.relationId());
        assertThat(table.columns()).isEqualTo(relation.columns());
        assertThat(inserted).isEqualTo(List.of("12", "x12", "18.00", "12"));
    }
}

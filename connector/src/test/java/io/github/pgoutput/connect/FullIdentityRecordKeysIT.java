package io.github.pgoutput.connect;

import io.github.pgoutput.connect.record.TopicNames;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.MessageKeyColumns;
import io.github.pgoutput.connect.record.ColumnTypes;
import io.github.pgoutput.connect.record.AvroNames;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.assembly.PreparedTransactionMode;
import io.github.pgoutput.assembly.TransactionAssembler;
import io.github.pgoutput.connect.record.ChangeRecordBuilder.Draft;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.replication.ReplicationSession;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TypeCatalog;
import io.github.pgoutput.spill.SpillContext;
import io.github.pgoutput.spill.SpillSettings;
import io.github.pgoutput.spill.TransactionSpills;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * REPLICA IDENTITY FULL tables with NULL columns, streamed from a live server through the record builder with the
 * catalog the task uses: a table with a primary key is keyed by it alone; one with neither primary key nor replica
 * identity index has null keys; message.key.columns names a nullable column as key. Every change gives its records.
 */
class FullIdentityRecordKeysIT {

    @TempDir
    Path spillDirectory;

    private List<Draft> stream(PostgresDatabase db, String slot, MessageKeyColumns named, Runnable changes) throws Exception {
        return stream(db, slot, named, spillDirectory, changes);
    }

    /**
     * The drafts the record builder makes, with the task's catalog, of what {@code changes} writes, streamed from a new
     * slot of an all-tables publication until a row in table {@code marker} (which the caller creates) arrives.
     */
    static List<Draft> stream(PostgresDatabase db, String slot, MessageKeyColumns named, Path spillDirectory, Runnable changes)
            throws Exception {
        return stream(db, slot, catalog -> new ChangeRecordBuilder("rk", db.name(), "1.0", new TopicNames("rk", "__heartbeat"),
                new AvroNames("rk"), new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(catalog),
                true, (schema, table) -> !table.equals("marker"), named, false), spillDirectory, changes);
    }

    /**
     * The drafts {@code builders} (given the server's type catalog) makes of {@code changes}, streamed from a new slot
     * until the row a last transaction inserts into table {@code marker}, which the builder must not capture; logical
     * decoding messages are asked for.
     */
    static List<Draft> stream(PostgresDatabase db, String slot, java.util.function.Function<TypeCatalog, ChangeRecordBuilder> builders,
            Path spillDirectory, Runnable changes) throws Exception {
        ReplicationSettings settings = ReplicationSettings.builder(db.host(), db.port(), db.name(), db.user(), slot, slot + "_pub")
                .publication(PublicationMode.ALL_TABLES, List.of())
                .messages(true)
                .statusInterval(Duration.ofMillis(200))
                .build();
        ChangeRecordBuilder builder = builders.apply(TypeCatalog.of(settings));
        List<Draft> drafts = new ArrayList<>();
        try (ReplicationSession session = ReplicationSession.open(settings, Lsn.INVALID)) {
            PgOutputDecoder decoder = new PgOutputDecoder(new DecoderSettings(session.protocol().protocolVersion(),
                    session.protocol().streaming()));
            TransactionAssembler assembler = new TransactionAssembler(new SessionMessageSource(session, decoder),
                    TransactionSpills.open(new SpillContext(slot, SpillSettings.defaults(slot).withDirectory(spillDirectory), () -> {
                        throw new java.sql.SQLException("disk spill only");
                    })), decoder::decode, PreparedTransactionMode.FAIL, 1L << 20);
            changes.run();
            db.execute("INSERT INTO marker VALUES (1)");
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            boolean marker = false;
            while (!marker) {
                assertThat(System.nanoTime()).as("the marker transaction within 30 s; records so far: " + drafts).isLessThan(deadline);
                Delivery delivery = assembler.nextDelivery();
                if (delivery == null) {
                    Thread.sleep(5);
                    continue;
                }
                long order = 1;
                ChangeEvent event;
                while ((event = delivery.changes().next()) != null) {
                    marker |= event.relations().stream().anyMatch(r -> r.relationName().equals("marker"));
                    List<Draft> built = builder.build(event, delivery);
                    order += built.size();
                    drafts.addAll(built);
                }
                session.declareDurable(delivery.endLsn());
            }
            assembler.close();
        }
        return drafts;
    }

    private static void createTables(PostgresDatabase db) {
        db.execute("CREATE TABLE marker (id int)",
                "CREATE TABLE f (id bigint PRIMARY KEY, note text, code text)",
                "ALTER TABLE f REPLICA IDENTITY FULL",
                "CREATE TABLE g (a int, note text)",
                "ALTER TABLE g REPLICA IDENTITY FULL");
    }

    private static void changeWithNulls(PostgresDatabase db) {
        db.execute("INSERT INTO f VALUES (1, NULL, NULL), (2, 'two', NULL)",
                "UPDATE f SET note = 'one' WHERE id = 1",
                "UPDATE f SET note = NULL WHERE id = 2",
                "DELETE FROM f WHERE id = 1",
                "DELETE FROM f WHERE id = 2",
                "INSERT INTO g VALUES (1, NULL), (NULL, 'x')",
                "UPDATE g SET note = 'y' WHERE a = 1",
                "DELETE FROM g WHERE a = 1",
                "DELETE FROM g WHERE a IS NULL");
    }

    private static String op(Draft draft) {
        return draft.value() == null ? null : ((Struct) draft.value()).getString("op");
    }

    private static List<Draft> of(List<Draft> drafts, String topic) {
        return drafts.stream().filter(d -> d.topic().equals(topic)).toList();
    }

    @PostgresTest
    @Timeout(120)
    void fullIdentityTablesAreKeyedByTheirPrimaryKeyOrNotAtAllAndNullColumnsStopNothing(PostgresDatabase db) throws Exception {
        createTables(db);
        List<Draft> drafts = stream(db, "rk_full", MessageKeyColumns.NONE, () -> changeWithNulls(db));

        List<Draft> f = of(drafts, "rk.public.f");
        assertThat(f).extracting(FullIdentityRecordKeysIT::op).containsExactly("c", "c", "u", "u", "d", null, "d", null);
        assertThat(f).allSatisfy(d -> assertThat(d.keySchema().fields()).extracting(Field::name).containsExactly("id"));
        assertThat(f).extracting(d -> ((Struct) d.key()).get("id")).containsExactly(1L, 2L, 1L, 2L, 1L, 1L, 2L, 2L);
        Struct update = (Struct) f.get(3).value();
        assertThat(update.getStruct("before").get("note")).as("FULL still widens before").isEqualTo("two");
        assertThat(update.getStruct("after").get("note")).isNull();

        List<Draft> g = of(drafts, "rk.public.g");
        assertThat(g).extracting(FullIdentityRecordKeysIT::op).as("tombstones with a null key, as Debezium writes them")
                .containsExactly("c", "c", "u", "d", null, "d", null);
        assertThat(g).allSatisfy(d -> {
            assertThat(d.key()).isNull();
            assertThat(d.keySchema()).isNull();
        });
    }

    @PostgresTest(representative = 18)
    @Timeout(120)
    void messageKeyColumnsKeysATableByANullableColumn(PostgresDatabase db) throws Exception {
        createTables(db);
        List<Draft> drafts = stream(db, "rk_named", MessageKeyColumns.parse("public\\.g:a"), () -> changeWithNulls(db));

        List<Draft> g = of(drafts, "rk.public.g");
        assertThat(g).extracting(FullIdentityRecordKeysIT::op).containsExactly("c", "c", "u", "d", null, "d", null);
        assertThat(g).extracting(d -> ((Struct) d.key()).get("a")).containsExactly(1, null, 1, 1, 1, null, null);
        assertThat(of(drafts, "rk.public.f")).allSatisfy(d -> assertThat(((Struct) d.key()).schema().fields())
                .extracting(Field::name).containsExactly("id"));
    }
}

package io.github.pgoutput.connect;

import io.github.pgoutput.connect.record.MessageKeyColumns;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;

import io.github.pgoutput.connect.record.ChangeRecordBuilder.Draft;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * NOT NULL columns and column defaults, from a live server's catalog, streamed through the record builder: NOT NULL
 * columns are required fields carrying their default as Debezium reads it, and a delete under REPLICA IDENTITY
 * DEFAULT fills the required columns its key-only old tuple leaves out with their default or their type's zero.
 */
class NotNullAndDefaultsIT {

    @TempDir
    Path spillDirectory;

    @PostgresTest
    @Timeout(120)
    void notNullColumnsAreRequiredWithDefaultsAndAKeyOnlyDeleteFillsThem(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE marker (id int)",
                "CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL DEFAULT 'unnamed',"
                        + " qty int NOT NULL, price numeric(8,2) NOT NULL DEFAULT 0, added timestamptz NOT NULL DEFAULT now(),"
                        + " note text DEFAULT 'none', flag boolean NOT NULL DEFAULT true)");

        List<Draft> drafts = FullIdentityRecordKeysIT.stream(db, "nn_slot", MessageKeyColumns.NONE, spillDirectory, () ->
                db.execute("INSERT INTO items (qty) VALUES (3)", "DELETE FROM items WHERE id = 1"))
                .stream().filter(d -> d.topic().equals("rk.public.items")).toList();

        assertThat(drafts).extracting(d -> d.value() == null ? null : ((Struct) d.value()).getString("op"))
                .containsExactly("c", "d", null);
        Schema row = drafts.get(0).valueSchema().field("after").schema();
        assertThat(row.field("id").schema().isOptional()).isFalse();
        assertThat(row.field("id").schema().defaultValue()).as("nextval(...): Debezium's placeholder 0").isEqualTo(0);
        assertThat(row.field("name").schema().isOptional()).isFalse();
        assertThat(row.field("name").schema().defaultValue()).isEqualTo("unnamed");
        assertThat(row.field("qty").schema().isOptional()).isFalse();
        assertThat(row.field("qty").schema().defaultValue()).isNull();
        assertThat(row.field("price").schema().defaultValue()).isEqualTo(new BigDecimal("0.00"));
        assertThat(row.field("flag").schema().defaultValue()).isEqualTo(true);
        assertThat(row.field("note").schema().isOptional()).isTrue();
        assertThat(row.field("note").schema().defaultValue()).isEqualTo("none");
        assertThat(drafts.get(0).keySchema().field("id").schema().isOptional()).isFalse();

        Struct after = ((Struct) drafts.get(0).value()).getStruct("after");
        assertThat(after.get("name")).isEqualTo("unnamed");
        assertThat(after.get("qty")).isEqualTo(3);

        Struct before = ((Struct) drafts.get(1).value()).getStruct("before");
        assertThat(before.get("id")).isEqualTo(1);
        assertThat(before.get("name")).as("left out by the key-only old tuple: the default").isEqualTo("unnamed");
        assertThat(before.get("qty")).as("left out, no default: the type's zero").isEqualTo(0);
        assertThat(before.get("price")).isEqualTo(new BigDecimal("0.00"));
        assertThat(before.get("flag")).isEqualTo(true);
        assertThat(before.getWithoutDefault("note")).as("nullable: null").isNull();
        assertThat(((Struct) drafts.get(1).key()).get("id")).isEqualTo(1);
        org.apache.kafka.connect.data.ConnectSchema.validateValue(drafts.get(1).valueSchema(), drafts.get(1).value());
    }
}

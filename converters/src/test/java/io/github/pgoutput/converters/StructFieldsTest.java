package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class StructFieldsTest {

    private static final Schema ROW = SchemaBuilder.struct().name("row").optional()
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .field("amount", Decimal.builder(2).optional().build())
            .field("at", Timestamp.builder().optional().build())
            .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
            .field("attributes", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT32_SCHEMA).optional().build())
            .field("flag", SchemaBuilder.bool().defaultValue(false).build())
            .build();
    private static final Schema ENVELOPE = SchemaBuilder.struct().name("envelope")
            .field("after", ROW)
            .field("op", Schema.STRING_SCHEMA)
            .build();

    @Test
    void storesValuesDirectlyWithTheKafkaVersionThisConnectorIsBuiltFor() {
        // Losing the fast path (Kafka renamed Struct's value array) would cost 4 KB of garbage per record, silently.
        assertThat(StructFields.direct()).isTrue();
    }

    @Test
    void givesTheStructThatPutGivesForEveryKindOfValue() {
        Struct viaPut = row(new Struct(ROW), true);
        Struct viaFields = row(new Struct(ROW), false);

        assertThat(viaFields).isEqualTo(viaPut);
        assertThat(viaFields.hashCode()).isEqualTo(viaPut.hashCode());
        assertThat(viaFields.toString()).isEqualTo(viaPut.toString());
        assertThat(viaFields.getString("name")).isEqualTo("ada");
        assertThat(viaFields.get("amount")).isEqualTo(new BigDecimal("12.50"));
        viaFields.validate();

        Struct envelope = StructFields.put(new Struct(ENVELOPE), "after", viaFields);
        StructFields.put(envelope, "op", "c");
        assertThat(envelope).isEqualTo(new Struct(ENVELOPE).put("after", viaPut).put("op", "c"));
        envelope.validate();
    }

    @Test
    void rejectsAValueOfTheWrongTypeNamingTheField() {
        assertThatThrownBy(() -> StructFields.put(new Struct(ROW), "id", "42"))
                .isInstanceOf(DataException.class).hasMessageContaining("field \"id\"").hasMessageContaining("INT64");
        assertThatThrownBy(() -> StructFields.put(new Struct(ROW), "amount", 12.5))
                .isInstanceOf(DataException.class).hasMessageContaining("field \"amount\"");
        assertThatThrownBy(() -> StructFields.put(new Struct(ROW), "tags", List.of("a", 1)))
                .isInstanceOf(DataException.class).hasMessageContaining("field \"tags\"");
        assertThatThrownBy(() -> StructFields.put(new Struct(ROW), "attributes", Map.of("a", "b")))
                .isInstanceOf(DataException.class).hasMessageContaining("field \"attributes\"");
    }

    @Test
    void checksAValueOfAKafkaLogicalTypeByItsLogicalClassAndANamedPlainTypeByItsType() {
        // Timestamp is an INT64 schema whose values are Dates: a Long is wrong there, as Struct.put says too.
        assertThatThrownBy(() -> new Struct(ROW).put("at", 1_700_000_000_000L)).isInstanceOf(DataException.class);
        assertThatThrownBy(() -> StructFields.put(new Struct(ROW), "at", 1_700_000_000_000L))
                .isInstanceOf(DataException.class).hasMessageContaining("field \"at\"");
        Schema micros = SchemaBuilder.struct().field("ts", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp")
                .version(1).build()).build();
        assertThat(StructFields.put(new Struct(micros), "ts", 5L)).isEqualTo(new Struct(micros).put("ts", 5L));
        assertThatThrownBy(() -> StructFields.put(new Struct(micros), "ts", 5))
                .isInstanceOf(DataException.class).hasMessageContaining("field \"ts\"");
    }

    @Test
    void rejectsNullForARequiredFieldAsPutDoesEvenWithADefault() {
        assertThatThrownBy(() -> StructFields.put(new Struct(ROW), "id", null))
                .isInstanceOf(DataException.class).hasMessageContaining("field \"id\"");
        assertThatThrownBy(() -> new Struct(ROW).put("flag", null)).isInstanceOf(DataException.class);
        assertThatThrownBy(() -> StructFields.put(new Struct(ROW), "flag", null)).isInstanceOf(DataException.class);
    }

    @Test
    void rejectsANestedStructWhoseRequiredFieldIsUnsetOrWhoseSchemaDiffers() {
        Struct unset = StructFields.put(new Struct(ROW), "name", "no id");
        assertThatThrownBy(() -> StructFields.put(new Struct(ENVELOPE), "after", unset))
                .isInstanceOf(DataException.class).hasMessageContaining("field \"after\"").hasMessageContaining("\"id\"");

        Schema other = SchemaBuilder.struct().name("row").optional().field("id", Schema.INT64_SCHEMA).build();
        assertThatThrownBy(() -> StructFields.put(new Struct(ENVELOPE), "after", new Struct(other).put("id", 1L)))
                .isInstanceOf(DataException.class).hasMessageContaining("do not match");
        assertThatThrownBy(() -> StructFields.put(new Struct(ENVELOPE), "op", new Struct(other).put("id", 1L)))
                .isInstanceOf(DataException.class).hasMessageContaining("field \"op\"");
    }

    @Test
    void acceptsAnUnsetRequiredFieldThatHasADefaultAsValidateDoes() {
        Struct row = StructFields.put(new Struct(ROW), "id", 1L);
        row.validate();
        assertThat(StructFields.put(new Struct(ENVELOPE), "after", row).getStruct("after").get("flag")).isEqualTo(false);
    }

    @Test
    void namesAFieldTheSchemaLacks() {
        assertThatThrownBy(() -> StructFields.put(new Struct(ROW), "missing", 1))
                .isInstanceOf(DataException.class).hasMessageContaining("missing");
    }

    private static Struct row(Struct row, boolean put) {
        Object[][] values = {{"id", 7L}, {"name", "ada"}, {"amount", new BigDecimal("12.50")},
            {"at", new java.util.Date(1_700_000_000_000L)}, {"tags", List.of("x", "y")}, {"attributes", Map.of("k", 3)},
            {"flag", true}};
        for (Object[] value : values) {
            if (put) {
                row.put((String) value[0], value[1]);
            } else {
                StructFields.put(row, (String) value[0], value[1]);
            }
        }
        return row;
    }
}

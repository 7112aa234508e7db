package io.github.pgoutput.connect.shaping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import io.github.pgoutput.connect.config.CustomConverterKeys;
import io.github.pgoutput.connect.config.ShapingKeyException;
import io.github.pgoutput.converters.BuiltInTypes;
import io.github.pgoutput.converters.PgColumnType;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

class CustomConvertersTest {

    private static final ClassLoader LOADER = CustomConvertersTest.class.getClassLoader();

    private static SourceColumn column(String table, String name, int oid) {
        return SourceColumns.describe("public", table, name, PgColumnType.builtIn(oid, -1), true, null, null);
    }

    @Test
    void loadsEachNamedConverterAndConfiguresItWithItsKeysWithoutThePrefix() {
        CustomConverters converters = CustomConverterKeys.load(List.of("upper"), Map.of(
                "upper.type", UpperCaseConverter.class.getName(),
                "upper.tables", "public\\.people",
                "upper.schema.name", "shop.Upper",
                "other.key", "not passed"), LOADER);

        Properties configured = UpperCaseConverter.configured;
        assertThat(configured.stringPropertyNames()).containsExactlyInAnyOrder("type", "tables", "schema.name");
        assertThat(configured.getProperty("tables")).isEqualTo("public\\.people");
        CustomConverters.Registration registration = converters.register(column("people", "name", BuiltInTypes.TEXT)).orElseThrow();
        assertThat(registration.converterName()).isEqualTo("upper");
        assertThat(registration.schema().build().name()).isEqualTo("shop.Upper");
        assertThat(registration.converter().convert("ada")).isEqualTo("ADA");
        assertThat(converters.register(column("orders", "name", BuiltInTypes.TEXT))).as("another table").isEmpty();
        assertThat(converters.register(column("people", "age", BuiltInTypes.INT4))).as("another type").isEmpty();
    }

    @Test
    void theFirstConverterThatRegistersForAColumnWins() {
        CustomConverters converters = CustomConverterKeys.load(CustomConverterKeys.names(" first , ,second"), Map.of(
                "first.type", UpperCaseConverter.class.getName(), "first.tables", "public\\.a",
                "second.type", UpperCaseConverter.class.getName(), "second.schema.name", "second.Schema"), LOADER);

        assertThat(converters.register(column("a", "t", BuiltInTypes.TEXT)).orElseThrow().converterName()).isEqualTo("first");
        assertThat(converters.register(column("b", "t", BuiltInTypes.TEXT)).orElseThrow().converterName()).isEqualTo("second");
    }

    @Test
    void eachRegistrationHasASchemaBuilderOfItsOwn() {
        CustomConverters converters = CustomConverterKeys.load(List.of("c"), Map.of("c.type", UpperCaseConverter.class.getName()),
                LOADER);
        SourceColumn column = column("a", "t", BuiltInTypes.TEXT);

        Schema key = converters.register(column).orElseThrow().schema().build();
        Schema value = converters.register(column).orElseThrow().schema().optional().build();

        assertThat(key.isOptional()).isFalse();
        assertThat(value.isOptional()).isTrue();
    }

    @Test
    void aConverterIsShownTheColumnAsDebeziumDescribesIt() {
        RelationalColumn[] seen = new RelationalColumn[1];
        CustomConverter<SchemaBuilder, RelationalColumn> spy = new CustomConverter<>() {
            @Override
            public void configure(Properties props) {
            }

            @Override
            public void converterFor(RelationalColumn field, ConverterRegistration<SchemaBuilder> registration) {
                seen[0] = field;
            }
        };
        CustomConverters converters = CustomConverters.of(List.of(spy));
        SourceColumn column = SourceColumns.describe("public", "t", "price", PgColumnType.builtIn(BuiltInTypes.NUMERIC,
                ((8 << 16) | 2) + 4), false, "0.00", new java.math.BigDecimal("0.00"));

        assertThat(converters.register(column)).isEmpty();

        RelationalColumn described = seen[0];
        assertThat(described.name()).isEqualTo("price");
        assertThat(described.dataCollection()).isEqualTo("public.t");
        assertThat(described.typeName()).isEqualTo("numeric");
        assertThat(described.typeExpression()).isEqualTo("numeric(8,2)");
        assertThat(described.jdbcType()).isEqualTo(java.sql.Types.NUMERIC);
        assertThat(described.nativeType()).isEqualTo(BuiltInTypes.NUMERIC);
        assertThat(described.length()).hasValue(8);
        assertThat(described.scale()).hasValue(2);
        assertThat(described.isOptional()).isFalse();
        assertThat(described.hasDefaultValue()).isTrue();
        assertThat(described.defaultValue()).isEqualTo(new java.math.BigDecimal("0.00"));
    }

    @Test
    void aConverterThatFailsForAColumnIsNamedWithTheColumn() {
        CustomConverter<SchemaBuilder, RelationalColumn> failing = new CustomConverter<>() {
            @Override
            public void configure(Properties props) {
            }

            @Override
            public void converterFor(RelationalColumn field, ConverterRegistration<SchemaBuilder> registration) {
                throw new IllegalStateException("cannot handle " + field.typeName());
            }
        };

        assertThatThrownBy(() -> CustomConverters.of(List.of(failing)).register(column("t", "c", BuiltInTypes.TEXT)))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("failed for column public.t.c of type text: cannot handle text");
    }

    @Test
    void aMissingTypeKeyIsRefusedOnThatKey() {
        assertThatThrownBy(() -> CustomConverterKeys.load(List.of("isbn"), Map.of(), LOADER))
                .isInstanceOfSatisfying(ShapingKeyException.class, e -> assertThat(e.key()).isEqualTo("isbn.type"))
                .hasMessageContaining("converters lists 'isbn', but isbn.type is not set");
    }

    @Test
    void aClassThatIsNotFoundIsRefusedSayingWhereItsJarGoes() {
        assertThatThrownBy(() -> CustomConverterKeys.load(List.of("isbn"), Map.of("isbn.type", "com.example.IsbnConverter"), LOADER))
                .isInstanceOfSatisfying(ShapingKeyException.class, e -> assertThat(e.key()).isEqualTo("isbn.type"))
                .hasMessageContaining("is not found in the connector's plugin")
                .hasMessageContaining("plugin folder");
    }

    @Test
    void aClassThatIsNoCustomConverterIsRefused() {
        assertThatThrownBy(() -> CustomConverterKeys.load(List.of("x"), Map.of("x.type", NotAConverter.class.getName()), LOADER))
                .isInstanceOfSatisfying(ShapingKeyException.class, e -> assertThat(e.key()).isEqualTo("x.type"))
                .hasMessageContaining("does not implement io.debezium.spi.converter.CustomConverter");
    }

    @Test
    void aConverterWhoseConfigureFailsIsRefusedNamingItsKeys() {
        assertThatThrownBy(() -> CustomConverterKeys.load(List.of("x"), Map.of("x.type", FailingConverter.class.getName(),
                "x.pattern", "[unclosed"), LOADER))
                .isInstanceOfSatisfying(ShapingKeyException.class, e -> assertThat(e.key()).isEqualTo("x.type"))
                .hasMessageContaining("configuring it with the x.* keys").hasMessageContaining("bad pattern");
    }

    /** A converter whose configuration refuses a key. */
    public static class FailingConverter implements CustomConverter<SchemaBuilder, RelationalColumn> {
        @Override
        public void configure(Properties props) {
            throw new IllegalArgumentException("bad pattern " + props.getProperty("pattern"));
        }

        @Override
        public void converterFor(RelationalColumn field, ConverterRegistration<SchemaBuilder> registration) {
        }
    }
}

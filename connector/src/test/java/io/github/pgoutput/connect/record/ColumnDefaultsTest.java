package io.github.pgoutput.connect.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Optional;

import io.github.pgoutput.converters.ColumnConverter;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PgColumnType;
import io.github.pgoutput.converters.PostgresTypeMapper;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.Test;

/** Column defaults and the values of required fields a change leaves out, as Debezium's PostgreSQL connector has them. */
class ColumnDefaultsTest {

    private static final PostgresTypeMapper TYPES = new PostgresTypeMapper(ConverterOptions.DEFAULTS);

    private static ColumnConverter builtIn(int oid, int typmod) {
        return TYPES.converterFor(PgColumnType.builtIn(oid, typmod));
    }

    private static ColumnConverter builtIn(int oid) {
        return builtIn(oid, -1);
    }

    private static Optional<Object> defaultOf(ColumnConverter converter, String expression) {
        return ColumnDefaults.of(converter, expression);
    }

    @Test
    void literalsWithOrWithoutCastAreTheValueInTheColumnsOwnType() {
        assertThat(defaultOf(builtIn(25), "'abc'::text")).contains("abc");
        assertThat(defaultOf(builtIn(1043), "'it''s'::character varying")).contains("it's");
        assertThat(defaultOf(builtIn(23), "42")).contains(42);
        assertThat(defaultOf(builtIn(23), "'-1'::integer")).contains(-1);
        assertThat(defaultOf(builtIn(20), "'9223372036854775807'::bigint")).contains(Long.MAX_VALUE);
        assertThat(defaultOf(builtIn(21), "7")).contains((short) 7);
        assertThat(defaultOf(builtIn(701), "1.5")).contains(1.5d);
        assertThat(defaultOf(builtIn(16), "true")).contains(true);
        assertThat(defaultOf(builtIn(16), "false")).contains(false);
    }

    @Test
    void aNumericDefaultTakesTheColumnsScale() {
        // numeric(10,2): typmod ((10 << 16) | 2) + 4
        ColumnConverter numeric = builtIn(1700, ((10 << 16) | 2) + 4);

        assertThat(defaultOf(numeric, "0")).contains(new BigDecimal("0.00"));
        assertThat(defaultOf(numeric, "12.5")).contains(new BigDecimal("12.50"));
    }

    @Test
    void functionsAndCurrentTimesStandForTheTypesZeroAsDebeziumsPlaceholders() {
        assertThat(defaultOf(builtIn(23), "nextval('orders_id_seq'::regclass)")).contains(0);
        assertThat(defaultOf(builtIn(20), "nextval('orders_id_seq'::regclass)")).contains(0L);
        assertThat(defaultOf(builtIn(25), "gen_random_uuid()::text")).contains("");
        assertThat(defaultOf(builtIn(3802), "jsonb_build_object()")).contains("{}");
        assertThat(defaultOf(builtIn(1184), "now()")).isPresent();
        assertThat(defaultOf(builtIn(1184), "now()")).isEqualTo(defaultOf(builtIn(1184), "'1970-01-01 00:00:00+00'::timestamp with time zone"));
        assertThat(defaultOf(builtIn(1184), "CURRENT_TIMESTAMP")).isEqualTo(defaultOf(builtIn(1184), "now()"));
        assertThat(defaultOf(builtIn(1082), "CURRENT_DATE")).isEqualTo(defaultOf(builtIn(1082), "'1970-01-01'::date"));
    }

    @Test
    void noDefaultForNullTypesDebeziumDoesNotReadAndExpressionsThatAreNoLiteral() {
        assertThat(defaultOf(builtIn(25), "NULL::text")).isEmpty();
        assertThat(defaultOf(builtIn(23), "(1 + 2)")).isEmpty();
        assertThat(defaultOf(builtIn(17), "'\\\\x00'::bytea")).as("bytea").isEmpty();
        assertThat(defaultOf(builtIn(1266), "'10:00:00+02'::time with time zone")).as("timetz").isEmpty();
        assertThat(defaultOf(builtIn(1007), "'{1,2}'::integer[]")).as("arrays").isEmpty();
        assertThat(defaultOf(builtIn(23), null)).isEmpty();
    }

    @Test
    void aVariableScaleNumericHasNoDefaultAsConnectCannotHoldAStructOne() {
        assertThat(defaultOf(builtIn(1700), "1.5")).isEmpty();
    }

    @Test
    void anEnumDefaultIsItsLabelWhenTheCastNamesTheEnum() {
        ColumnConverter mood = TYPES.converterFor(new PgColumnType(16500, -1, "public", "mood",
                new PgColumnType.Enum(java.util.List.of("sad", "happy"))));

        assertThat(defaultOf(mood, "'happy'::mood")).contains("happy");
        assertThat(defaultOf(mood, "'happy'::public.mood")).contains("happy");
        assertThat(defaultOf(mood, "'happy'::other")).isEmpty();
    }

    @Test
    void aRequiredFieldWithoutValueTakesItsDefaultElseTheTypesZero() {
        Schema withDefault = ColumnFields.schema(builtIn(25), false, Optional.of("unnamed"));

        assertThat(withDefault.isOptional()).isFalse();
        assertThat(withDefault.defaultValue()).isEqualTo("unnamed");
        assertThat(ColumnFields.missing(builtIn(25), withDefault)).contains("unnamed");
        assertThat(ColumnFields.missing(builtIn(25), builtIn(25).schema(false))).contains("");
        assertThat(ColumnFields.missing(builtIn(23), builtIn(23).schema(false))).contains(0);
        assertThat(ColumnFields.missing(builtIn(16), builtIn(16).schema(false))).contains(false);
        assertThat(ColumnFields.missing(builtIn(17), builtIn(17).schema(false)).get()).isInstanceOf(byte[].class);
        ColumnConverter numeric = builtIn(1700, ((10 << 16) | 2) + 4);
        assertThat(ColumnFields.missing(numeric, numeric.schema(false))).contains(new BigDecimal("0.00"));
        ColumnConverter timestamptz = builtIn(1184);
        assertThat(ColumnFields.missing(timestamptz, timestamptz.schema(false)))
                .isEqualTo(Optional.of(timestamptz.fromText("1970-01-01 00:00:00+00")));
    }

    @Test
    void aStructTypeWithoutZeroHasNoValueToStandIn() {
        Schema struct = SchemaBuilder.struct().name("some.Composite").field("a", Schema.INT32_SCHEMA).build();

        assertThat(ColumnFields.missing(builtIn(2249), struct)).isEmpty();
    }
}

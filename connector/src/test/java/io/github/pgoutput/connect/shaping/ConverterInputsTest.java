package io.github.pgoutput.connect.shaping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.util.List;

import io.github.pgoutput.converters.BuiltInTypes;
import io.github.pgoutput.converters.PgColumnType;
import org.junit.jupiter.api.Test;
import org.postgresql.geometric.PGbox;
import org.postgresql.geometric.PGcircle;
import org.postgresql.geometric.PGline;
import org.postgresql.geometric.PGpath;
import org.postgresql.geometric.PGpoint;
import org.postgresql.util.PGInterval;

/** What a custom converter is handed: the Java values Debezium's pgoutput decoder hands for the same text. */
class ConverterInputsTest {

    private static Object of(int oid, String text) {
        return ConverterInputs.of(PgColumnType.builtIn(oid, -1), text);
    }

    @Test
    void numbersAndBooleansAsTheirJavaTypes() {
        assertThat(of(BuiltInTypes.BOOL, "t")).isEqualTo(true);
        assertThat(of(BuiltInTypes.BOOL, "f")).isEqualTo(false);
        assertThat(of(BuiltInTypes.INT2, "-5")).isEqualTo(-5);
        assertThat(of(BuiltInTypes.INT4, "42")).isEqualTo(42);
        assertThat(of(BuiltInTypes.INT8, "9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(of(BuiltInTypes.OID, "4294967295")).isEqualTo(4294967295L);
        assertThat(of(BuiltInTypes.FLOAT4, "NaN")).isEqualTo(Float.NaN);
        assertThat(of(BuiltInTypes.FLOAT8, "-Infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(of(BuiltInTypes.NUMERIC, "3.140")).isEqualTo(new BigDecimal("3.140"));
        assertThat(of(BuiltInTypes.NUMERIC, "NaN")).isEqualTo(Double.NaN);
        assertThat(of(BuiltInTypes.MONEY, "-$1,234.56")).isEqualTo(new BigDecimal("-1234.56"));
    }

    @Test
    void datesAndTimesAsDebeziumsDecoderReadsThem() {
        assertThat(of(BuiltInTypes.DATE, "2024-02-29")).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(of(BuiltInTypes.TIMESTAMP, "2024-02-29 13:45:30.123456"))
                .isEqualTo(Instant.parse("2024-02-29T13:45:30.123456Z"));
        assertThat(of(BuiltInTypes.TIMESTAMPTZ, "2024-02-29 13:45:30+02"))
                .isEqualTo(OffsetDateTime.parse("2024-02-29T11:45:30Z"));
        assertThat(of(BuiltInTypes.TIMETZ, "13:45:30.5+05:30")).isEqualTo(OffsetTime.parse("08:15:30.5Z"));
        assertThat(of(BuiltInTypes.TIME, "24:00:00")).as("the text, as Debezium hands a time").isEqualTo("24:00:00");
        assertThat(of(BuiltInTypes.TIMESTAMPTZ, "infinity")).isEqualTo(ConverterInputs.POSITIVE_INFINITY_OFFSET_DATE_TIME);
    }

    @Test
    void infiniteDatesAndTimestampsAsDebezium37HandsThem() {
        // pgjdbc's infinity markers, milliseconds since 1970, as instants; dates +5877611-06-21 and -5877611-06-22.
        assertThat(of(BuiltInTypes.TIMESTAMP, "infinity")).isEqualTo(Instant.ofEpochMilli(9223372036825200000L));
        assertThat(of(BuiltInTypes.TIMESTAMP, "-infinity")).isEqualTo(Instant.ofEpochMilli(-9223372036832400000L));
        assertThat(of(BuiltInTypes.TIMESTAMPTZ, "infinity"))
                .isEqualTo(OffsetDateTime.parse("+292278994-08-16T23:00:00Z"));
        assertThat(of(BuiltInTypes.TIMESTAMPTZ, "-infinity"))
                .isEqualTo(OffsetDateTime.parse("-292275055-05-16T23:00:00Z"));
        assertThat(of(BuiltInTypes.DATE, "infinity")).isEqualTo(LocalDate.parse("+5877611-06-21"));
        assertThat(of(BuiltInTypes.DATE, "-infinity")).isEqualTo(LocalDate.parse("-5877611-06-22"));
    }

    @Test
    void bytesIntervalsAndGeometryAsPgjdbcObjects() throws Exception {
        assertThat((byte[]) of(BuiltInTypes.BYTEA, "\\xdeadbeef")).containsExactly(0xde, 0xad, 0xbe, 0xef);
        assertThat(of(BuiltInTypes.INTERVAL, "1 year 2 mons")).isEqualTo(new PGInterval("1 year 2 mons"));
        assertThat(of(BuiltInTypes.POINT, "(1.5,2.5)")).isEqualTo(new PGpoint(1.5, 2.5));
        assertThat(of(BuiltInTypes.BOX, "(1,1),(0,0)")).isEqualTo(new PGbox(1, 1, 0, 0));
        assertThat(of(BuiltInTypes.PATH, "[(0,0),(1,1)]")).isEqualTo(new PGpath("[(0,0),(1,1)]"));
        assertThat(of(BuiltInTypes.CIRCLE, "<(0,0),1>")).isEqualTo(new PGcircle(0, 0, 1));
        assertThat(of(BuiltInTypes.LINE, "{1,-1,0}")).isEqualTo(new PGline(1, -1, 0));
    }

    @Test
    void otherTypesAsTheirText() {
        assertThat(of(BuiltInTypes.UUID, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")).isEqualTo("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        assertThat(of(BuiltInTypes.JSONB, "{\"a\": 1}")).isEqualTo("{\"a\": 1}");
        assertThat(of(1007, "{1,2}")).as("an array").isEqualTo("{1,2}");
        assertThat(ConverterInputs.of(new PgColumnType(16400, -1, "public", "mood", new PgColumnType.Enum(List.of("ok"))), "ok"))
                .isEqualTo("ok");
    }

    @Test
    void aDomainAsItsBaseTypeAndNullAsNull() {
        PgColumnType domain = new PgColumnType(16500, -1, "public", "qty", new PgColumnType.Domain(
                PgColumnType.builtIn(BuiltInTypes.INT4, -1)));

        assertThat(ConverterInputs.of(domain, "7")).isEqualTo(7);
        assertThat(ConverterInputs.of(domain, null)).isNull();
    }

    @Test
    void textThatIsNoValueOfTheTypeIsRefusedNamingTheType() {
        assertThatThrownBy(() -> of(BuiltInTypes.INT4, "seven")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'seven' is not a pg_catalog.int4");
    }
}

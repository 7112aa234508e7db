package io.github.pgoutput.connect.shaping;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.HexFormat;

import io.github.pgoutput.converters.BuiltInTypes;
import io.github.pgoutput.converters.PgColumnType;
import io.github.pgoutput.converters.PostgresText;
import org.postgresql.geometric.PGbox;
import org.postgresql.geometric.PGcircle;
import org.postgresql.geometric.PGline;
import org.postgresql.geometric.PGlseg;
import org.postgresql.geometric.PGpath;
import org.postgresql.geometric.PGpoint;
import org.postgresql.geometric.PGpolygon;
import org.postgresql.util.PGInterval;

/**
 * The value a custom converter's {@code convert} is handed for a column value, made from the value's text form: the
 * Java object Debezium's pgoutput decoder hands it for the same type, so converters written for Debezium find what
 * they test for. By the column's root type (a domain's base type):
 * <ul>
 *   <li>{@code bool}: Boolean; {@code int2}, {@code int4}: Integer; {@code int8}, {@code oid}: Long; {@code float4}:
 *       Float; {@code float8}: Double; {@code money}: BigDecimal;</li>
 *   <li>{@code numeric}: BigDecimal, and Double NaN or an infinity for PostgreSQL's special values (Debezium hands its
 *       own {@code SpecialValueDecimal}, a class of its core that this connector does not have);</li>
 *   <li>{@code date}: LocalDate; {@code timestamp}: Instant (the wall clock read as UTC); {@code timestamptz}:
 *       OffsetDateTime at UTC; {@code timetz}: OffsetTime at UTC; {@code time}: the String, as Debezium; infinities as
 *       Debezium's values for them;</li>
 *   <li>{@code bytea}: byte[]; {@code interval}: pgjdbc's PGInterval; the geometric types: pgjdbc's PGpoint, PGbox,
 *       PGcircle, PGline, PGlseg, PGpath, PGpolygon;</li>
 *   <li>every other type, arrays included, the String PostgreSQL prints (Debezium hands an array as a pgjdbc
 *       {@code PgArray} bound to its connection, and a type it does not know as null).</li>
 * </ul>
 * NULL is null: a converter is called for it too, as Debezium calls it.
 *
 * <p>Stateless and thread-safe.
 */
public final class ConverterInputs {

    /**
     * Debezium 3.7's stand-ins for infinite timestamps and dates: the instants of pgjdbc's infinity markers
     * (milliseconds since 1970), and the dates +5877611-06-21 and -5877611-06-22.
     */
    private static final long PGJDBC_POSITIVE_INFINITY = 9223372036825200000L;
    private static final long PGJDBC_NEGATIVE_INFINITY = -9223372036832400000L;
    static final Instant POSITIVE_INFINITY_INSTANT = Instant.ofEpochMilli(PGJDBC_POSITIVE_INFINITY);
    static final Instant NEGATIVE_INFINITY_INSTANT = Instant.ofEpochMilli(PGJDBC_NEGATIVE_INFINITY);
    static final OffsetDateTime POSITIVE_INFINITY_OFFSET_DATE_TIME =
            OffsetDateTime.ofInstant(POSITIVE_INFINITY_INSTANT, ZoneOffset.UTC);
    static final OffsetDateTime NEGATIVE_INFINITY_OFFSET_DATE_TIME =
            OffsetDateTime.ofInstant(NEGATIVE_INFINITY_INSTANT, ZoneOffset.UTC);
    static final LocalDate POSITIVE_INFINITY_LOCAL_DATE = LocalDate.parse("+5877611-06-21");
    static final LocalDate NEGATIVE_INFINITY_LOCAL_DATE = LocalDate.parse("-5877611-06-22");

    private ConverterInputs() {
    }

    /**
     * @param type the column's type
     * @param text the value as PostgreSQL prints it; null for NULL
     * @throws IllegalArgumentException when the text is not what PostgreSQL prints for the type
     */
    public static Object of(PgColumnType type, String text) {
        if (text == null) {
            return null;
        }
        PgColumnType root = SourceColumns.root(type);
        if (!(root.kind() instanceof PgColumnType.Base)) {
            return text;
        }
        try {
            return switch (root.oid()) {
                case BuiltInTypes.BOOL -> text.equals("t");
                case BuiltInTypes.INT2, BuiltInTypes.INT4 -> Integer.valueOf(text);
                case BuiltInTypes.INT8, BuiltInTypes.OID -> Long.valueOf(text);
                case BuiltInTypes.FLOAT4 -> Float.valueOf(text);
                case BuiltInTypes.FLOAT8 -> Double.valueOf(text);
                case BuiltInTypes.NUMERIC -> numeric(text);
                case BuiltInTypes.MONEY -> money(text);
                case BuiltInTypes.DATE -> date(text);
                case BuiltInTypes.TIMESTAMP -> instant(text);
                case BuiltInTypes.TIMESTAMPTZ -> offsetDateTime(text);
                case BuiltInTypes.TIMETZ -> LocalTime.ofNanoOfDay(PostgresText.timeTzMicrosAtUtc(text) * 1000)
                        .atOffset(ZoneOffset.UTC);
                case BuiltInTypes.BYTEA -> HexFormat.of().parseHex(text.substring(2));
                case BuiltInTypes.INTERVAL -> new PGInterval(text);
                case BuiltInTypes.POINT -> new PGpoint(text);
                case BuiltInTypes.BOX -> new PGbox(text);
                case BuiltInTypes.CIRCLE -> new PGcircle(text);
                case BuiltInTypes.LINE -> new PGline(text);
                case BuiltInTypes.LSEG -> new PGlseg(text);
                case BuiltInTypes.PATH -> new PGpath(text);
                case BuiltInTypes.POLYGON -> new PGpolygon(text);
                default -> text;
            };
        } catch (SQLException | RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a " + type.describe() + " value as PostgreSQL prints"
                    + " it: " + e.getMessage(), e);
        }
    }

    private static Object numeric(String text) {
        return switch (text) {
            case "NaN" -> Double.NaN;
            case "Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> new BigDecimal(text);
        };
    }

    /** {@code $1,234.56}, {@code -$0.01} or {@code ($0.01)}: the digits, the point and the sign. */
    private static BigDecimal money(String text) {
        boolean negative = text.startsWith("-") || text.startsWith("(");
        StringBuilder digits = new StringBuilder(negative ? "-" : "");
        for (char c : text.toCharArray()) {
            if (Character.isDigit(c) || c == '.') {
                digits.append(c);
            }
        }
        return new BigDecimal(digits.toString());
    }

    private static LocalDate date(String text) {
        int day = PostgresText.epochDay(text);
        if (day == PostgresText.DATE_POSITIVE_INFINITY) {
            return POSITIVE_INFINITY_LOCAL_DATE;
        }
        if (day == PostgresText.DATE_NEGATIVE_INFINITY) {
            return NEGATIVE_INFINITY_LOCAL_DATE;
        }
        return LocalDate.ofEpochDay(day);
    }

    private static Instant instant(String text) {
        long micros = PostgresText.epochMicros(text);
        if (micros == PostgresText.TIMESTAMP_POSITIVE_INFINITY) {
            return POSITIVE_INFINITY_INSTANT;
        }
        if (micros == PostgresText.TIMESTAMP_NEGATIVE_INFINITY) {
            return NEGATIVE_INFINITY_INSTANT;
        }
        return fromMicros(micros);
    }

    private static Instant fromMicros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    }

    private static OffsetDateTime offsetDateTime(String text) {
        long micros = PostgresText.epochMicros(text);
        if (micros == PostgresText.TIMESTAMP_POSITIVE_INFINITY) {
            return POSITIVE_INFINITY_OFFSET_DATE_TIME;
        }
        if (micros == PostgresText.TIMESTAMP_NEGATIVE_INFINITY) {
            return NEGATIVE_INFINITY_OFFSET_DATE_TIME;
        }
        return OffsetDateTime.ofInstant(fromMicros(micros), ZoneOffset.UTC);
    }
}

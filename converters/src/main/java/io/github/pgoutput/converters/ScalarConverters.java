package io.github.pgoutput.converters;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.SchemaBuilder;

/** The converters of non-array types, one method per family; the mapping table is {@code converters/TYPES.md}. */
final class ScalarConverters {

    private final ConverterOptions options;
    private final String placeholder;
    private final TemporalConverters temporal;

    ScalarConverters(ConverterOptions options) {
        this.options = options;
        this.placeholder = options.unavailableValuePlaceholder();
        this.temporal = new TemporalConverters(options.temporalPrecisionMode(), placeholder);
    }

    ColumnConverter forBase(PgColumnType type) {
        return switch (type.oid()) {
            case BuiltInTypes.BOOL -> new ScalarConverter(type, SchemaBuilder::bool, ScalarConverters::bool,
                    in -> end(in, in.uint8() != 0), null);
            case BuiltInTypes.INT2 -> new ScalarConverter(type, SchemaBuilder::int16, Short::valueOf, in -> end(in, in.int16()), null);
            case BuiltInTypes.INT4 -> new ScalarConverter(type, SchemaBuilder::int32, Integer::valueOf, in -> end(in, in.int32()), null);
            case BuiltInTypes.INT8 -> new ScalarConverter(type, SchemaBuilder::int64, Long::valueOf, in -> end(in, in.int64()), null);
            // oid is an unsigned 32-bit number: int64 holds all of it.
            case BuiltInTypes.OID -> new ScalarConverter(type, SchemaBuilder::int64, ScalarConverters::unsignedInt,
                    in -> end(in, in.int32() & 0xFFFF_FFFFL), null);
            case BuiltInTypes.FLOAT4 -> new ScalarConverter(type, SchemaBuilder::float32, Float::valueOf,
                    in -> end(in, Float.intBitsToFloat(in.int32())), null);
            case BuiltInTypes.FLOAT8 -> new ScalarConverter(type, SchemaBuilder::float64, Double::valueOf,
                    in -> end(in, Double.longBitsToDouble(in.int64())), null);
            case BuiltInTypes.NUMERIC -> numeric(type);
            case BuiltInTypes.MONEY -> money(type);
            case BuiltInTypes.TEXT, BuiltInTypes.VARCHAR, BuiltInTypes.BPCHAR, BuiltInTypes.NAME ->
                    string(type, SchemaBuilder::string, text -> text);
            case BuiltInTypes.CHAR -> new ScalarConverter(type, SchemaBuilder::string, text -> text, TextForms::charFromSend, placeholder);
            case BuiltInTypes.BYTEA -> bytea(type);
            case BuiltInTypes.JSON -> string(type, named(SchemaNames.JSON), text -> text);
            case BuiltInTypes.JSONB -> new ScalarConverter(type, named(SchemaNames.JSON), text -> text,
                    ScalarConverters::jsonbFromSend, placeholder);
            case BuiltInTypes.XML -> string(type, named(SchemaNames.XML), text -> text);
            case BuiltInTypes.UUID -> new ScalarConverter(type, named(SchemaNames.UUID), ScalarConverters::uuid,
                    in -> end(in, new UUID(in.int64(), in.int64()).toString()), placeholder);
            case BuiltInTypes.DATE -> temporal.date(type);
            case BuiltInTypes.TIME -> temporal.time(type);
            case BuiltInTypes.TIMETZ -> temporal.timeTz(type);
            case BuiltInTypes.TIMESTAMP -> temporal.timestamp(type);
            case BuiltInTypes.TIMESTAMPTZ -> temporal.timestampTz(type);
            case BuiltInTypes.INTERVAL -> interval(type);
            case BuiltInTypes.INET -> new ScalarConverter(type, SchemaBuilder::string, text -> text,
                    in -> NetworkAddresses.inetFromSend(in, false), placeholder);
            case BuiltInTypes.CIDR -> new ScalarConverter(type, SchemaBuilder::string, text -> text,
                    in -> NetworkAddresses.inetFromSend(in, true), placeholder);
            case BuiltInTypes.MACADDR -> new ScalarConverter(type, SchemaBuilder::string, text -> text,
                    in -> NetworkAddresses.macFromSend(in, 6), placeholder);
            case BuiltInTypes.MACADDR8 -> new ScalarConverter(type, SchemaBuilder::string, text -> text,
                    in -> NetworkAddresses.macFromSend(in, 8), placeholder);
            case BuiltInTypes.BIT, BuiltInTypes.VARBIT -> Bits.converter(type, placeholder);
            case BuiltInTypes.POINT -> Points.converter(type);
            case BuiltInTypes.BOX, BuiltInTypes.LSEG, BuiltInTypes.PATH, BuiltInTypes.POLYGON, BuiltInTypes.CIRCLE,
                    BuiltInTypes.LINE -> GeometricTypes.converter(type);
            case BuiltInTypes.TSVECTOR -> new ScalarConverter(type, named(SchemaNames.TS_VECTOR), text -> text, null, placeholder);
            default -> extension(type);
        };
    }

    /**
     * Extension types have no fixed OID; like Debezium, the ones it knows are recognised by name. Every other type
     * goes out as its text form.
     */
    private ColumnConverter extension(PgColumnType type) {
        if (type.oid() >= BuiltInTypes.FIRST_USER_OID) {
            switch (type.name()) {
                case "hstore":
                    return HStores.converter(type, options.hstoreHandlingMode(), placeholder);
                case "ltree":
                    return new ScalarConverter(type, named(SchemaNames.LTREE), text -> text,
                            ScalarConverters::versionedTextFromSend, placeholder);
                default:
                    break;
            }
        }
        return textForm(type);
    }

    private ColumnConverter bytea(PgColumnType type) {
        BinaryHandlingMode mode = options.binaryHandlingMode();
        if (mode == BinaryHandlingMode.BYTES) {
            return new ScalarConverter(type, SchemaBuilder::bytes, TextForms::byteaFromText,
                    in -> in.bytes(in.remaining()), placeholder.getBytes(StandardCharsets.UTF_8));
        }
        java.util.function.Function<byte[], String> encode = switch (mode) {
            case BASE64 -> bytes -> Base64.getEncoder().encodeToString(bytes);
            case BASE64_URL_SAFE -> bytes -> Base64.getUrlEncoder().encodeToString(bytes);
            default -> TextForms::hex;
        };
        return new ScalarConverter(type, SchemaBuilder::string, text -> encode.apply(TextForms.byteaFromText(text)),
                in -> encode.apply(in.bytes(in.remaining())), placeholder);
    }

    private ColumnConverter interval(PgColumnType type) {
        if (options.intervalHandlingMode() == IntervalHandlingMode.STRING) {
            return new ScalarConverter(type, named(SchemaNames.INTERVAL), text -> Intervals.isoString(Intervals.fromText(text)),
                    in -> Intervals.isoString(Intervals.fromSend(in)), placeholder);
        }
        return new ScalarConverter(type, () -> SchemaBuilder.int64().name(SchemaNames.MICRO_DURATION).version(SchemaNames.VERSION),
                text -> Intervals.microDuration(Intervals.fromText(text)),
                in -> Intervals.microDuration(Intervals.fromSend(in)), null);
    }

    /** An enum label as a string; the send form is the label's bytes. */
    ColumnConverter forEnum(PgColumnType type, List<String> labels) {
        Supplier<SchemaBuilder> schema = () -> {
            // Debezium writes the parameter also when no label is known, then empty.
            return SchemaBuilder.string().name(SchemaNames.ENUM).version(SchemaNames.VERSION)
                    .parameter(SchemaNames.ENUM_ALLOWED_PARAMETER, String.join(",", labels));
        };
        return string(type, schema, text -> text);
    }

    /** Any type without a dedicated conversion: its text output as a string; its send form is refused. */
    ColumnConverter textForm(PgColumnType type) {
        return new ScalarConverter(type, SchemaBuilder::string, text -> text, null, placeholder);
    }

    private ColumnConverter string(PgColumnType type, Supplier<SchemaBuilder> schema, ScalarConverter.TextDecoder text) {
        return new ScalarConverter(type, schema, text, in -> utf8(in.bytes(in.remaining())), placeholder);
    }

    private ColumnConverter numeric(PgColumnType type) {
        int typmod = type.typmod();
        return switch (options.decimalHandlingMode()) {
            case DOUBLE -> new ScalarConverter(type, SchemaBuilder::float64, text -> Numerics.parseText(text).toDouble(),
                    in -> Numerics.parseSend(in).toDouble(), null);
            case STRING -> new ScalarConverter(type, SchemaBuilder::string, text -> Numerics.parseText(text).toPlainString(),
                    in -> Numerics.parseSend(in).toPlainString(), placeholder);
            case PRECISE -> typmod == -1 ? VariableScaleDecimal.converter(type) : fixedScale(type, typmod);
        };
    }

    /**
     * numeric(p,s) as Connect Decimal. Avro decimals need 0 <= scale <= precision, PostgreSQL 15+ allows a
     * negative scale and a scale above the precision: a negative scale is held as scale 0 (the values are
     * whole numbers) and the precision is widened to cover every digit the column can hold.
     */
    private ColumnConverter fixedScale(PgColumnType type, int typmod) {
        int declaredScale = Numerics.scale(typmod);
        int precision = Numerics.precision(typmod);
        int scale = Math.max(declaredScale, 0);
        int avroPrecision = declaredScale < 0 ? precision - declaredScale : Math.max(precision, declaredScale);
        Supplier<SchemaBuilder> schema = () -> Decimal.builder(scale)
                .parameter(SchemaNames.DECIMAL_PRECISION_PARAMETER, Integer.toString(avroPrecision));
        return new ScalarConverter(type, schema, text -> exact(type, Numerics.parseText(text), scale),
                in -> exact(type, Numerics.parseSend(in), scale), null);
    }

    static BigDecimal exact(PgColumnType type, Numerics.Value value, int scale) {
        if (value.decimal() == null) {
            throw specialInPreciseMode(type, value.special());
        }
        return value.decimal().setScale(scale, RoundingMode.UNNECESSARY);
    }

    /**
     * A decimal cannot hold NaN or an infinity, and turning one into null or a number would silently change the
     * data; the conversion fails and tells the user which mode can carry the value.
     */
    static ValueConversionException specialInPreciseMode(PgColumnType type, String special) {
        return new ValueConversionException("numeric value " + special + " of " + type.describe() + " cannot be "
                + "represented with decimal.handling.mode=precise (a Connect Decimal holds only finite numbers). Set "
                + "decimal.handling.mode=string to keep it exactly, or =double for IEEE NaN/Infinity.");
    }

    /** money: minor units in int64 (send form); the text form depends on lc_monetary, see TextForms. */
    private ColumnConverter money(PgColumnType type) {
        int digits = options.moneyFractionDigits();
        return switch (options.decimalHandlingMode()) {
            // Debezium gives money's Decimal no precision parameter.
            case PRECISE -> new ScalarConverter(type, () -> Decimal.builder(digits),
                    text -> TextForms.moneyFromText(text, digits), in -> end(in, BigDecimal.valueOf(in.int64(), digits)), null);
            case DOUBLE -> new ScalarConverter(type, SchemaBuilder::float64, text -> TextForms.moneyFromText(text, digits).doubleValue(),
                    in -> end(in, BigDecimal.valueOf(in.int64(), digits).doubleValue()), null);
            case STRING -> new ScalarConverter(type, SchemaBuilder::string, text -> TextForms.moneyFromText(text, digits).toPlainString(),
                    in -> end(in, BigDecimal.valueOf(in.int64(), digits).toPlainString()), placeholder);
        };
    }

    private static Boolean bool(String text) {
        return switch (text) {
            case "t" -> Boolean.TRUE;
            case "f" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("boolean output is 't' or 'f'");
        };
    }

    private static Long unsignedInt(String text) {
        return Integer.toUnsignedLong(Integer.parseUnsignedInt(text));
    }

    private static String uuid(String text) {
        String canonical = UUID.fromString(text).toString();
        if (!canonical.equals(text)) {
            throw new IllegalArgumentException("not a canonical lower-case UUID");
        }
        return text;
    }

    /** jsonb_send: a version byte (1, the only one defined) and the document as jsonb's text output. */
    private static String jsonbFromSend(BinaryReader in) {
        return versionedTextFromSend(in);
    }

    /** jsonb_send and ltree_send: a version byte (1, the only one defined), then the value's text output. */
    private static String versionedTextFromSend(BinaryReader in) {
        int version = in.uint8();
        if (version != 1) {
            throw new IllegalArgumentException("send format version " + version + "; only version 1 is known");
        }
        return utf8(in.bytes(in.remaining()));
    }

    /**
     * Binary values are sent in the server encoding, without conversion to the client's; decoding strictly
     * turns a non-UTF-8 database into a clear error instead of replacement characters.
     */
    static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ValueConversionException("binary text value is not valid UTF-8. pgoutput sends binary values in "
                    + "the database encoding without conversion; use a UTF8 database or turn the 'binary' option off.", e);
        }
    }

    /** A string schema with one of Debezium's names and its version. */
    static Supplier<SchemaBuilder> named(String name) {
        return () -> SchemaBuilder.string().name(name).version(SchemaNames.VERSION);
    }

    /** Returns {@code value} after checking the send form had no bytes left over. */
    private static <T> T end(BinaryReader in, T value) {
        in.expectEnd();
        return value;
    }
}

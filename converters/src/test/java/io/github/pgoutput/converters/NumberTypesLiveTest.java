package io.github.pgoutput.converters;

import static io.github.pgoutput.converters.Expected.decimal;
import static io.github.pgoutput.converters.Expected.variableScale;
import static io.github.pgoutput.converters.TypeCase.failing;
import static io.github.pgoutput.converters.TypeCase.nullOf;
import static io.github.pgoutput.converters.TypeCase.of;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/** Integer, floating-point, boolean, numeric and money values as a live server prints and sends them. */
@Timeout(120)
class NumberTypesLiveTest {

    private static final String HUGE = "9".repeat(1000) + "." + "0123456789".repeat(50);

    @PostgresTest
    void integersBooleansAndOidsKeepTheirFullRange(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("int2"), of("int2", "-32768", (short) -32768), of("int2", "32767", (short) 32767), of("int2", "0", (short) 0),
                nullOf("int4"), of("int4", "-2147483648", Integer.MIN_VALUE), of("int4", "2147483647", Integer.MAX_VALUE),
                nullOf("int8"), of("int8", "-9223372036854775808", Long.MIN_VALUE), of("int8", "9223372036854775807", Long.MAX_VALUE),
                of("int8", "-1", -1L),
                nullOf("oid"), of("oid", "0", 0L), of("oid", "4294967295", 4_294_967_295L), of("oid", "2147483648", 2_147_483_648L),
                nullOf("bool"), of("bool", "true", true), of("bool", "false", false));
        ConversionChecks.assertConversions(new PostgresTypeMapper(ConverterOptions.DEFAULTS), LiveValues.observe(database, cases));
    }

    @PostgresTest
    void floatsKeepNegativeZeroDenormalsNaNAndInfinities(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("float4"), of("float4", "'NaN'", Float.NaN), of("float4", "'Infinity'", Float.POSITIVE_INFINITY),
                of("float4", "'-Infinity'", Float.NEGATIVE_INFINITY), of("float4", "'-0'", -0.0f),
                of("float4", "'1.4e-45'", Float.MIN_VALUE), of("float4", "'1.17549435e-38'", Float.MIN_NORMAL),
                of("float4", "'3.4028235e38'", Float.MAX_VALUE), of("float4", "0.1", 0.1f),
                nullOf("float8"), of("float8", "'NaN'", Double.NaN), of("float8", "'Infinity'", Double.POSITIVE_INFINITY),
                of("float8", "'-Infinity'", Double.NEGATIVE_INFINITY), of("float8", "'-0'", -0.0d),
                of("float8", "'4.9e-324'", Double.MIN_VALUE), of("float8", "'2.2250738585072014e-308'", Double.MIN_NORMAL),
                of("float8", "'1.7976931348623157e308'", Double.MAX_VALUE), of("float8", "0.1", 0.1d),
                of("float8", "1e-30", 1e-30));
        ConversionChecks.assertConversions(new PostgresTypeMapper(ConverterOptions.DEFAULTS), LiveValues.observe(database, cases));
    }

    @PostgresTest
    void numericIsExactInPreciseModeAndRefusesNaNAndInfinities(PostgresDatabase database) throws Exception {
        // Without a declared scale each value carries the smallest scale that holds it exactly, as in Debezium.
        List<TypeCase> cases = List.of(
                nullOf("numeric"), of("numeric", "0", variableScale("0")), of("numeric", "1.50", variableScale("1.5")),
                of("numeric", "-0.000", variableScale("0")), of("numeric", "1e-30", variableScale("0." + "0".repeat(29) + "1")),
                of("numeric", "1200", variableScale("1200")),
                of("numeric", "-123456789012345678901234567890.123456789", variableScale("-123456789012345678901234567890.123456789")),
                of("numeric", "'" + HUGE + "'", variableScale(HUGE)),
                of("numeric", "1e100", variableScale("1" + "0".repeat(100))),
                // A deliberate difference: Debezium writes null here; a Decimal cannot hold these, so the task stops.
                failing("numeric", "'NaN'", "decimal.handling.mode=string"),
                failing("numeric", "'Infinity'", "numeric value Infinity"),
                failing("numeric", "'-Infinity'", "numeric value -Infinity"),
                nullOf("numeric(5,2)"), of("numeric(5,2)", "123.45", decimal("123.45")), of("numeric(5,2)", "-999.99", decimal("-999.99")),
                of("numeric(5,2)", "0.5", decimal("0.50")), of("numeric(5,2)", "0.005", decimal("0.01")),
                of("numeric(40,30)", "1e-30", decimal("0.000000000000000000000000000001")),
                of("numeric(1000,0)", "'" + "9".repeat(1000) + "'", decimal("9".repeat(1000))),
                // PostgreSQL 15+: a negative scale rounds to tens/hundreds, a scale above the precision is allowed.
                of("numeric(3,-2)", "12345", decimal("12300")), of("numeric(3,-2)", "-99949", decimal("-99900")),
                of("numeric(2,5)", "0.00012", decimal("0.00012")),
                failing("numeric(5,2)", "'NaN'", "decimal.handling.mode=string"));
        ConversionChecks.assertConversions(new PostgresTypeMapper(ConverterOptions.DEFAULTS), LiveValues.observe(database, cases));
    }

    @PostgresTest
    void numericInStringModeIsThePlainDecimalTextWithDebeziumsNamesForNaNAndInfinities(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("numeric"), of("numeric", "'NaN'", "NAN"), of("numeric", "'Infinity'", "POSITIVE_INFINITY"),
                of("numeric", "'-Infinity'", "NEGATIVE_INFINITY"), of("numeric", "1e-30", "0." + "0".repeat(29) + "1"),
                of("numeric", "-0.000", "0.000"), of("numeric", "'" + HUGE + "'", HUGE), of("numeric", "1e20", "100000000000000000000"),
                of("numeric(5,2)", "1.5", "1.50"), of("numeric(5,2)", "'NaN'", "NAN"),
                of("money", "'-92233720368547758.08'", "-92233720368547758.08"));
        PostgresTypeMapper mapper = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withDecimalHandlingMode(DecimalHandlingMode.STRING));
        ConversionChecks.assertConversions(mapper, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void numericInDoubleModeMapsNaNAndInfinitiesToIeeeValues(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("numeric"), of("numeric", "'NaN'", Double.NaN), of("numeric", "'Infinity'", Double.POSITIVE_INFINITY),
                of("numeric", "'-Infinity'", Double.NEGATIVE_INFINITY), of("numeric", "1e-30", 1e-30),
                of("numeric(5,2)", "-1.5", -1.5d), of("numeric", "'" + HUGE + "'", Double.POSITIVE_INFINITY),
                of("money", "'12.34'", 12.34d));
        PostgresTypeMapper mapper = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withDecimalHandlingMode(DecimalHandlingMode.DOUBLE));
        ConversionChecks.assertConversions(mapper, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void moneyIsAnExactDecimalWhateverTheLocaleFormat(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("money"), of("money", "'12.5'", decimal("12.50")), of("money", "'-0.01'", decimal("-0.01")),
                of("money", "'1234567.89'", decimal("1234567.89")), of("money", "0", decimal("0.00")),
                of("money", "'-92233720368547758.08'", decimal("-92233720368547758.08")),
                of("money", "'92233720368547758.07'", decimal("92233720368547758.07")));
        // lc_monetary 'C' prints "$1,234,567.89" and "-$0.01": symbol, grouping and sign are all in the text.
        ConversionChecks.assertConversions(new PostgresTypeMapper(ConverterOptions.DEFAULTS),
                LiveValues.observe(database, cases, "SET lc_monetary = 'C'"));
    }
}

package io.github.pgoutput.converters;

import static io.github.pgoutput.converters.Expected.date;
import static io.github.pgoutput.converters.Expected.dateOfEpochDay;
import static io.github.pgoutput.converters.Expected.micros;
import static io.github.pgoutput.converters.TypeCase.failing;
import static io.github.pgoutput.converters.TypeCase.nullOf;
import static io.github.pgoutput.converters.TypeCase.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/** Dates, times, timestamps and intervals as a live server prints and sends them. */
@Timeout(120)
class TemporalTypesLiveTest {

    private static final PostgresTypeMapper MAPPER = new PostgresTypeMapper(ConverterOptions.DEFAULTS);

    @PostgresTest
    void datesCoverBcYearsLeapDaysTheWholeRangeAndInfinity(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("date"), of("date", "'1970-01-01'", dateOfEpochDay(0)), of("date", "'2024-02-29'", date(2024, 2, 29)),
                of("date", "'0001-01-01'", date(1, 1, 1)), of("date", "'0001-12-31 BC'", date(0, 12, 31)),
                // 1 BC and 5 BC are leap years (ISO years 0 and -4); 4 BC is not.
                of("date", "'0001-02-29 BC'", date(0, 2, 29)), of("date", "'0005-02-29 BC'", date(-4, 2, 29)),
                of("date", "'4714-11-24 BC'", date(-4713, 11, 24)), of("date", "'5874897-12-31'", date(5874897, 12, 31)),
                of("date", "'294276-12-31'", date(294276, 12, 31)),
                of("date", "'infinity'", dateOfEpochDay(Integer.MAX_VALUE)), of("date", "'-infinity'", dateOfEpochDay(Integer.MIN_VALUE)));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void timesKeepMicrosecondsAndMidnightAtTheEndOfTheDay(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("time"), of("time", "'00:00:00'", 0L), of("time", "'24:00:00'", 86_400_000_000L),
                of("time", "'23:59:59.999999'", 86_399_999_999L), of("time", "'12:34:56.789'", 45_296_789_000L),
                of("time(3)", "'12:34:56.789567'", 45_296_790_000L),
                nullOf("timetz"), of("timetz", "'12:00:00+05:30'", "12:00:00+05:30"), of("timetz", "'24:00:00-15:59'", "24:00:00-15:59"),
                of("timetz", "'00:00:00.000001+00'", "00:00:00.000001+00:00"),
                of("timetz", "'12:00:00.5+05:30:17'", "12:00:00.5+05:30:17"), of("timetz", "'23:59:59-00:00:01'", "23:59:59-00:00:01"),
                of("timetz", "'04:05:06.789-08'", "04:05:06.789-08:00"));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void timestampsAreMicrosecondsSince1970WithSentinelsForInfinity(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("timestamp"), of("timestamp", "'2024-01-02 03:04:05.123456'", micros("2024-01-02T03:04:05.123456")),
                of("timestamp", "'1969-12-31 23:59:59.999999'", -1L), of("timestamp", "'2000-01-01 00:00:00'", 946_684_800_000_000L),
                of("timestamp", "'0001-01-01 00:00:00'", micros(1, 1, 1, 0, 0, 0, 0)),
                of("timestamp", "'0044-03-15 12:00:00 BC'", micros(-43, 3, 15, 12, 0, 0, 0)),
                of("timestamp", "'4714-11-24 00:00:00 BC'", micros(-4713, 11, 24, 0, 0, 0, 0)),
                of("timestamp", "'294247-01-10 04:00:54.775806'", Long.MAX_VALUE - 1),
                failing("timestamp", "'294247-01-10 04:00:54.775807'", "294247-01-10"),
                failing("timestamp", "'294276-12-31 23:59:59.999999'", "cannot be converted"),
                of("timestamp", "'infinity'", Long.MAX_VALUE), of("timestamp", "'-infinity'", Long.MIN_VALUE),
                of("timestamp(0)", "'2024-01-02 03:04:05.5'", micros("2024-01-02T03:04:06")),
                nullOf("timestamptz"),
                of("timestamptz", "'2024-01-02 03:04:05.123456+00'", micros("2024-01-02T03:04:05.123456")),
                // Before 1900 Asia/Kolkata is at local mean time, +05:53:28: an offset with seconds in the text.
                of("timestamptz", "'1850-06-01 12:00:00+00'", micros("1850-06-01T12:00:00")),
                of("timestamptz", "'0044-03-15 12:00:00+00 BC'", micros(-43, 3, 15, 12, 0, 0, 0)),
                of("timestamptz", "'4714-11-24 00:00:00+00 BC'", micros(-4713, 11, 24, 0, 0, 0, 0)),
                failing("timestamptz", "'294276-12-31 23:59:59.999999+00'", "294247-01-10"),
                of("timestamptz", "'infinity'", Long.MAX_VALUE), of("timestamptz", "'-infinity'", Long.MIN_VALUE));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases, "SET TimeZone = 'Asia/Kolkata'"));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases, "SET TimeZone = 'America/St_Johns'"));
    }

    @PostgresTest
    void intervalsKeepMonthsDaysAndMicrosecondsApartWithTheirSigns(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = new ArrayList<>(List.of(
                nullOf("interval"), of("interval", "'0'", "PT0S"),
                of("interval", "'1 year 2 mons 3 days 04:05:06.789'", "P1Y2M3DT4H5M6.789S"),
                of("interval", "'-1 year -2 mons +3 days -04:05:06.7'", "P-1Y-2M3DT-4H-5M-6.7S"),
                of("interval", "'-00:00:00.000001'", "PT-0.000001S"), of("interval", "'1 day -1 sec'", "P1DT-1S"),
                of("interval", "'-1 day +1 sec'", "P-1DT1S"), of("interval", "'14 mons'", "P1Y2M"),
                of("interval", "'2562047788:00:54.775807'", "PT2562047788H54.775807S"),
                of("interval", "'-2562047788:00:54.775807'", "PT-2562047788H-54.775807S"),
                of("interval", "'-2147483648 days'", "P-2147483648D"), of("interval", "'178956970 years 7 mons'", "P178956970Y7M"),
                of("interval", "'-178956970 years -8 mons'", "P-178956970Y-8M"), of("interval(0)", "'1.6 sec'", "PT2S")));
        if (database.majorVersion() >= 17) {
            cases.add(of("interval", "'infinity'", "infinity"));
            cases.add(of("interval", "'-infinity'", "-infinity"));
        }
        List<LiveValues.Observed> observed = LiveValues.observe(database, cases);
        ConversionChecks.assertConversions(MAPPER, observed);

        // The string is exactly what PostgreSQL itself prints with IntervalStyle = iso_8601.
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET IntervalStyle = iso_8601");
            for (LiveValues.Observed o : observed) {
                if (o.text() == null || o.text().endsWith("infinity")) {
                    continue;
                }
                try (ResultSet row = statement.executeQuery("SELECT '" + o.text() + "'::interval::text")) {
                    row.next();
                    assertThat(MAPPER.converterFor(o.type()).fromText(o.text())).as(o.text()).isEqualTo(row.getString(1));
                }
            }
        }
    }
}

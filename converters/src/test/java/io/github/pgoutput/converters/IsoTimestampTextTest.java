package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The ISO text of a timestamp is, character for character, what java.time's formatters write. */
class IsoTimestampTextTest {

    /** About PostgreSQL's timestamp range (4713 BC to 294276 AD), in microseconds since 1970. */
    private static final long MIN_MICROS = java.time.LocalDate.of(-4712, 1, 1).atStartOfDay().toEpochSecond(ZoneOffset.UTC) * 1_000_000L;
    private static final long MAX_MICROS = java.time.LocalDate.of(294000, 1, 1).atStartOfDay().toEpochSecond(ZoneOffset.UTC) * 1_000_000L;

    private static String reference(long micros, int digits) {
        Instant instant = Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
        DateTimeFormatter formatter = digits == 0 ? DateTimeFormatter.ISO_OFFSET_DATE_TIME
                : new DateTimeFormatterBuilder().append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral('T')
                        .appendValue(ChronoField.HOUR_OF_DAY, 2).appendLiteral(':')
                        .appendValue(ChronoField.MINUTE_OF_HOUR, 2).appendLiteral(':')
                        .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
                        .appendFraction(ChronoField.NANO_OF_SECOND, digits, digits, true)
                        .appendOffsetId().toFormatter(Locale.ROOT);
        return formatter.format(instant.atOffset(ZoneOffset.UTC));
    }

    private static List<Long> edges() {
        List<Long> edges = new ArrayList<>(List.of(0L, 1L, -1L, 10L, 100_000L, 999_999L, 1_000_000L, -1_000_000L, -999_999L,
                1_500_000L, 120_000L, 86_399_999_999L, 86_400_000_000L, -86_400_000_000L, MIN_MICROS, MAX_MICROS));
        for (long year : new long[] {-4712, -1000, -1, 0, 1, 999, 1000, 1969, 1970, 2000, 2024, 9999, 10000, 99999, 293999}) {
            long seconds = java.time.LocalDate.of((int) year, 1, 1).atStartOfDay().toEpochSecond(ZoneOffset.UTC);
            for (long delta : new long[] {-1, 0, 1, 123_456, 999_999}) {
                edges.add(seconds * 1_000_000L + delta);
            }
        }
        return edges;
    }

    @Test
    void edgesOfYearsDaysSecondsAndFractionsAreWrittenAsTheFormatterWritesThem() {
        for (long micros : edges()) {
            for (int digits = 0; digits <= 6; digits++) {
                assertThat(IsoTimestampText.format(micros, digits)).as("%d µs, %d digits", micros, digits).isEqualTo(reference(micros, digits));
            }
        }
    }

    @Test
    void randomInstantsOverPostgresqlsWholeRangeAreWrittenAsTheFormatterWritesThem() {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 200_000; i++) {
            long micros = i % 2 == 0 ? random.nextLong(MIN_MICROS, MAX_MICROS)
                    // Near now, with whole seconds and milliseconds more often than chance gives them.
                    : 1_700_000_000_000_000L + random.nextLong(1_000_000_000_000_000L) / (i % 3 == 0 ? 1_000_000 : i % 5 == 0 ? 1000 : 1)
                            * (i % 3 == 0 ? 1_000_000 : i % 5 == 0 ? 1000 : 1);
            int digits = i % 7;
            assertThat(IsoTimestampText.format(micros, digits)).as("%d µs, %d digits (seed %d)", micros, digits, seed)
                    .isEqualTo(reference(micros, digits));
        }
    }
}

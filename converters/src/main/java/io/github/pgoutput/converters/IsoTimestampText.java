package io.github.pgoutput.converters;

import java.time.LocalDate;

/**
 * An instant in microseconds since 1970 as ISO-8601 text in UTC, character for character what
 * {@code DateTimeFormatter.ISO_OFFSET_DATE_TIME} writes (or, with fixed fraction digits, the same with exactly that many
 * digits, truncated), without the formatter: a timestamptz column is formatted once per row, and the formatter's
 * generic printing was 4.8% of the task thread's allocation in W1 (issue 19). Pure; {@code TemporalConvertersTest}
 * compares it with the formatter.
 */
final class IsoTimestampText {

    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long SECONDS_PER_DAY = 86_400L;

    private IsoTimestampText() {
    }

    /**
     * @param fractionDigits 1 to 6: exactly that many fraction digits; 0: as many as needed, none for a whole second
     */
    static String format(long micros, int fractionDigits) {
        long seconds = Math.floorDiv(micros, MICROS_PER_SECOND);
        int microOfSecond = (int) Math.floorMod(micros, MICROS_PER_SECOND);
        long day = Math.floorDiv(seconds, SECONDS_PER_DAY);
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        LocalDate date = LocalDate.ofEpochDay(day);
        StringBuilder sb = new StringBuilder(32);
        year(sb, date.getYear());
        sb.append('-');
        twoDigits(sb, date.getMonthValue());
        sb.append('-');
        twoDigits(sb, date.getDayOfMonth());
        sb.append('T');
        twoDigits(sb, secondOfDay / 3600);
        sb.append(':');
        twoDigits(sb, secondOfDay / 60 % 60);
        sb.append(':');
        twoDigits(sb, secondOfDay % 60);
        if (fractionDigits > 0) {
            sb.append('.');
            int digits = microOfSecond;
            for (int i = 6; i > fractionDigits; i--) {
                digits /= 10;
            }
            padded(sb, digits, fractionDigits);
        } else if (microOfSecond != 0) {
            // As appendFraction(NANO_OF_SECOND, 0, 9, true): no trailing zeros.
            int digits = microOfSecond;
            int width = 6;
            while (digits % 10 == 0) {
                digits /= 10;
                width--;
            }
            sb.append('.');
            padded(sb, digits, width);
        }
        return sb.append('Z').toString();
    }

    /** As ISO_LOCAL_DATE's year: at least 4 digits, a '+' above 9999 and a '-' below 0. */
    private static void year(StringBuilder sb, int year) {
        if (year > 9999) {
            sb.append('+').append(year);
        } else if (year < 0) {
            sb.append('-');
            padded(sb, -year, 4);
        } else {
            padded(sb, year, 4);
        }
    }

    private static void twoDigits(StringBuilder sb, int value) {
        sb.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    private static void padded(StringBuilder sb, int value, int width) {
        int length = 1;
        for (int rest = value; rest >= 10; rest /= 10) {
            length++;
        }
        for (int i = length; i < width; i++) {
            sb.append('0');
        }
        sb.append(value);
    }
}

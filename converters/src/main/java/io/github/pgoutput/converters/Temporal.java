package io.github.pgoutput.converters;

import java.time.LocalDate;

/**
 * Dates, times and timestamps: PostgreSQL's ISO text output ({@code DateStyle = ISO}) and send forms to
 * the values of {@link PostgresTypeMapper}'s temporal schemas. PostgreSQL uses the proleptic Gregorian
 * calendar throughout, as does {@link LocalDate}, so day numbers agree for every year including BC.
 */
final class Temporal {

    static final long MICROS_PER_SECOND = 1_000_000L;
    static final long MICROS_PER_DAY = 86_400L * MICROS_PER_SECOND;
    /** Days from 1970-01-01 to PostgreSQL's epoch 2000-01-01. */
    static final int POSTGRES_EPOCH_DAYS = 10_957;
    static final long POSTGRES_EPOCH_MICROS = POSTGRES_EPOCH_DAYS * MICROS_PER_DAY;

    /**
     * Markers for 'infinity' and '-infinity' dates between parsing and {@link TemporalConverters}, which writes
     * Debezium's values for them; never the day number of a real date.
     */
    static final int DATE_POSITIVE_INFINITY = Integer.MAX_VALUE;
    static final int DATE_NEGATIVE_INFINITY = Integer.MIN_VALUE;
    /** Markers for 'infinity' and '-infinity' timestamps, likewise; never the microseconds of a real timestamp. */
    static final long TIMESTAMP_POSITIVE_INFINITY = Long.MAX_VALUE;
    static final long TIMESTAMP_NEGATIVE_INFINITY = Long.MIN_VALUE;

    private Temporal() {
    }

    /** Days since 1970-01-01 of {@code YYYY-MM-DD[ BC]}, or a sentinel for infinity. */
    static int parseDate(String text) {
        if (text.equals("infinity")) {
            return DATE_POSITIVE_INFINITY;
        }
        if (text.equals("-infinity")) {
            return DATE_NEGATIVE_INFINITY;
        }
        Cursor in = new Cursor(text);
        in.date();
        long day = in.epochDay();
        in.end();
        return Math.toIntExact(day);
    }

    /** Days since 1970-01-01 of a date's send form (days since 2000-01-01, INT32 MAX/MIN for infinity). */
    static int dateFromPostgresDays(int postgresDays) {
        if (postgresDays == Integer.MAX_VALUE) {
            return DATE_POSITIVE_INFINITY;
        }
        if (postgresDays == Integer.MIN_VALUE) {
            return DATE_NEGATIVE_INFINITY;
        }
        return postgresDays + POSTGRES_EPOCH_DAYS;
    }

    /**
     * Microseconds since 1970-01-01 00:00:00 of {@code YYYY-MM-DD HH:MM:SS[.ffffff][±hh[:mm[:ss]]][ BC]}; with an
     * offset the result is UTC, without it the wall clock. Sentinels for infinity.
     */
    static long parseTimestamp(String text) {
        if (text.equals("infinity")) {
            return TIMESTAMP_POSITIVE_INFINITY;
        }
        if (text.equals("-infinity")) {
            return TIMESTAMP_NEGATIVE_INFINITY;
        }
        Cursor in = new Cursor(text);
        in.date();
        in.expect(' ');
        long timeOfDay = in.time();
        int offsetSeconds = in.offsetIfPresent();
        long days = in.epochDay();
        in.end();
        long micros;
        try {
            micros = Math.subtractExact(Math.addExact(Math.multiplyExact(days, MICROS_PER_DAY), timeOfDay),
                    offsetSeconds * MICROS_PER_SECOND);
        } catch (ArithmeticException overflow) {
            throw outOfRange(text);
        }
        return checkedTimestamp(micros, text);
    }

    /** Microseconds since 1970 of a timestamp(tz) send form (microseconds since 2000, INT64 MAX/MIN for infinity). */
    static long timestampFromPostgresMicros(long postgresMicros) {
        if (postgresMicros == Long.MAX_VALUE) {
            return TIMESTAMP_POSITIVE_INFINITY;
        }
        if (postgresMicros == Long.MIN_VALUE) {
            return TIMESTAMP_NEGATIVE_INFINITY;
        }
        long micros;
        try {
            micros = Math.addExact(postgresMicros, POSTGRES_EPOCH_MICROS);
        } catch (ArithmeticException overflow) {
            throw outOfRange(postgresMicros + " microseconds after 2000-01-01");
        }
        return checkedTimestamp(micros, postgresMicros + " microseconds after 2000-01-01");
    }

    /**
     * PostgreSQL accepts timestamps up to 294276-12-31; int64 microseconds since 1970 end in 294247, and the
     * extreme values are taken by the infinity sentinels. Such a timestamp cannot be represented without
     * losing what it is, so conversion fails instead of wrapping around.
     */
    private static long checkedTimestamp(long micros, String source) {
        if (micros == Long.MAX_VALUE || micros == Long.MIN_VALUE) {
            throw outOfRange(source);
        }
        return micros;
    }

    private static ValueConversionException outOfRange(String source) {
        return new ValueConversionException("timestamp " + source + " lies beyond 294247-01-10, the last instant that int64 "
                + "microseconds since 1970 can hold; such values cannot be converted. Store them as 'infinity' or cap "
                + "them below that date.");
    }

    /** Microseconds since midnight of {@code HH:MM:SS[.ffffff]} (24:00:00 allowed). */
    static long parseTime(String text) {
        Cursor in = new Cursor(text);
        long micros = in.time();
        in.end();
        return micros;
    }

    /**
     * The UTC time of day, in microseconds from 0 to just below 24:00, of {@code HH:MM:SS[.ffffff]±hh[:mm[:ss]]}.
     * The date is not part of a timetz, so the shift to UTC wraps around midnight.
     */
    static long parseTimeTzAtUtc(String text) {
        Cursor in = new Cursor(text);
        long micros = in.time();
        int offset = in.offsetIfPresent();
        in.end();
        return Math.floorMod(micros - offset * MICROS_PER_SECOND, MICROS_PER_DAY);
    }

    /** As {@link #parseTimeTzAtUtc}, from the send form's parts; {@code zoneSecondsWest} is PostgreSQL's sign convention. */
    static long timeTzFromSendAtUtc(long micros, int zoneSecondsWest) {
        return Math.floorMod(micros + zoneSecondsWest * MICROS_PER_SECOND, MICROS_PER_DAY);
    }

    /** A strict left-to-right reader of PostgreSQL's ISO date/time output. */
    private static final class Cursor {
        private final String text;
        private int pos;
        private int year;
        private int month;
        private int day;

        Cursor(String text) {
            this.text = text;
        }

        /** Reads {@code Y-MM-DD} (year of at least 4 digits); the era is read later by {@link #epochDay}. */
        void date() {
            year = number(4, 7);
            expect('-');
            month = number(2, 2);
            expect('-');
            day = number(2, 2);
        }

        /**
         * Consumes the optional trailing {@code " BC"} (PostgreSQL prints it after the time and offset) and
         * returns the day number: year N BC is ISO year 1 - N, whose leap years differ from year N AD's.
         */
        long epochDay() {
            int isoYear = year;
            if (text.startsWith(" BC", pos)) {
                pos += 3;
                isoYear = 1 - year;
            }
            return LocalDate.of(isoYear, month, day).toEpochDay();
        }

        long time() {
            int hours = number(2, 2);
            expect(':');
            int minutes = number(2, 2);
            expect(':');
            int seconds = number(2, 2);
            int fraction = 0;
            if (pos < text.length() && text.charAt(pos) == '.') {
                pos++;
                int start = pos;
                int value = number(1, 6);
                for (int digits = pos - start; digits < 6; digits++) {
                    value *= 10;
                }
                fraction = value;
            }
            long micros = ((hours * 60L + minutes) * 60L + seconds) * MICROS_PER_SECOND + fraction;
            if (minutes > 59 || seconds > 59 || micros > MICROS_PER_DAY) {
                throw new IllegalArgumentException("time of day out of range");
            }
            return micros;
        }

        /** {@code ±hh[:mm[:ss]]} as seconds east of UTC, or 0 if no offset follows. */
        int offsetIfPresent() {
            if (pos >= text.length() || (text.charAt(pos) != '+' && text.charAt(pos) != '-')) {
                return 0;
            }
            int sign = text.charAt(pos++) == '-' ? -1 : 1;
            int seconds = number(2, 2) * 3600;
            if (pos < text.length() && text.charAt(pos) == ':') {
                pos++;
                seconds += number(2, 2) * 60;
                if (pos < text.length() && text.charAt(pos) == ':') {
                    pos++;
                    seconds += number(2, 2);
                }
            }
            return sign * seconds;
        }

        void end() {
            if (pos != text.length()) {
                throw new IllegalArgumentException("unexpected '" + text.substring(pos) + "' at position " + pos);
            }
        }

        void expect(char c) {
            if (pos >= text.length() || text.charAt(pos) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at position " + pos);
            }
            pos++;
        }

        private int number(int minDigits, int maxDigits) {
            int start = pos;
            int value = 0;
            while (pos < text.length() && pos - start < maxDigits && Character.isDigit(text.charAt(pos))) {
                value = value * 10 + (text.charAt(pos++) - '0');
            }
            if (pos - start < minDigits) {
                throw new IllegalArgumentException("expected " + minDigits + " or more digits at position " + start);
            }
            return value;
        }
    }
}

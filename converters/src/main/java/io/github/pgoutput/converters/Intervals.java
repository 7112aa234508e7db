package io.github.pgoutput.converters;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Intervals: PostgreSQL keeps months, days and microseconds apart. The value is written as Debezium writes it,
 * per {@link IntervalHandlingMode}: {@code io.debezium.time.MicroDuration} (int64 microseconds, a month taken
 * as 365.25 / 12 days, computed in double arithmetic as Debezium does) or {@code io.debezium.time.Interval}
 * ({@code PnYnMnDTnHnMnS}, every part present, each with its own sign). PostgreSQL 17's infinite intervals,
 * which Debezium cannot read, become INT64 MAX/MIN or {@code "infinity"}/{@code "-infinity"}.
 */
final class Intervals {

    private static final long MICROS_PER_MINUTE = 60_000_000L;
    private static final long MICROS_PER_HOUR = 3_600_000_000L;

    private Intervals() {
    }

    private static final double DAYS_PER_MONTH = 365.25 / 12.0;

    /** An interval's parts as PostgreSQL stores them; {@code infinite} is 1 or -1 for PostgreSQL 17's infinities. */
    record Parts(int months, int days, long micros, int infinite) {
    }

    /** The interval's send form: int64 microseconds, int32 days, int32 months. */
    static Parts fromSend(BinaryReader in) {
        long micros = in.int64();
        int days = in.int32();
        int months = in.int32();
        in.expectEnd();
        if (micros == Long.MAX_VALUE && days == Integer.MAX_VALUE && months == Integer.MAX_VALUE) {
            return new Parts(0, 0, 0, 1);
        }
        if (micros == Long.MIN_VALUE && days == Integer.MIN_VALUE && months == Integer.MIN_VALUE) {
            return new Parts(0, 0, 0, -1);
        }
        return new Parts(months, days, micros, 0);
    }

    /** io.debezium.time.MicroDuration: the parts folded into microseconds with an average month. */
    static long microDuration(Parts parts) {
        if (parts.infinite() != 0) {
            return parts.infinite() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        TimeOfDay t = TimeOfDay.of(parts.micros());
        // Same operations in the same order as Debezium, so the double rounding agrees to the microsecond.
        double days = parts.months() * DAYS_PER_MONTH + parts.days();
        double seconds = (((days * 24 + t.hours()) * 60) + t.minutes()) * 60 + t.seconds();
        return (long) (seconds * 1e6);
    }

    /** io.debezium.time.Interval: {@code P1Y2M3DT4H5M6.789S}, {@code P0Y0M0DT0H0M0S} for zero. */
    static String isoString(Parts parts) {
        if (parts.infinite() != 0) {
            return parts.infinite() > 0 ? "infinity" : "-infinity";
        }
        TimeOfDay t = TimeOfDay.of(parts.micros());
        BigDecimal seconds = BigDecimal.valueOf(t.seconds());
        if (seconds.scale() > 9) {
            seconds = seconds.setScale(9, RoundingMode.DOWN);
        }
        return "P" + parts.months() / 12 + "Y" + parts.months() % 12 + "M" + parts.days() + "D" + "T" + t.hours() + "H"
                + t.minutes() + "M" + seconds.stripTrailingZeros().toPlainString() + "S";
    }

    /**
     * The time part split as pgjdbc's PGInterval holds it (and Debezium reads it): hours, minutes and seconds,
     * each with the sign of the whole; the seconds a double of whole seconds plus microseconds / 1e6.
     */
    private record TimeOfDay(long hours, long minutes, double seconds) {
        static TimeOfDay of(long micros) {
            long wholeSeconds = micros / Temporal.MICROS_PER_SECOND % 60;
            long fraction = micros % Temporal.MICROS_PER_SECOND;
            return new TimeOfDay(micros / MICROS_PER_HOUR, micros / MICROS_PER_MINUTE % 60,
                    wholeSeconds + (double) fraction / Temporal.MICROS_PER_SECOND);
        }
    }

    /**
     * The default {@code IntervalStyle = postgres} output: {@code [N year[s]] [N mon[s]] [N day[s]] [±H:MM:SS[.f]]},
     * each number signed, e.g. {@code "1 year -2 mons +3 days -04:05:06.7"}; {@code "00:00:00"} for zero.
     */
    static Parts fromText(String text) {
        if (text.equals("infinity")) {
            return new Parts(0, 0, 0, 1);
        }
        if (text.equals("-infinity")) {
            return new Parts(0, 0, 0, -1);
        }
        long months = 0;
        long days = 0;
        long micros = 0;
        String[] tokens = text.split(" ", -1);
        int i = 0;
        while (i < tokens.length) {
            String token = tokens[i];
            if (token.indexOf(':') >= 0) {
                if (i != tokens.length - 1) {
                    throw new IllegalArgumentException("the time part must come last");
                }
                micros = timePart(token);
                i++;
                continue;
            }
            if (i + 1 >= tokens.length) {
                throw new IllegalArgumentException("number '" + token + "' without a unit");
            }
            long number = Long.parseLong(token.startsWith("+") ? token.substring(1) : token);
            switch (tokens[i + 1]) {
                case "year", "years" -> months = Math.addExact(months, Math.multiplyExact(number, 12));
                case "mon", "mons" -> months = Math.addExact(months, number);
                case "day", "days" -> days = number;
                default -> throw new IllegalArgumentException("unit '" + tokens[i + 1] + "' is not one of year, mon, day"
                        + " (only IntervalStyle 'postgres' output is understood)");
            }
            i += 2;
        }
        return new Parts(Math.toIntExact(months), Math.toIntExact(days), micros, 0);
    }

    /** {@code [±]H:MM:SS[.ffffff]} in microseconds; built downwards when negative so INT64 MIN does not overflow. */
    private static long timePart(String token) {
        boolean negative = token.startsWith("-");
        String body = token.startsWith("-") || token.startsWith("+") ? token.substring(1) : token;
        String[] parts = body.split(":", -1);
        if (parts.length != 3 || parts[1].length() != 2 || parts[2].length() < 2) {
            throw new IllegalArgumentException("time part '" + token + "' is not H:MM:SS[.ffffff]");
        }
        long hours = Long.parseLong(parts[0]);
        long minutes = Long.parseLong(parts[1]);
        String seconds = parts[2];
        int dot = seconds.indexOf('.');
        long wholeSeconds = Long.parseLong(dot < 0 ? seconds : seconds.substring(0, dot));
        long fraction = 0;
        if (dot >= 0) {
            String digits = seconds.substring(dot + 1);
            if (digits.isEmpty() || digits.length() > 6 || !digits.chars().allMatch(Character::isDigit)) {
                throw new IllegalArgumentException("fraction '" + digits + "' is not 1 to 6 digits");
            }
            fraction = Long.parseLong((digits + "00000").substring(0, 6));
        }
        long sign = negative ? -1 : 1;
        long micros = Math.multiplyExact(sign * hours, MICROS_PER_HOUR);
        micros = Math.addExact(micros, sign * minutes * MICROS_PER_MINUTE);
        micros = Math.addExact(micros, sign * wholeSeconds * Temporal.MICROS_PER_SECOND);
        return Math.addExact(micros, sign * fraction);
    }
}

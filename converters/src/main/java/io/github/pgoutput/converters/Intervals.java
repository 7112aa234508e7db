package io.github.pgoutput.converters;

/**
 * Intervals: PostgreSQL keeps months, days and microseconds apart (a month is not a fixed number of days, nor
 * a day of seconds across DST), so the value is the ISO 8601 string PostgreSQL itself prints with
 * {@code IntervalStyle = iso_8601}: every part kept with its own sign, nothing folded or rounded.
 * PostgreSQL 17's infinite intervals become {@code "infinity"} and {@code "-infinity"}.
 */
final class Intervals {

    private static final long MICROS_PER_MINUTE = 60_000_000L;
    private static final long MICROS_PER_HOUR = 3_600_000_000L;

    private Intervals() {
    }

    /** The interval's send form: int64 microseconds, int32 days, int32 months. */
    static String fromSend(BinaryReader in) {
        long micros = in.int64();
        int days = in.int32();
        int months = in.int32();
        in.expectEnd();
        if (micros == Long.MAX_VALUE && days == Integer.MAX_VALUE && months == Integer.MAX_VALUE) {
            return "infinity";
        }
        if (micros == Long.MIN_VALUE && days == Integer.MIN_VALUE && months == Integer.MIN_VALUE) {
            return "-infinity";
        }
        return iso8601(months, days, micros);
    }

    /**
     * The default {@code IntervalStyle = postgres} output: {@code [N year[s]] [N mon[s]] [N day[s]] [±H:MM:SS[.f]]},
     * each number signed, e.g. {@code "1 year -2 mons +3 days -04:05:06.7"}; {@code "00:00:00"} for zero.
     */
    static String fromText(String text) {
        if (text.equals("infinity") || text.equals("-infinity")) {
            return text;
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
        return iso8601(Math.toIntExact(months), Math.toIntExact(days), micros);
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

    /** Mirrors PostgreSQL's EncodeInterval for INTSTYLE_ISO_8601 (C division truncates toward zero, as Java's). */
    static String iso8601(int months, int days, long micros) {
        int years = months / 12;
        int mons = months % 12;
        long hours = micros / MICROS_PER_HOUR;
        long minutes = micros / MICROS_PER_MINUTE % 60;
        long seconds = micros / Temporal.MICROS_PER_SECOND % 60;
        long fraction = micros % Temporal.MICROS_PER_SECOND;
        if (years == 0 && mons == 0 && days == 0 && hours == 0 && minutes == 0 && seconds == 0 && fraction == 0) {
            return "PT0S";
        }
        StringBuilder out = new StringBuilder("P");
        part(out, years, 'Y');
        part(out, mons, 'M');
        part(out, days, 'D');
        if (hours != 0 || minutes != 0 || seconds != 0 || fraction != 0) {
            out.append('T');
        }
        part(out, hours, 'H');
        part(out, minutes, 'M');
        if (seconds != 0 || fraction != 0) {
            if (seconds < 0 || fraction < 0) {
                out.append('-');
            }
            out.append(Math.abs(seconds));
            Temporal.appendFraction(out, (int) Math.abs(fraction));
            out.append('S');
        }
        return out.toString();
    }

    private static void part(StringBuilder out, long value, char unit) {
        if (value != 0) {
            out.append(value).append(unit);
        }
    }
}

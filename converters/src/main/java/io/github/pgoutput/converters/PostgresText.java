package io.github.pgoutput.converters;

/**
 * PostgreSQL's ISO text output of dates, times and timestamps as numbers, for code outside this module that needs
 * them in another form than the schemas of {@link PostgresTypeMapper} (the connector's custom converter inputs).
 * 'infinity' and '-infinity' come back as the sentinels below, never as a real value.
 *
 * <p>Stateless and thread-safe.
 */
public final class PostgresText {

    public static final int DATE_POSITIVE_INFINITY = Temporal.DATE_POSITIVE_INFINITY;
    public static final int DATE_NEGATIVE_INFINITY = Temporal.DATE_NEGATIVE_INFINITY;
    public static final long TIMESTAMP_POSITIVE_INFINITY = Temporal.TIMESTAMP_POSITIVE_INFINITY;
    public static final long TIMESTAMP_NEGATIVE_INFINITY = Temporal.TIMESTAMP_NEGATIVE_INFINITY;

    private PostgresText() {
    }

    /**
     * Days since 1970-01-01 of {@code YYYY-MM-DD[ BC]}, or a date sentinel.
     *
     * @throws ValueConversionException when the text is not a date as PostgreSQL prints it
     */
    public static int epochDay(String text) {
        return Temporal.parseDate(text);
    }

    /**
     * Microseconds since 1970-01-01 00:00:00 of a timestamp ({@code YYYY-MM-DD HH:MM:SS[.ffffff][±hh[:mm[:ss]]][ BC]});
     * with an offset the result is UTC, without it the wall clock. A timestamp sentinel for infinity.
     *
     * @throws ValueConversionException when the text is not a timestamp as PostgreSQL prints it
     */
    public static long epochMicros(String text) {
        return Temporal.parseTimestamp(text);
    }

    /**
     * The UTC time of day in microseconds of a timetz ({@code HH:MM:SS[.ffffff]±hh[:mm[:ss]]}).
     *
     * @throws ValueConversionException when the text is not a timetz as PostgreSQL prints it
     */
    public static long timeTzMicrosAtUtc(String text) {
        return Temporal.parseTimeTzAtUtc(text);
    }
}

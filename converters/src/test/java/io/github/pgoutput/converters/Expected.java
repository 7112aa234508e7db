package io.github.pgoutput.converters;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import org.apache.kafka.connect.data.Struct;

/** Expected Connect values, computed with java.time rather than with the code under test. */
final class Expected {

    private Expected() {
    }

    /** Connect Date value of an ISO (proleptic Gregorian) date; year 0 is 1 BC. */
    static Date date(int isoYear, int month, int day) {
        return new Date(LocalDate.of(isoYear, month, day).toEpochDay() * 86_400_000L);
    }

    /** io.debezium.time.Date value: days since 1970-01-01 of an ISO (proleptic Gregorian) date. */
    static int day(int isoYear, int month, int day) {
        return Math.toIntExact(LocalDate.of(isoYear, month, day).toEpochDay());
    }

    static Date dateOfEpochDay(long day) {
        return new Date(day * 86_400_000L);
    }

    /** Microseconds since 1970-01-01T00:00 of {@code isoDateTime}, read as UTC (or as the wall clock). */
    static long micros(String isoDateTime) {
        LocalDateTime t = LocalDateTime.parse(isoDateTime);
        return Math.addExact(Math.multiplyExact(t.toEpochSecond(ZoneOffset.UTC), 1_000_000L), t.getNano() / 1_000);
    }

    static long micros(int isoYear, int month, int day, int hour, int minute, int second, int micro) {
        return micros(LocalDateTime.of(isoYear, month, day, hour, minute, second, micro * 1000).toString());
    }

    static Struct variableScale(String decimal) {
        return VariableScaleDecimal.toStruct(new BigDecimal(decimal));
    }

    static BigDecimal decimal(String decimal) {
        return new BigDecimal(decimal);
    }

    static List<Object> list(Object... elements) {
        return Arrays.asList(elements);
    }
}

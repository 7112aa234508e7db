package io.github.pgoutput.pgoutput;

import java.time.Instant;

/**
 * The one place that converts PostgreSQL {@code TimestampTz} wire values (signed microseconds since
 * 2000-01-01 00:00:00 UTC) to and from {@link Instant}.
 */
public final class PgTimestamps {

    /** Microseconds between the Unix epoch and PostgreSQL's epoch, 2000-01-01 00:00:00 UTC. */
    public static final long POSTGRES_EPOCH_OFFSET_MICROS = 946_684_800_000_000L;

    private PgTimestamps() {
    }

    public static Instant toInstant(long postgresMicros) {
        long unixMicros = postgresMicros + POSTGRES_EPOCH_OFFSET_MICROS;
        return Instant.ofEpochSecond(Math.floorDiv(unixMicros, 1_000_000L), Math.floorMod(unixMicros, 1_000_000L) * 1_000L);
    }

    public static long toPostgresMicros(Instant instant) {
        long unixMicros = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000L);
        return unixMicros - POSTGRES_EPOCH_OFFSET_MICROS;
    }
}

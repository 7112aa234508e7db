package io.github.pgoutput.parity;

/**
 * One field whose value differs between Debezium's record and ours.
 *
 * @param path     where, without record numbers, so equal differences of many records share it:
 *                 {@code <topic without prefix>[<label>] <part>.<field>...}, for example
 *                 {@code public.pt_types[u] value.schema.after.c_tstz6.@name} (an {@code @} marks a schema attribute)
 *                 or {@code public.pt_types[c] value.payload.after.c_interval}
 * @param debezium Debezium's value as JSON text, {@code (absent)} when Debezium's record has no such field
 * @param ours     ours, likewise
 */
public record Difference(String path, String debezium, String ours) {

    public static final String ABSENT = "(absent)";

    /** Whether only ours has the field (an addition rather than a change). */
    public boolean isAddition() {
        return ABSENT.equals(debezium) && !ABSENT.equals(ours);
    }
}

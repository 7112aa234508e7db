package io.github.pgoutput.toast;

import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The stored values of one row: its large column values by column name, as pgoutput's text or binary forms, and the
 * version that wrote them. A column it does not name has no known value (never stored, too small, or NULL).
 *
 * <p>Stored format (chosen once): {@code lsn:int64, sequence:int64, count:int32}, then per column
 * {@code nameLength:int32, name:UTF-8, kind:byte ('t' text, 'b' binary), valueLength:int32, value}.
 */
public record StoredRow(RowVersion version, Map<String, ColumnValue> columns) {

    private static final byte TEXT = 't';
    private static final byte BINARY = 'b';

    public StoredRow {
        Objects.requireNonNull(version);
        columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
        columns.values().forEach(v -> {
            if (!(v instanceof ColumnValue.Text) && !(v instanceof ColumnValue.Binary)) {
                throw new IllegalArgumentException("only values are stored, not " + v);
            }
        });
    }

    public boolean isEmpty() {
        return columns.isEmpty();
    }

    byte[] encode() {
        int size = 8 + 8 + 4;
        for (Map.Entry<String, ColumnValue> column : columns.entrySet()) {
            size += 4 + utf8(column.getKey()).length + 1 + 4 + bytes(column.getValue()).length();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putLong(version.lsn().value()).putLong(version.sequence()).putInt(columns.size());
        for (Map.Entry<String, ColumnValue> column : columns.entrySet()) {
            byte[] name = utf8(column.getKey());
            out.putInt(name.length).put(name);
            out.put(column.getValue() instanceof ColumnValue.Text ? TEXT : BINARY);
            byte[] value = bytes(column.getValue()).toByteArray();
            out.putInt(value.length).put(value);
        }
        return out.array();
    }

    static StoredRow decode(byte[] encoded) {
        ByteBuffer in = ByteBuffer.wrap(encoded);
        RowVersion version = new RowVersion(Lsn.of(in.getLong()), in.getLong());
        int count = in.getInt();
        Map<String, ColumnValue> columns = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            byte[] name = new byte[in.getInt()];
            in.get(name);
            byte kind = in.get();
            byte[] value = new byte[in.getInt()];
            in.get(value);
            Bytes bytes = Bytes.copyOf(value);
            columns.put(new String(name, StandardCharsets.UTF_8), kind == TEXT ? new ColumnValue.Text(bytes) : new ColumnValue.Binary(bytes));
        }
        return new StoredRow(version, columns);
    }

    static Bytes bytes(ColumnValue value) {
        if (value instanceof ColumnValue.Text text) {
            return text.value();
        }
        if (value instanceof ColumnValue.Binary binary) {
            return binary.value();
        }
        throw new IllegalArgumentException("no bytes in " + value);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

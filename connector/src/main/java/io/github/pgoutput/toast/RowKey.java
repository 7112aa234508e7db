package io.github.pgoutput.toast;

import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.TupleData;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The identity of one row: its table's OID and the text of its replica identity columns (the columns pgoutput flags as
 * key: the primary key, or the REPLICA IDENTITY USING INDEX index), in column order. The replica identity is unique
 * and present in every change PostgreSQL sends, so it names the same row in snapshot rows, inserts, updates (old or
 * new tuple) and deletes; the record key ({@code message.key.columns}) need not be unique and is not used.
 *
 * @param relationId the table's OID, as pgoutput's relation id and the snapshot's table carry it
 * @param values     each identity column's text form; null for SQL NULL (a unique index allows it)
 */
public record RowKey(long relationId, List<String> values) {

    public RowKey {
        values = Collections.unmodifiableList(new ArrayList<>(values));
    }

    /**
     * The key of {@code tuple} (a new tuple, a key-only old tuple or a whole old one); empty when the table has no
     * identity columns or an identity value is not in text form (an unchanged TOAST key value, or binary).
     */
    public static Optional<RowKey> of(long relationId, List<RelationColumn> columns, TupleData tuple) {
        if (tuple.size() != columns.size()) {
            return Optional.empty();
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (!columns.get(i).partOfKey()) {
                continue;
            }
            ColumnValue value = tuple.get(i);
            if (value instanceof ColumnValue.Text text) {
                values.add(text.asString());
            } else if (value instanceof ColumnValue.Null) {
                values.add(null);
            } else {
                return Optional.empty();
            }
        }
        return values.isEmpty() ? Optional.empty() : Optional.of(new RowKey(relationId, values));
    }

    /** The key of a snapshot row, whose values are the columns' text forms (null for NULL). */
    public static Optional<RowKey> ofText(long relationId, List<RelationColumn> columns, List<String> texts) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).partOfKey()) {
                values.add(texts.get(i));
            }
        }
        return values.isEmpty() ? Optional.empty() : Optional.of(new RowKey(relationId, values));
    }

    /** {@code prefix}, the OID (8 bytes), then per value its length (-1 for NULL) and UTF-8 bytes. */
    byte[] encode(byte[] prefix) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(prefix.length + 8 + values.size() * 16);
        out.writeBytes(prefix);
        out.writeBytes(ByteBuffer.allocate(8).putLong(relationId).array());
        for (String value : values) {
            byte[] bytes = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
            out.writeBytes(ByteBuffer.allocate(4).putInt(bytes == null ? -1 : bytes.length).array());
            if (bytes != null) {
                out.writeBytes(bytes);
            }
        }
        return out.toByteArray();
    }

    /** The first key of {@code relationId}'s range under {@code prefix}, and the first after it. */
    static byte[][] range(byte[] prefix, long relationId) {
        byte[] from = Arrays.copyOf(prefix, prefix.length + 8);
        ByteBuffer.wrap(from, prefix.length, 8).putLong(relationId);
        byte[] to = Arrays.copyOf(prefix, prefix.length + 8);
        ByteBuffer.wrap(to, prefix.length, 8).putLong(relationId + 1);
        return new byte[][] {from, to};
    }

    @Override
    public String toString() {
        return relationId + values.toString();
    }
}

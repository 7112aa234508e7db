package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.TableName;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * Where a resumable snapshot stands, in the text forms that go into source offsets. Pure and immutable.
 *
 * <p>A resumable snapshot reads its tables one after another, each in key order, so every row has a place in one total
 * order: (table index in the snapshot's table list, key). A {@link Position} names the last row emitted. When the
 * snapshot is resumed after a crash, the rows after that position are read from a new exported snapshot taken at a
 * later consistent point; a {@link Resume} records that: rows after {@code after} were read as of {@code readAt}. A
 * change committed before that point is already contained in those rows, so streaming must not deliver it for them
 * ({@link ResumedRows}); the list grows by one entry per resumption.
 *
 * <p>Key values are the type output texts (as COPY and pgoutput write them), URL-encoded so that the separators
 * {@code :}, {@code ,}, {@code @} and {@code |} never occur inside a value.
 */
public final class ResumableProgress {

    private ResumableProgress() {
    }

    /**
     * The last row emitted: the index of its table in the snapshot's table list and its key values.
     *
     * @param key the key column values, in attribute order; empty before the first row of {@code table}
     */
    public record Position(int table, List<String> key) {
        public Position {
            if (table < 0) {
                throw new IllegalArgumentException("table index must be 0 or more, was " + table);
            }
            key = List.copyOf(key);
        }
    }

    /** Rows after {@code after} (in the snapshot's order) were read from the exported snapshot at {@code readAt}. */
    public record Resume(Position after, Lsn readAt) {
        public Resume {
            Objects.requireNonNull(after, "after");
            Objects.requireNonNull(readAt, "readAt");
        }
    }

    /**
     * A fingerprint of the snapshot's table list, in order: a resumption with another list would map table indexes
     * to other tables, so it is refused.
     */
    public static String fingerprint(List<TableName> tables) {
        CRC32 crc = new CRC32();
        for (TableName t : tables) {
            crc.update((t.schema() + '\u0000' + t.table() + '\u0001').getBytes(StandardCharsets.UTF_8));
        }
        return tables.size() + "-" + Long.toHexString(crc.getValue());
    }

    /** {@code table:key1,key2}; a position before the table's first row is {@code table:}. */
    public static String encode(Position position) {
        StringBuilder sb = new StringBuilder().append(position.table()).append(':');
        for (int i = 0; i < position.key().size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(URLEncoder.encode(position.key().get(i), StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    /** @throws IllegalArgumentException when {@code text} is not what {@link #encode(Position)} writes */
    public static Position decodePosition(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("not a snapshot position (table:key,...): '" + text + "'");
        }
        int table;
        try {
            table = Integer.parseInt(text.substring(0, colon));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a snapshot position (table:key,...): '" + text + "'");
        }
        String rest = text.substring(colon + 1);
        List<String> key = new ArrayList<>();
        if (!rest.isEmpty()) {
            for (String part : rest.split(",", -1)) {
                key.add(URLDecoder.decode(part, StandardCharsets.UTF_8));
            }
        }
        return new Position(table, key);
    }

    /** {@code position@lsn|position@lsn...}, in the order of the resumptions; empty for none. */
    public static String encode(List<Resume> resumes) {
        StringBuilder sb = new StringBuilder();
        for (Resume r : resumes) {
            if (sb.length() > 0) {
                sb.append('|');
            }
            sb.append(encode(r.after())).append('@').append(r.readAt());
        }
        return sb.toString();
    }

    /** @throws IllegalArgumentException when {@code text} is not what {@link #encode(List)} writes */
    public static List<Resume> decodeResumes(String text) {
        List<Resume> resumes = new ArrayList<>();
        if (text.isEmpty()) {
            return resumes;
        }
        for (String part : text.split("\\|", -1)) {
            int at = part.lastIndexOf('@');
            if (at < 0) {
                throw new IllegalArgumentException("not a snapshot resumption (position@lsn): '" + part + "'");
            }
            resumes.add(new Resume(decodePosition(part.substring(0, at)), Lsn.parse(part.substring(at + 1))));
        }
        return resumes;
    }
}

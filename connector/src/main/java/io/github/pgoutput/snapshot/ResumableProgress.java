package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.TableName;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * Where a resumable snapshot stands, in the text forms that go into source offsets. Pure and immutable.
 *
 * <p>A resumable snapshot reads its tables one after another, each in key order, so every row has a place in one total
 * order: (table index in the snapshot's table list, key). With more than one reader a big table is split into
 * {@link KeyRange}s read at once, each in key order, and the next table is begun only once every range of this one is
 * read. A {@link Position} therefore says which rows are still to read: in its table, the keys in its ranges (each
 * range's lower bound is the last key emitted from it); in later tables, all. When the snapshot is resumed after a
 * crash, those rows are read from a new exported snapshot taken at a later consistent point; a {@link Resume} records
 * that: the rows {@code after} names were read as of {@code readAt}. A change committed before that point is already
 * contained in those rows, so streaming must not deliver it for them ({@link ResumedRows}); the list grows by one entry
 * per resumption.
 *
 * <p>Key values are the type output texts (as COPY and pgoutput write them), URL-encoded so that the separators
 * {@code :}, {@code ,}, {@code ;}, {@code !}, {@code ~}, {@code @} and {@code |} never occur inside a value.
 */
public final class ResumableProgress {

    /** An open bound in the text form: no key value encodes to it, since URL encoding escapes {@code ~}. */
    private static final String OPEN = "~";
    /** What may follow the table index after {@code #}: a fingerprint, which never holds {@code :}. */
    private static final Pattern ROW_ORDER = Pattern.compile("[0-9a-z-]{1,40}");

    private ResumableProgress() {
    }

    /**
     * The keys of one table greater than {@code after} and at most {@code upTo}, in the key's btree order.
     *
     * @param after the exclusive lower bound (the last key read from this range); empty: from the table's first key
     * @param upTo  the inclusive upper bound; empty: to the table's last key
     */
    public record KeyRange(List<String> after, List<String> upTo) {
        /** Every key of the table. */
        public static final KeyRange ALL = new KeyRange(List.of(), List.of());

        public KeyRange {
            after = List.copyOf(after);
            upTo = List.copyOf(upTo);
        }

        /** The same range with its lower bound moved to {@code key}, a key just read from it. */
        public KeyRange after(List<String> key) {
            return new KeyRange(key, upTo);
        }
    }

    /**
     * The rows still to read: in table {@code table} (an index into the snapshot's table list) those whose key lies in
     * one of {@code rest}, and every row of the later tables.
     *
     * @param rest     the table's ranges still to read, in key order; a range may hold no row any more
     * @param rowOrder null when the table is read in the order of its unique key; for a table without one, read in the
     *                 order of a hash of its rows ({@link RowHashOrder}), that order's {@link RowHashOrder#fingerprint()}:
     *                 the bounds are hashes, which mean nothing under another column list
     */
    public record Position(int table, List<KeyRange> rest, String rowOrder) {
        public Position {
            if (table < 0) {
                throw new IllegalArgumentException("table index must be 0 or more, was " + table);
            }
            rest = List.copyOf(rest);
            if (rest.isEmpty()) {
                throw new IllegalArgumentException("a position names at least one range of its table still to read");
            }
            if (rowOrder != null && !ROW_ORDER.matcher(rowOrder).matches()) {
                throw new IllegalArgumentException("not a row order fingerprint: '" + rowOrder + "'");
            }
        }

        /** In a table read in the order of its unique key. */
        public Position(int table, List<KeyRange> rest) {
            this(table, rest, null);
        }

        /** Before the first row of table {@code table}. */
        public static Position startOf(int table) {
            return new Position(table, List.of(KeyRange.ALL));
        }

        /** After the row of table {@code table} whose key is {@code key}, the table read in one range. */
        public static Position after(int table, List<String> key) {
            return new Position(table, List.of(new KeyRange(key, List.of())));
        }

        /**
         * Whether no row of {@code table} was read yet: its ranges join up into the whole key space (each range
         * begins where the one before ends, the first open below and the last open above).
         */
        public boolean atTableStart() {
            if (!rest.get(0).after().isEmpty() || !rest.get(rest.size() - 1).upTo().isEmpty()) {
                return false;
            }
            for (int i = 1; i < rest.size(); i++) {
                if (!rest.get(i).after().equals(rest.get(i - 1).upTo())) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Rows {@code after} names as still to read were read from the exported snapshot at {@code readAt}. */
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

    /**
     * {@code table:after!upTo;after!upTo...}, each bound its key values joined by {@code ,}, or {@code ~} when open;
     * {@code table#rowOrder:...} in a table read in the order of its row hashes. The form of releases before key
     * ranges, {@code table:key}, is still read ({@link #decodePosition}).
     */
    public static String encode(Position position) {
        StringBuilder sb = new StringBuilder().append(position.table());
        if (position.rowOrder() != null) {
            sb.append('#').append(position.rowOrder());
        }
        sb.append(':');
        for (int i = 0; i < position.rest().size(); i++) {
            if (i > 0) {
                sb.append(';');
            }
            KeyRange range = position.rest().get(i);
            appendBound(sb, range.after());
            sb.append('!');
            appendBound(sb, range.upTo());
        }
        return sb.toString();
    }

    private static void appendBound(StringBuilder sb, List<String> key) {
        if (key.isEmpty()) {
            sb.append(OPEN);
            return;
        }
        for (int i = 0; i < key.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(URLEncoder.encode(key.get(i), StandardCharsets.UTF_8));
        }
    }

    /** @throws IllegalArgumentException when {@code text} is not what {@link #encode(Position)} writes */
    public static Position decodePosition(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("not a snapshot position (table:key,...): '" + text + "'");
        }
        String head = text.substring(0, colon);
        int hash = head.indexOf('#');
        String rowOrder = hash < 0 ? null : head.substring(hash + 1);
        int table;
        try {
            table = Integer.parseInt(hash < 0 ? head : head.substring(0, hash));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a snapshot position (table:key,...): '" + text + "'");
        }
        String rest = text.substring(colon + 1);
        if (rest.indexOf('!') < 0 && rowOrder == null) {
            // The single-range form of earlier releases: the last key read, empty before the table's first row.
            return rest.isEmpty() ? Position.startOf(table) : Position.after(table, decodeKey(rest));
        }
        List<KeyRange> ranges = new ArrayList<>();
        for (String part : rest.split(";", -1)) {
            int bang = part.indexOf('!');
            if (bang < 0 || part.indexOf('!', bang + 1) >= 0) {
                throw new IllegalArgumentException("not a snapshot key range (after!upTo) in position '" + text + "': '" + part + "'");
            }
            ranges.add(new KeyRange(decodeBound(part.substring(0, bang)), decodeBound(part.substring(bang + 1))));
        }
        return new Position(table, ranges, rowOrder);
    }

    private static List<String> decodeBound(String text) {
        return OPEN.equals(text) ? List.of() : decodeKey(text);
    }

    private static List<String> decodeKey(String text) {
        List<String> key = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            key.add(URLDecoder.decode(part, StandardCharsets.UTF_8));
        }
        return key;
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

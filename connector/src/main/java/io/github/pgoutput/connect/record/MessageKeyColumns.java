package io.github.pgoutput.connect.record;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The parsed {@code message.key.columns}: the columns users name as the Kafka key of some tables, in Debezium's
 * format {@code <regex>:<column>[,<column>...][;<regex>:<column>...]}, for example
 * {@code inventory.customers:pk1,pk2;(.*).purchaseorders:pk3}. Each regex is matched against the whole
 * {@code schema.table} name (case-sensitive, like {@code table.include.list}); column names are as PostgreSQL stores
 * them. The first entry whose regex matches a table names its key columns, in the order listed.
 *
 * <p>Immutable and thread-safe.
 */
public final class MessageKeyColumns {

    /** No table named: every table is keyed as the catalog has it. */
    public static final MessageKeyColumns NONE = new MessageKeyColumns(List.of());

    private record Entry(Pattern table, List<String> columns) {
    }

    private final List<Entry> entries;

    private MessageKeyColumns(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * @throws IllegalArgumentException naming the entry that is not {@code <regex>:<column>[,<column>...]} or whose
     *                                  regex does not compile
     */
    public static MessageKeyColumns parse(String value) {
        if (value == null || value.isBlank()) {
            return NONE;
        }
        List<Entry> entries = new ArrayList<>();
        for (String raw : value.split(";")) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            int colon = entry.indexOf(':');
            if (colon <= 0 || colon != entry.lastIndexOf(':') || colon == entry.length() - 1) {
                throw new IllegalArgumentException("entry '" + entry + "' is not <schema.table regex>:<column>[,<column>...]");
            }
            String table = entry.substring(0, colon).trim();
            Pattern pattern;
            try {
                pattern = Pattern.compile(table);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("'" + table + "' in entry '" + entry + "' is not a valid regular expression: "
                        + e.getDescription());
            }
            List<String> columns = new ArrayList<>();
            for (String column : entry.substring(colon + 1).split(",", -1)) {
                if (column.isBlank()) {
                    throw new IllegalArgumentException("entry '" + entry + "' has an empty column name");
                }
                columns.add(column.trim());
            }
            entries.add(new Entry(pattern, columns));
        }
        return new MessageKeyColumns(entries);
    }

    /** The columns named for {@code schema.table}, or empty when no entry matches it. */
    public Optional<List<String>> columnsOf(String schema, String table) {
        String qualified = schema + "." + table;
        for (Entry entry : entries) {
            if (entry.table().matcher(qualified).matches()) {
                return Optional.of(entry.columns());
            }
        }
        return Optional.empty();
    }
}

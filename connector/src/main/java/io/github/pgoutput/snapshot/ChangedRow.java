package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.RelationColumn;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One row of a streamed change, as far as placing it against a resumed snapshot needs ({@link RowPlacement}): the
 * columns of the Relation in force and the text pgoutput sent for each. Immutable.
 *
 * @param columns the Relation message's columns, in order
 * @param texts   by column name, the value's text output, null for SQL NULL; a column whose value the change does not
 *                carry as text (an unchanged TOAST value, a column outside a key-only old row) is absent
 */
public record ChangedRow(List<RelationColumn> columns, Map<String, String> texts) {

    public ChangedRow {
        columns = List.copyOf(columns);
        // Null values stand for SQL NULL, which Map.copyOf does not take.
        texts = Collections.unmodifiableMap(new HashMap<>(Objects.requireNonNull(texts, "texts")));
    }

    /** Whether the change carries column {@code name}'s value (as text, or SQL NULL). */
    public boolean carries(String name) {
        return texts.containsKey(name);
    }
}

package io.github.pgoutput.connect.shaping;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.github.pgoutput.connect.PgOutputSourceConnectorConfig.COLUMN_CHARS_SUFFIX;
import static io.github.pgoutput.connect.PgOutputSourceConnectorConfig.COLUMN_MASK_HASH_PREFIX;
import static io.github.pgoutput.connect.PgOutputSourceConnectorConfig.COLUMN_MASK_HASH_SALT_INFIX;
import static io.github.pgoutput.connect.PgOutputSourceConnectorConfig.COLUMN_MASK_HASH_V2_PREFIX;
import static io.github.pgoutput.connect.PgOutputSourceConnectorConfig.COLUMN_MASK_WITH_PREFIX;
import static io.github.pgoutput.connect.PgOutputSourceConnectorConfig.COLUMN_PROPAGATE_SOURCE_TYPE_CONFIG;
import static io.github.pgoutput.connect.PgOutputSourceConnectorConfig.COLUMN_TRUNCATE_TO_PREFIX;
import static io.github.pgoutput.connect.PgOutputSourceConnectorConfig.DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG;

/**
 * The column mappers Debezium's column keys configure, and which one applies to a column. As in Debezium, at most one
 * mapper applies: the first whose expressions match, trying the keys in this order, those of one kind sorted by key:
 * {@code column.truncate.to.N.chars}, {@code column.mask.with.N.chars}, {@code column.propagate.source.type},
 * {@code datatype.propagate.source.type}, {@code column.mask.hash.ALGORITHM.with.salt.SALT},
 * {@code column.mask.hash.v2.ALGORITHM.with.salt.SALT}. So a column both masked and named by
 * {@code column.propagate.source.type} is masked and gets no source type parameters, as Debezium writes it.
 *
 * <p>Immutable and thread-safe.
 */
public final class ColumnMappers {

    public static final ColumnMappers NONE = new ColumnMappers(List.of());

    private static final Pattern CHARS_KEY = Pattern.compile("(?:" + Pattern.quote(COLUMN_TRUNCATE_TO_PREFIX) + "|"
            + Pattern.quote(COLUMN_MASK_WITH_PREFIX) + ")(.*)" + Pattern.quote(COLUMN_CHARS_SUFFIX));
    /** Debezium's form: the algorithm has no dot, the salt is everything after it (dots included). */
    private static final Pattern HASH_KEY = Pattern.compile(Pattern.quote(COLUMN_MASK_HASH_PREFIX) + "(v2\\.)?([^.]+)"
            + Pattern.quote(COLUMN_MASK_HASH_SALT_INFIX) + "(.+)");

    /** One configured mapper and the columns it applies to. */
    private record Rule(RegexList columns, boolean byDataType, ColumnMapper mapper) {

        boolean matches(SourceColumn column) {
            return columns.matches(byDataType ? column.qualifiedTypeName() : column.qualifiedName());
        }
    }

    private final List<Rule> rules;

    private ColumnMappers(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** Whether {@code key} is one of the column keys this class reads. */
    public static boolean isMapperKey(String key) {
        return key.equals(COLUMN_PROPAGATE_SOURCE_TYPE_CONFIG) || key.equals(DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG)
                || key.startsWith(COLUMN_TRUNCATE_TO_PREFIX) || key.startsWith(COLUMN_MASK_WITH_PREFIX)
                || key.startsWith(COLUMN_MASK_HASH_PREFIX);
    }

    /**
     * The mappers the column keys of {@code props} configure; other keys are ignored.
     *
     * @throws ShapingKeyException naming the first key that is malformed (N not a positive integer, no salt, an
     *                             unknown algorithm) or whose value is not a list of valid regular expressions
     */
    public static ColumnMappers of(Map<String, ?> props) {
        List<String> keys = props.keySet().stream().filter(ColumnMappers::isMapperKey).sorted(Comparator.naturalOrder()).toList();
        List<Rule> rules = new ArrayList<>();
        for (int kind = 0; kind < 6; kind++) {
            for (String key : keys) {
                if (kindOf(key) == kind) {
                    rules.add(rule(key, props.get(key)));
                }
            }
        }
        return new ColumnMappers(rules);
    }

    /** The order of the kinds of keys, Debezium's. */
    private static int kindOf(String key) {
        if (key.startsWith(COLUMN_TRUNCATE_TO_PREFIX)) {
            return 0;
        }
        if (key.startsWith(COLUMN_MASK_WITH_PREFIX)) {
            return 1;
        }
        if (key.equals(COLUMN_PROPAGATE_SOURCE_TYPE_CONFIG)) {
            return 2;
        }
        if (key.equals(DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG)) {
            return 3;
        }
        return key.startsWith(COLUMN_MASK_HASH_V2_PREFIX) ? 5 : 4;
    }

    private static Rule rule(String key, Object value) {
        RegexList columns;
        try {
            columns = RegexList.parse(value == null ? null : value.toString());
        } catch (IllegalArgumentException e) {
            throw new ShapingKeyException(key, key + " must be a comma-separated list of regular expressions matching "
                    + (key.equals(DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG) ? "schema.table.type" : "schema.table.column")
                    + " names, but " + e.getMessage());
        }
        if (key.equals(COLUMN_PROPAGATE_SOURCE_TYPE_CONFIG) || key.equals(DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG)) {
            return new Rule(columns, key.equals(DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG), new ColumnMapper.PropagateSourceType());
        }
        if (key.startsWith(COLUMN_MASK_HASH_PREFIX)) {
            Matcher hash = HASH_KEY.matcher(key);
            if (!hash.matches()) {
                throw new ShapingKeyException(key, key + " is not column.mask.hash.ALGORITHM.with.salt.SALT nor"
                        + " column.mask.hash.v2.ALGORITHM.with.salt.SALT; write it as, for example,"
                        + " column.mask.hash.SHA-256.with.salt.CzQMA0cB5K");
            }
            try {
                return new Rule(columns, false, new HashMask(hash.group(2), hash.group(3), hash.group(1) != null));
            } catch (IllegalArgumentException e) {
                throw new ShapingKeyException(key, key + ": " + e.getMessage());
            }
        }
        Matcher chars = CHARS_KEY.matcher(key);
        int n = chars.matches() ? positive(chars.group(1)) : 0;
        if (n <= 0) {
            String prefix = key.startsWith(COLUMN_TRUNCATE_TO_PREFIX) ? COLUMN_TRUNCATE_TO_PREFIX : COLUMN_MASK_WITH_PREFIX;
            throw new ShapingKeyException(key, key + " is not " + prefix + "N" + COLUMN_CHARS_SUFFIX + " with N a positive whole"
                    + " number of characters; write it as, for example, " + prefix + "12" + COLUMN_CHARS_SUFFIX);
        }
        return new Rule(columns, false, key.startsWith(COLUMN_TRUNCATE_TO_PREFIX) ? new ColumnMapper.Truncate(n)
                : ColumnMapper.Mask.ofLength(n));
    }

    private static int positive(String digits) {
        if (!digits.matches("[0-9]{1,9}")) {
            return 0;
        }
        return Integer.parseInt(digits);
    }

    /** The mapper of {@code column}: the first rule that matches it. */
    public Optional<ColumnMapper> mapperFor(SourceColumn column) {
        for (Rule rule : rules) {
            if (rule.matches(column)) {
                return Optional.of(rule.mapper());
            }
        }
        return Optional.empty();
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }
}

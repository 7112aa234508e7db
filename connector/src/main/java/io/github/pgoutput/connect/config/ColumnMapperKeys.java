package io.github.pgoutput.connect.config;

import static io.github.pgoutput.connect.config.ColumnKeys.COLUMN_CHARS_SUFFIX;
import static io.github.pgoutput.connect.config.ColumnKeys.COLUMN_MASK_HASH_PREFIX;
import static io.github.pgoutput.connect.config.ColumnKeys.COLUMN_MASK_HASH_SALT_INFIX;
import static io.github.pgoutput.connect.config.ColumnKeys.COLUMN_MASK_HASH_V2_PREFIX;
import static io.github.pgoutput.connect.config.ColumnKeys.COLUMN_MASK_WITH_PREFIX;
import static io.github.pgoutput.connect.config.ColumnKeys.COLUMN_PROPAGATE_SOURCE_TYPE_CONFIG;
import static io.github.pgoutput.connect.config.ColumnKeys.COLUMN_TRUNCATE_TO_PREFIX;
import static io.github.pgoutput.connect.config.ColumnKeys.DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG;

import io.github.pgoutput.connect.shaping.ColumnMapper;
import io.github.pgoutput.connect.shaping.ColumnMappers;
import io.github.pgoutput.connect.shaping.HashMask;
import io.github.pgoutput.connect.shaping.RegexList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads Debezium's column mapper keys, whose names carry a parameter: {@code column.truncate.to.N.chars},
 * {@code column.mask.with.N.chars}, {@code column.mask.hash[.v2].ALGORITHM.with.salt.SALT}, and the two
 * {@code *.propagate.source.type} keys. As in Debezium, the kinds are tried in that order (see {@link ColumnMappers}),
 * those of one kind sorted by key.
 *
 * <p>Stateless.
 */
public final class ColumnMapperKeys {

    private static final Pattern CHARS_KEY = Pattern.compile("(?:" + Pattern.quote(COLUMN_TRUNCATE_TO_PREFIX) + "|"
            + Pattern.quote(COLUMN_MASK_WITH_PREFIX) + ")(.*)" + Pattern.quote(COLUMN_CHARS_SUFFIX));
    /** Debezium's form: the algorithm has no dot, the salt is everything after it (dots included). */
    private static final Pattern HASH_KEY = Pattern.compile(Pattern.quote(COLUMN_MASK_HASH_PREFIX) + "(v2\\.)?([^.]+)"
            + Pattern.quote(COLUMN_MASK_HASH_SALT_INFIX) + "(.+)");

    private ColumnMapperKeys() {
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
    public static ColumnMappers mappers(Map<String, ?> props) {
        List<String> keys = props.keySet().stream().filter(ColumnMapperKeys::isMapperKey).sorted(Comparator.naturalOrder()).toList();
        List<ColumnMappers.Rule> rules = new ArrayList<>();
        for (int kind = 0; kind < 6; kind++) {
            for (String key : keys) {
                if (kindOf(key) == kind) {
                    rules.add(rule(key, props.get(key)));
                }
            }
        }
        return ColumnMappers.of(rules);
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

    private static ColumnMappers.Rule rule(String key, Object value) {
        RegexList columns;
        try {
            columns = RegexList.parse(value == null ? null : value.toString());
        } catch (IllegalArgumentException e) {
            throw new ShapingKeyException(key, key + " must be a comma-separated list of regular expressions matching "
                    + (key.equals(DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG) ? "schema.table.type" : "schema.table.column")
                    + " names, but " + e.getMessage());
        }
        if (key.equals(COLUMN_PROPAGATE_SOURCE_TYPE_CONFIG) || key.equals(DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG)) {
            return new ColumnMappers.Rule(columns, key.equals(DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG), new ColumnMapper.PropagateSourceType());
        }
        if (key.startsWith(COLUMN_MASK_HASH_PREFIX)) {
            Matcher hash = HASH_KEY.matcher(key);
            if (!hash.matches()) {
                throw new ShapingKeyException(key, key + " is not column.mask.hash.ALGORITHM.with.salt.SALT nor"
                        + " column.mask.hash.v2.ALGORITHM.with.salt.SALT; write it as, for example,"
                        + " column.mask.hash.SHA-256.with.salt.CzQMA0cB5K");
            }
            try {
                return new ColumnMappers.Rule(columns, false, new HashMask(hash.group(2), hash.group(3), hash.group(1) != null));
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
        return new ColumnMappers.Rule(columns, false, key.startsWith(COLUMN_TRUNCATE_TO_PREFIX) ? new ColumnMapper.Truncate(n)
                : ColumnMapper.Mask.ofLength(n));
    }

    private static int positive(String digits) {
        if (!digits.matches("[0-9]{1,9}")) {
            return 0;
        }
        return Integer.parseInt(digits);
    }
}

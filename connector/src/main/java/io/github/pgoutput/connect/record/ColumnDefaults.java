package io.github.pgoutput.connect.record;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import io.github.pgoutput.converters.BuiltInTypes;
import io.github.pgoutput.converters.ColumnConverter;
import io.github.pgoutput.converters.PgColumnType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * A column's default value for its schema, read from the default expression the catalog prints
 * ({@code pg_get_expr}) the way Debezium's PostgreSQL connector reads it, so both schemas carry the same default:
 * <ul>
 *   <li>Only columns of these types get one: {@code bool}, {@code bit}, {@code varbit}, {@code char(n)},
 *       {@code varchar}, {@code text}, {@code numeric}, {@code float4}, {@code float8}, {@code int2}, {@code int4},
 *       {@code int8}, {@code json}, {@code jsonb}, {@code xml}, {@code uuid}, {@code date}, {@code time},
 *       {@code timestamp}, {@code timestamptz}, {@code interval}, and enums whose default names the enum's own type.
 *       Others ({@code bytea}, {@code timetz}, {@code money}, network and geometric types, arrays, domains, ...) and
 *       expressions it cannot read get none.</li>
 *   <li>A literal ({@code 'abc'::text}, {@code '-1'::integer}, {@code 12.5}, {@code true}) is the value.</li>
 *   <li>A function call ({@code now()}, {@code nextval('t_id_seq'::regclass)}, {@code gen_random_uuid()}) or
 *       {@code CURRENT_TIMESTAMP}, {@code CURRENT_DATE}, {@code CURRENT_TIME}, {@code LOCALTIME},
 *       {@code LOCALTIMESTAMP} stands for the type's zero: 0, the empty string, {@code {}} for JSON, the epoch for
 *       dates and times, the nil UUID: Debezium's placeholders, as the real value is known only per row.</li>
 *   <li>{@code NULL::type} gives none.</li>
 * </ul>
 * The literal is converted with the column's own {@link ColumnConverter#fromText}, so the default has the column's
 * schema type under every handling mode; a literal the converter refuses, or a value that is a Struct (variable
 * scale numerics: Connect cannot hold a Struct default, KAFKA-12694), gives none.
 *
 * <p>Where Debezium's reading is wrong we are not: a quote doubled inside a literal ({@code 'it''s'}) is one quote.
 *
 * <p>Stateless.
 */
public final class ColumnDefaults {

    /** A call at the start of the expression, maybe in parentheses: {@code now()}, {@code nextval('s'::regclass)}. */
    private static final Pattern FUNCTION = Pattern.compile("^[(]?[A-Za-z0-9_.]+\\((?:.+(?:, ?.+)*)?\\)");
    private static final Set<String> CURRENT_DATE_TIMES = Set.of("current_timestamp", "current_time", "current_date",
            "localtime", "localtimestamp");

    private ColumnDefaults() {
    }

    /**
     * The default of a column of {@code converter}'s type, converted to its schema; empty when the column has none
     * that Debezium would carry.
     *
     * @param expression the default expression as the catalog prints it; null without one
     */
    static Optional<Object> of(ColumnConverter converter, String expression) {
        if (expression == null) {
            return Optional.empty();
        }
        try {
            Optional<String> text = literal(converter.type(), expression.trim());
            if (text.isEmpty()) {
                return Optional.empty();
            }
            Object value = converter.fromText(text.get());
            if (value == null || value instanceof Struct) {
                return Optional.empty();
            }
            return Optional.ofNullable(rescaled(value, converter.schema(true)));
        } catch (RuntimeException e) {
            // As Debezium: an expression that is not a literal of the type is not evaluated; the column has no default.
            return Optional.empty();
        }
    }

    /** The text form of the default, to convert as PostgreSQL would print the value; empty for none. */
    static Optional<String> literal(PgColumnType type, String expression) {
        if (type.kind() instanceof PgColumnType.Enum) {
            return enumLiteral(type, expression);
        }
        if (!(type.kind() instanceof PgColumnType.Base) || type.oid() >= 16384) {
            return Optional.empty();
        }
        switch (type.oid()) {
            case BuiltInTypes.BOOL: {
                Optional<String> text = extract(expression, "false");
                // Debezium reads the literal with Boolean.parseBoolean: anything but "true" is false.
                return text.map(t -> Boolean.parseBoolean(t) ? "t" : "f");
            }
            case BuiltInTypes.BIT:
                return extract(expression, "00");
            case BuiltInTypes.VARBIT:
                return extract(expression, "0");
            case BuiltInTypes.BPCHAR:
            case BuiltInTypes.VARCHAR:
            case BuiltInTypes.TEXT:
            case BuiltInTypes.XML:
                return extract(expression, "");
            case BuiltInTypes.JSON:
            case BuiltInTypes.JSONB:
                return extract(expression, "{}");
            case BuiltInTypes.NUMERIC:
                return extract(expression, "0.0").map(t -> new BigDecimal(t).toPlainString());
            case BuiltInTypes.FLOAT4:
            case BuiltInTypes.FLOAT8:
                return extract(expression, "0.0").map(t -> {
                    Double.parseDouble(t);
                    return t;
                });
            case BuiltInTypes.INT2:
            case BuiltInTypes.INT4:
            case BuiltInTypes.INT8:
                return extract(expression, "0").map(t -> Long.toString(Long.parseLong(t)));
            case BuiltInTypes.UUID:
                return extract(expression, "00000000-0000-0000-0000-000000000000");
            case BuiltInTypes.DATE:
                return extract(expression, "1970-01-01");
            case BuiltInTypes.TIME:
                return extract(expression, "00:00:00");
            case BuiltInTypes.TIMESTAMP:
                return extract(expression, "1970-01-01 00:00:00");
            case BuiltInTypes.TIMESTAMPTZ:
                return extract(expression, "1970-01-01 00:00:00+00");
            case BuiltInTypes.INTERVAL:
                return extract(expression, "00:00:00");
            default:
                return Optional.empty();
        }
    }

    /**
     * The literal of an expression, or {@code placeholder} for one computed per row. Without a quote the expression
     * is the literal itself ({@code 123}, {@code true}), except {@code NULL::type}.
     */
    private static Optional<String> extract(String expression, String placeholder) {
        if (FUNCTION.matcher(expression).find() || CURRENT_DATE_TIMES.contains(expression.toLowerCase(Locale.ROOT))) {
            return Optional.of(placeholder);
        }
        if (expression.indexOf('\'') < 0) {
            return expression.startsWith("NULL::") ? Optional.empty() : Optional.of(expression);
        }
        return quoted(expression, expression.indexOf('\''));
    }

    /** The quoted string that starts at {@code open}, a doubled quote inside it read as one. */
    private static Optional<String> quoted(String expression, int open) {
        StringBuilder text = new StringBuilder();
        for (int i = open + 1; i < expression.length(); i++) {
            char c = expression.charAt(i);
            if (c == '\'') {
                if (i + 1 < expression.length() && expression.charAt(i + 1) == '\'') {
                    text.append('\'');
                    i++;
                    continue;
                }
                return Optional.of(text.toString());
            }
            text.append(c);
        }
        return Optional.empty();
    }

    /** {@code 'label'::mood} or {@code 'label'::s.mood} for an enum {@code mood}; other casts are not its default. */
    private static Optional<String> enumLiteral(PgColumnType type, String expression) {
        int cast = expression.lastIndexOf("::");
        if (cast < 0 || !expression.startsWith("'")) {
            return Optional.empty();
        }
        String target = expression.substring(cast + 2);
        int dot = target.lastIndexOf('.');
        String name = unquote(dot < 0 ? target : target.substring(dot + 1));
        if (!name.equals(type.name())) {
            return Optional.empty();
        }
        if (dot >= 0 && !unquote(target.substring(0, dot)).equals(type.namespace())) {
            return Optional.empty();
        }
        return quoted(expression.substring(0, cast), 0);
    }

    private static String unquote(String identifier) {
        return identifier.length() >= 2 && identifier.startsWith("\"") && identifier.endsWith("\"")
                ? identifier.substring(1, identifier.length() - 1).replace("\"\"", "\"")
                : identifier;
    }

    /** A decimal default at the schema's scale ({@code 0} for a {@code numeric(10,2)} column is {@code 0.00}). */
    private static Object rescaled(Object value, Schema schema) {
        if (!(value instanceof BigDecimal decimal) || !Decimal.LOGICAL_NAME.equals(schema.name())) {
            return value;
        }
        int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
        if (decimal.scale() == scale) {
            return decimal;
        }
        try {
            return decimal.setScale(scale);
        } catch (ArithmeticException e) {
            return null;
        }
    }
}

package io.github.pgoutput.parity;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The outbox table a configuration's {@code EventRouter} reads: Debezium's default columns ({@code id},
 * {@code aggregatetype}, {@code aggregateid}, {@code type}, {@code payload}) under the names its
 * {@code table.field.event.*} and {@code route.by.field} keys give, plus the columns its
 * {@code table.fields.additional.placement} places; rows with a value in each.
 */
record OutboxShape(Map<String, String> columns) {

    private static final String ROUTER = DownstreamClientsIT.OUTBOX_ROUTER;

    /** The shape of the first outbox router of {@code config}, or null when it has none. */
    static OutboxShape of(Map<String, String> config) {
        String alias = Arrays.stream(config.getOrDefault("transforms", "").split(",")).map(String::trim)
                .filter(a -> ROUTER.equals(config.getOrDefault("transforms." + a + ".type", "").trim())).findFirst().orElse(null);
        if (alias == null) {
            return null;
        }
        String prefix = "transforms." + alias + ".";
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put(config.getOrDefault(prefix + "table.field.event.id", "id"), "uuid PRIMARY KEY");
        columns.put(config.getOrDefault(prefix + "route.by.field", "aggregatetype"), "varchar(255) NOT NULL");
        columns.put(config.getOrDefault(prefix + "table.field.event.key", "aggregateid"), "varchar(255) NOT NULL");
        columns.putIfAbsent(config.getOrDefault(prefix + "table.field.event.type", "type"), "varchar(255) NOT NULL");
        columns.put(config.getOrDefault(prefix + "table.field.event.payload", config.getOrDefault(prefix + "table.field.payload",
                "payload")), "jsonb");
        String timestamp = config.getOrDefault(prefix + "table.field.event.timestamp", config.get(prefix + "table.field.timestamp"));
        if (timestamp != null) {
            // timestamp, not timestamptz: the router reads an INT64 (MicroTimestamp), which timestamptz (a string) is not
            columns.put(timestamp.trim(), "timestamp NOT NULL DEFAULT now()");
        }
        for (String placement : config.getOrDefault(prefix + "table.fields.additional.placement", "").split(",")) {
            String column = placement.split(":")[0].trim();
            if (!column.isEmpty()) {
                columns.putIfAbsent(column, "varchar(255)");
            }
        }
        return new OutboxShape(columns);
    }

    String createTable(String quotedName) {
        return "CREATE TABLE " + quotedName + " (" + columns.entrySet().stream().map(e -> "\"" + e.getKey() + "\" " + e.getValue())
                .collect(Collectors.joining(", ")) + ")";
    }

    /** Two events: an Order and a Customer, each with a JSON payload. */
    String[] rows(String quotedName) {
        List<String> names = columns.keySet().stream().filter(c -> !columns.get(c).startsWith("timestamp ")).toList();
        StringBuilder sql = new StringBuilder("INSERT INTO " + quotedName + " ("
                + names.stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(", ")) + ") VALUES ");
        for (int i = 1; i <= 2; i++) {
            String aggregate = i == 1 ? "Order" : "Customer";
            int event = i;
            List<String> values = names.stream().map(n -> switch (columns.get(n).split(" ")[0]) {
                case "uuid" -> "'00000000-0000-0000-0000-00000000000" + event + "'";
                case "jsonb" -> "'{\"n\": " + event + ", \"note\": \"event " + event + "\"}'";
                default -> "'" + (n.equals(names.get(1)) ? aggregate : aggregate.toLowerCase() + "-" + event) + "'";
            }).toList();
            sql.append(i > 1 ? ", " : "").append("(").append(String.join(", ", values)).append(")");
        }
        return new String[] {sql.toString()};
    }
}

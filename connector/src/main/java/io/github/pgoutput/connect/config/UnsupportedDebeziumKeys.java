package io.github.pgoutput.connect.config;

import static io.github.pgoutput.connect.config.ReplicationKeys.MESSAGES_ENABLED_CONFIG;
import static io.github.pgoutput.connect.config.ReplicationKeys.PROTOCOL_VERSION_CONFIG;
import static io.github.pgoutput.connect.config.ReplicationKeys.PUBLICATION_AUTOCREATE_MODE_CONFIG;
import static io.github.pgoutput.connect.config.ReplicationKeys.STREAMING_CONFIG;
import static io.github.pgoutput.connect.config.SnapshotKeys.SNAPSHOT_INCLUDE_LIST_CONFIG;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The keys of Debezium's PostgreSQL connector (3.7) that this connector does not define and that, set in a
 * configuration, would change which rows or what values Debezium emits. Kafka Connect hands unknown keys to a
 * connector without complaint, so such a key would otherwise be ignored and the records would differ from what the
 * configuration asks for; validation and the connector and task start refuse it instead, with the error on the key.
 *
 * <p>Debezium keys that do not change the records (performance, metrics, notifications, LSN flushing, snapshot
 * locking, schema history) are accepted and have no effect; {@link IgnoredKeys} logs a WARN naming each one that
 * nothing reads. A key that takes a value we behave like (for example {@code include.unknown.datatypes=true}) is
 * accepted with that value. The keys this connector defines itself ({@code snapshot.mode}, {@code plugin.name},
 * {@code slot.drop.on.stop}, ...) are validated by their own rules, and Debezium's pre-2.0 names by
 * {@link LegacyDebeziumKeys}. An empty value is an unset key ({@link EmptyValues}), so it is never refused here.
 *
 * <p>Stateless.
 */
public final class UnsupportedDebeziumKeys {

    private UnsupportedDebeziumKeys() {
    }

    /**
     * One refused key, or family of keys when {@code prefix} is set.
     *
     * @param name     the key, or the start of the keys, Debezium reads
     * @param prefix   whether {@code name} is a prefix (for keys such as {@code column.mask.with.12.chars})
     * @param accepted the values (lower case, trimmed) this connector behaves like and accepts; empty: none
     * @param advice   what this connector does instead, and what to use, appended to the error
     */
    record Rule(String name, boolean prefix, Set<String> accepted, String advice) {

        boolean matches(String key) {
            return prefix ? key.startsWith(name) : key.equals(name);
        }
    }

    static final List<Rule> RULES = List.of(
            // A snapshot query per table selects other rows or columns than the table holds.
            new Rule("snapshot.select.statement.overrides", true, Set.of(), "this connector snapshots whole tables;"
                    + " restrict the rows with a publication row filter (WHERE) and " + PUBLICATION_AUTOCREATE_MODE_CONFIG
                    + "=disabled, or the tables with " + SNAPSHOT_INCLUDE_LIST_CONFIG),
            new Rule("snapshot.query.mode", false, Set.of("select_all"), "this connector snapshots with SELECT *;"
                    + " remove the key"),
            // Debezium's default (false) leaves columns of types it does not know out of the records; this
            // connector always emits them, as their text form.
            new Rule("include.unknown.datatypes", false, Set.of("true"), "this connector always emits columns of"
                    + " types it has no mapping for, as their PostgreSQL text form; remove the key or set it to true"),
            // Built-in tables are the system schemas, which this connector never captures.
            new Rule("table.ignore.builtin", false, Set.of("true"), "this connector never captures the system"
                    + " schemas (pg_catalog, information_schema, pg_*); remove the key"),
            // Skipping or only logging a change that fails to process loses it; this connector fails the task.
            new Rule("event.processing.failure.handling.mode", false, Set.of("fail"), "this connector fails the task"
                    + " on a change it cannot process and never skips one; remove the key or set it to fail"),
            new Rule("event.converting.failure.handling.mode", false, Set.of("fail"), "this connector fails the task"
                    + " on a value it cannot convert and never writes null in its place; remove the key or set it to"
                    + " fail"),
            new Rule("skip.messages.without.change", false, Set.of("false"), "this connector emits every update,"
                    + " changed columns or not; remove the key"),
            // Options for the output plugin change what PostgreSQL sends.
            new Rule("slot.stream.params", false, Set.of(), "this connector sets the pgoutput options itself;"
                    + " use " + PROTOCOL_VERSION_CONFIG + ", " + STREAMING_CONFIG + " and " + MESSAGES_ENABLED_CONFIG),
            // Changes which topics the changes of partitions go to.
            new Rule("publish.via.partition.root", false, Set.of("false"), "this connector creates its publications"
                    + " without publish_via_partition_root, so the changes of a partition carry the partition's name;"
                    + " remove the key"),
            // Replaceable parts that shape topics, the source block and the transaction records.
            new Rule("topic.naming.strategy", false, Set.of("io.debezium.schema.schematopicnamingstrategy"),
                    "this connector names topics as Debezium's default strategy does; remove the key"),
            new Rule("sourceinfo.struct.maker", false, Set.of("io.debezium.connector.postgresql.postgressourceinfostructmaker"),
                    "this connector writes the source block as Debezium's default does; remove the key"),
            new Rule("transaction.metadata.factory", false, Set.of("io.debezium.pipeline.txmetadata.defaulttransactionmetadatafactory"),
                    "this connector writes the transaction metadata as Debezium's default does; remove the key"),
            // Parts of the topic names Debezium's default strategy reads besides topic.prefix.
            new Rule("topic.delimiter", false, Set.of("."), "this connector joins the parts of topic names with '.';"
                    + " remove the key, and rename topics with a RegexRouter transform if you need another delimiter"),
            new Rule("topic.transaction", false, Set.of("transaction"), "this connector writes transaction metadata to"
                    + " <topic.prefix>.transaction; remove the key, and rename that topic with a RegexRouter transform"),
            // Renaming schemas and fields for Avro changes the records' schemas.
            new Rule("schema.name.adjustment.mode", false, Set.of("none"), "this connector writes schema names unchanged;"
                    + " remove the key (or set it to none)"),
            new Rule("field.name.adjustment.mode", false, Set.of("none"), "this connector writes field names as the"
                    + " columns are named; remove the key (or set it to none)"),
            // Table and column comments as schema docs change the records' schemas.
            new Rule("include.schema.comments", false, Set.of("false"), "this connector writes no comments into the"
                    + " schemas; remove the key (or set it to false)"),
            // A slot xmin in the source block.
            new Rule("xmin.fetch.interval.ms", false, Set.of("0"), "this connector leaves source.xmin null; remove the"
                    + " key (or set it to 0)"));

    /** The problems of the refused keys in {@code props}, one per key, each on its key. */
    static List<ConfigProblem> problems(Map<String, ?> props) {
        List<ConfigProblem> problems = new ArrayList<>();
        props.forEach((key, value) -> {
            Rule rule = rule(key);
            String text = value == null ? "" : value.toString().trim();
            if (rule != null && !rule.accepted().contains(text.toLowerCase(Locale.ROOT))) {
                problems.add(new ConfigProblem(key, key + "=" + text + " is a Debezium setting this connector does not"
                        + " support, and ignoring it would change the records; " + rule.advice()));
            }
        });
        problems.sort((a, b) -> a.key().compareTo(b.key()));
        return problems;
    }

    /** The rule {@code key} falls under, or null when this connector accepts the key (or defines it). */
    static Rule rule(String key) {
        if (PgOutputSourceConnectorConfig.CONFIG_DEF.configKeys().containsKey(key)) {
            return null;
        }
        return RULES.stream().filter(r -> r.matches(key)).findFirst().orElse(null);
    }
}

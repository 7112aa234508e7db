package io.github.pgoutput.connect.record;

import java.util.Objects;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The names of the topics this connector writes to:
 * <ul>
 *   <li>{@code <topic.prefix>.<schema>.<table>}: the change events of one table;</li>
 *   <li>{@code <topic.prefix>.transaction}: transaction metadata;</li>
 *   <li>{@code <topic.prefix>.message}: logical decoding messages;</li>
 *   <li>{@code <topic.heartbeat.prefix>.<topic.prefix>}: heartbeats, or {@code topic.heartbeat.name} when set.</li>
 * </ul>
 * Kafka allows only ASCII letters, digits, '.', '_' and '-' in topic names, so every other character of a schema or
 * table name becomes '_' (one '_' per Unicode code point). Distinct tables can therefore share a topic
 * ({@code "a b"} and {@code a_b}); a dot inside a name is kept and is indistinguishable from the separator. A topic
 * name longer than Kafka's 249 characters is an error, never truncated.
 *
 * <p>Immutable and thread-safe.
 */
public final class TopicNames {

    /** Kafka's limit on topic name length. */
    static final int MAX_TOPIC_LENGTH = 249;

    private final String topicPrefix;
    private final String heartbeatPrefix;
    /** The whole heartbeat topic name, or null for {@code <heartbeatPrefix>.<topicPrefix>}. */
    private final String heartbeatName;

    public TopicNames(String topicPrefix, String heartbeatPrefix) {
        this(topicPrefix, heartbeatPrefix, null);
    }

    /** @param heartbeatName the whole heartbeat topic name ({@code topic.heartbeat.name}), or null for the prefix's */
    public TopicNames(String topicPrefix, String heartbeatPrefix, String heartbeatName) {
        this.topicPrefix = Objects.requireNonNull(topicPrefix, "topicPrefix");
        this.heartbeatPrefix = Objects.requireNonNull(heartbeatPrefix, "heartbeatPrefix");
        this.heartbeatName = heartbeatName;
    }

    /**
     * @throws ConnectException when the resulting name is longer than Kafka allows, naming the table
     */
    public String table(String schema, String table) {
        String topic = topicPrefix + "." + sanitize(schema) + "." + sanitize(table);
        if (topic.length() > MAX_TOPIC_LENGTH) {
            throw new ConnectException("the topic name for table " + schema + "." + table + " would be "
                    + topic.length() + " characters long, more than Kafka's " + MAX_TOPIC_LENGTH + "; use a shorter "
                    + "topic.prefix or route the table with a RegexRouter transform");
        }
        return topic;
    }

    public String transaction() {
        return topicPrefix + ".transaction";
    }

    public String message() {
        return topicPrefix + ".message";
    }

    public String heartbeat() {
        return heartbeatName != null ? heartbeatName : heartbeatPrefix + "." + topicPrefix;
    }

    /** Replaces each code point outside {@code [A-Za-z0-9._-]} by '_'. */
    static String sanitize(String name) {
        StringBuilder out = new StringBuilder(name.length());
        name.codePoints().forEach(c -> out.append(isTopicChar(c) ? (char) c : '_'));
        return out.toString();
    }

    private static boolean isTopicChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '.' || c == '_' || c == '-';
    }
}

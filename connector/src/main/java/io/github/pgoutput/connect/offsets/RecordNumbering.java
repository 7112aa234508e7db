package io.github.pgoutput.connect.offsets;

import io.github.pgoutput.connect.PgOutputSourceConnectorConfig;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The fingerprint of the settings that decide how the records of one delivery are numbered ({@code pg.tx_order},
 * and {@code tx_order} in the source offset).
 *
 * <p>Why it exists: a delivery's records are numbered 1, 2, ... as they are emitted, and which records a delivery has
 * depends on the configuration: the captured tables (changes on other tables give no record), tombstones after
 * deletes, the BEGIN/END records of the transaction topic, logical messages (PostgreSQL sends them only when asked)
 * two-phase staging (PREPARED plus an outcome, or one ordinary transaction), the key columns (an update that
 * changes the key is a delete, a tombstone and a create), skipped.operations and the message prefix lists. A stored offset that is inside a
 * delivery names record {@code n}; after one of these settings changed, record {@code n} is another record, and
 * skipping {@code n} records would drop or repeat data. The offset therefore stores this fingerprint, and a resume
 * with another fingerprint emits the delivery again from its first record (at-least-once: the records already in
 * Kafka come again).
 *
 * <p>Stateless and thread-safe.
 */
public final class RecordNumbering {

    private RecordNumbering() {
    }

    /** A short, stable text: the same settings give the same fingerprint in every JVM and version. */
    public static String fingerprint(PgOutputSourceConnectorConfig config) {
        String canonical = String.join("\n",
                "include=" + patterns(config.tableIncludeList()),
                "exclude=" + patterns(config.tableExcludeList()),
                "tombstones=" + config.tombstonesOnDelete(),
                "transactions=" + config.provideTransactionMetadata(),
                "messages=" + config.messagesEnabled(),
                "prepared=" + config.preparedTransactionMode().name(),
                "keys=" + config.getString(PgOutputSourceConnectorConfig.MESSAGE_KEY_COLUMNS_CONFIG),
                "skipped=" + new java.util.TreeSet<>(config.skippedOperations()),
                "messageInclude=" + patterns(config.messagePrefixIncludeList()),
                "messageExclude=" + patterns(config.messagePrefixExcludeList()));
        // Added after the others and only when set, so that offsets stored before these keys existed keep their
        // fingerprint (a changed fingerprint emits the delivery again).
        if (!config.schemaIncludeList().isEmpty()) {
            canonical += "\nschemaInclude=" + patterns(config.schemaIncludeList());
        }
        if (!config.schemaExcludeList().isEmpty()) {
            canonical += "\nschemaExclude=" + patterns(config.schemaExcludeList());
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }

    private static String patterns(List<Pattern> patterns) {
        return patterns.stream().map(Pattern::pattern).collect(Collectors.joining(","));
    }
}

package io.github.pgoutput.connect.offsets;

import io.github.pgoutput.assembly.PreparedTransactionMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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

    /**
     * The settings the numbering depends on, as the configuration resolves them.
     *
     * @param tableInclude         {@code table.include.list}
     * @param tableExclude         {@code table.exclude.list}
     * @param tombstonesOnDelete   {@code tombstones.on.delete}
     * @param transactionMetadata  {@code provide.transaction.metadata}
     * @param messages             {@code messages.enabled}
     * @param preparedTransactions {@code prepared.transaction.mode}
     * @param keyColumns           {@code message.key.columns} as written, or null when unset
     * @param skippedOperations    {@code skipped.operations}
     * @param messageInclude       {@code message.prefix.include.list}
     * @param messageExclude       {@code message.prefix.exclude.list}
     * @param schemaInclude        {@code schema.include.list}
     * @param schemaExclude        {@code schema.exclude.list}
     */
    public record Settings(List<Pattern> tableInclude, List<Pattern> tableExclude, boolean tombstonesOnDelete,
                           boolean transactionMetadata, boolean messages, PreparedTransactionMode preparedTransactions,
                           String keyColumns, Set<String> skippedOperations, List<Pattern> messageInclude,
                           List<Pattern> messageExclude, List<Pattern> schemaInclude, List<Pattern> schemaExclude) {
    }

    private RecordNumbering() {
    }

    /** A short, stable text: the same settings give the same fingerprint in every JVM and version. */
    public static String fingerprint(Settings settings) {
        String canonical = String.join("\n",
                "include=" + patterns(settings.tableInclude()),
                "exclude=" + patterns(settings.tableExclude()),
                "tombstones=" + settings.tombstonesOnDelete(),
                "transactions=" + settings.transactionMetadata(),
                "messages=" + settings.messages(),
                "prepared=" + settings.preparedTransactions().name(),
                "keys=" + settings.keyColumns(),
                "skipped=" + new TreeSet<>(settings.skippedOperations()),
                "messageInclude=" + patterns(settings.messageInclude()),
                "messageExclude=" + patterns(settings.messageExclude()));
        // Added after the others and only when set, so that offsets stored before these keys existed keep their
        // fingerprint (a changed fingerprint emits the delivery again).
        if (!settings.schemaInclude().isEmpty()) {
            canonical += "\nschemaInclude=" + patterns(settings.schemaInclude());
        }
        if (!settings.schemaExclude().isEmpty()) {
            canonical += "\nschemaExclude=" + patterns(settings.schemaExclude());
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

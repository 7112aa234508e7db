package io.github.pgoutput.spill;

import java.util.Objects;

/**
 * What a {@link TransactionSpillFactory} gets to build a spill.
 *
 * @param slotName    the replication slot the spill serves; backends use it to keep the data of two connectors apart
 * @param settings    the {@code spill.*} settings
 * @param connections connections to the source database (used by the database backend; others may ignore it)
 */
public record SpillContext(String slotName, SpillSettings settings, SourceConnections connections) {

    public SpillContext {
        Objects.requireNonNull(slotName, "slotName");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(connections, "connections");
    }
}

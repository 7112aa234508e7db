package io.github.pgoutput.connect;

/** {@code snapshot.mode}: whether and when the connector snapshots the captured tables before streaming. */
public enum SnapshotMode implements ConfigChoice {
    INITIAL,
    NO_DATA,
    INITIAL_ONLY,
    WHEN_NEEDED;

    @Override
    public String configValue() {
        return ConfigChoices.lowerCase(this);
    }
}

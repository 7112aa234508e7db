package io.github.pgoutput.connect;

/** {@code publication.autocreate.mode}: whether the connector creates the publication named by {@code publication.name} when it does not exist, and for which tables. */
public enum PublicationAutocreateMode implements ConfigChoice {
    DISABLED,
    ALL_TABLES,
    FILTERED;

    @Override
    public String configValue() {
        return ConfigChoices.lowerCase(this);
    }
}

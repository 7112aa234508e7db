package io.github.pgoutput.connect;

/** {@code hstore.handling.mode}: hstore columns as a JSON string (json) or a Connect map (map). */
public enum HStoreHandlingMode implements ConfigChoice {
    JSON,
    MAP;

    @Override
    public String configValue() {
        return ConfigChoices.lowerCase(this);
    }
}

package io.github.pgoutput.connect;

/**
 * An enum whose constants are the allowed values of one configuration key. {@link #configValue()} is the exact
 * text a user writes in the connector configuration; {@link ConfigChoices} parses and validates every such key.
 */
public interface ConfigChoice {

    /** The value as written in the configuration, e.g. {@code all_tables}. Never null. */
    String configValue();
}

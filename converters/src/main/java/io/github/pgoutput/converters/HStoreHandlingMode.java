package io.github.pgoutput.converters;

/** How values of the {@code hstore} extension type are represented (Debezium's {@code hstore.handling.mode}). */
public enum HStoreHandlingMode {
    /** Debezium's default: {@code io.debezium.data.Json}, a JSON object of string (or null) values. */
    JSON,
    /** A Connect MAP from STRING keys to optional STRING values. */
    MAP
}

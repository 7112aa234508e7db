package io.github.pgoutput.connect.record;

/**
 * Who turns a record's key and value into bytes ({@code direct.encoding}).
 *
 * <p>With {@link #NONE} the records carry Structs and the worker's converters write them, so any converter and any
 * SMT works. The other two skip the converter's work: the connector writes the bytes Kafka's {@code JsonConverter}
 * would write ({@link ConnectJsonWriter}) and the worker passes them through {@code ByteArrayConverter}. SMTs and
 * predicates then see bytes, not Structs.
 */
public enum DirectEncoding {
    /** Records carry Structs; the converters encode them. */
    NONE,
    /** The connector writes {@code JsonConverter}'s bytes with {@code schemas.enable=false}. */
    JSON,
    /** The connector writes {@code JsonConverter}'s bytes with {@code schemas.enable=true}. */
    JSON_WITH_SCHEMAS
}

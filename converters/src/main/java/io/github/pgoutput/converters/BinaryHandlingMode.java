package io.github.pgoutput.converters;

/** How {@code bytea} values are represented (Debezium's {@code binary.handling.mode}). */
public enum BinaryHandlingMode {
    /** BYTES, the raw bytes. */
    BYTES,
    /** STRING, standard Base64 with padding. */
    BASE64,
    /** STRING, URL-safe Base64 ({@code -} and {@code _}) with padding. */
    BASE64_URL_SAFE,
    /** STRING, lower-case hexadecimal, two digits per byte. */
    HEX
}

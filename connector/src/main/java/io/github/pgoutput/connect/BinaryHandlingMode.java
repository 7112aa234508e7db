package io.github.pgoutput.connect;

/** {@code binary.handling.mode}: bytea columns as bytes, or as a base64, URL-safe base64 or hex string. */
public enum BinaryHandlingMode implements ConfigChoice {
    BYTES,
    BASE64,
    BASE64_URL_SAFE,
    HEX;

    /** Debezium's spelling: {@code base64-url-safe}. */
    @Override
    public String configValue() {
        return ConfigChoices.lowerCase(this).replace('_', '-');
    }
}

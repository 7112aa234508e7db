package io.github.pgoutput.connect.config;

import java.util.Objects;

/** A column shaping key that cannot be used, with the key and a message that says how to fix it. */
public final class ShapingKeyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String key;

    public ShapingKeyException(String key, String message) {
        super(message);
        this.key = Objects.requireNonNull(key, "key");
    }

    public ShapingKeyException(String key, String message, Throwable cause) {
        super(message, cause);
        this.key = Objects.requireNonNull(key, "key");
    }

    /** The configuration key at fault. */
    public String key() {
        return key;
    }
}

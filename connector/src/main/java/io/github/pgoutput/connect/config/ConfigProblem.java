package io.github.pgoutput.connect.config;

import java.util.Objects;

/**
 * One thing wrong with a connector configuration, attached to the key a user has to change, with a message that
 * says what was seen, what is expected and how to fix it. Returned by cross-key rules and by {@link LiveChecks}.
 */
public record ConfigProblem(String key, String message) {

    public ConfigProblem {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(message, "message");
    }
}

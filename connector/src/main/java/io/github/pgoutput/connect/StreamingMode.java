package io.github.pgoutput.connect;

/** {@code streaming}: the pgoutput {@code streaming} option; {@code auto} picks the most the negotiated protocol version allows. */
public enum StreamingMode implements ConfigChoice {
    AUTO,
    OFF,
    ON,
    PARALLEL;

    @Override
    public String configValue() {
        return ConfigChoices.lowerCase(this);
    }
}

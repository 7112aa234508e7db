package io.github.pgoutput.connect;

/** {@code prepared.transaction.mode}: how two-phase (prepared) transactions are treated; see the key's documentation. */
public enum PreparedTransactionMode implements ConfigChoice {
    FAIL,
    STAGE;

    @Override
    public String configValue() {
        return ConfigChoices.lowerCase(this);
    }
}

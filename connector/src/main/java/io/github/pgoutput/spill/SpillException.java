package io.github.pgoutput.spill;

/**
 * The spill cannot store or return a transaction: a limit was reached, the store is unwritable or full, or stored
 * data is missing, truncated or corrupt. The message names the path or table, the transaction and the setting to
 * change. Nothing past the failed transaction may be acknowledged: the connector has to restart from its last
 * confirmed position, and PostgreSQL will stream the open transactions again.
 */
public class SpillException extends RuntimeException {

    public SpillException(String message) {
        super(message);
    }

    public SpillException(String message, Throwable cause) {
        super(message, cause);
    }
}

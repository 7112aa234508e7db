package io.github.pgoutput.connect.record;

import java.sql.SQLException;

/**
 * A catalog read that building a table's schema needed (its key, its column types) failed. The record builders do not
 * decide whether that heals: the task's error classifier does, by the SQLState of the cause, as for every other
 * failure that leaves the task (a lost connection is retried, a refused privilege stops the task).
 */
public final class CatalogReadException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param reading what was being read, e.g. {@code "reading the column types [16400] of table public.t from pg_type"}
     * @param cause   the driver's failure, with its SQLState
     */
    public CatalogReadException(String reading, SQLException cause) {
        super(reading + " failed: " + cause.getMessage(), cause);
    }
}

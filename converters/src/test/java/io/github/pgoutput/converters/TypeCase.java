package io.github.pgoutput.converters;

/**
 * One row of a table-driven live test: a SQL type, a SQL expression for the value (cast to the type by the
 * test; {@code null} for SQL NULL) and what the converter must make of it.
 *
 * @param expected the Connect value, or a {@link Failure} when conversion must fail
 * @param binary   whether the send form is supported; when false, converting it must fail naming the type
 */
record TypeCase(String sqlType, String sqlValue, Object expected, boolean binary) {

    /** The conversion must fail with a message containing {@code fragment}. */
    record Failure(String fragment) {
    }

    static TypeCase of(String sqlType, String sqlValue, Object expected) {
        return new TypeCase(sqlType, sqlValue, expected, true);
    }

    static TypeCase nullOf(String sqlType) {
        return new TypeCase(sqlType, null, null, true);
    }

    static TypeCase failing(String sqlType, String sqlValue, String fragment) {
        return new TypeCase(sqlType, sqlValue, new Failure(fragment), true);
    }

    /** A type converted from its text form only: its send form must be refused. */
    static TypeCase textOnly(String sqlType, String sqlValue, Object expected) {
        return new TypeCase(sqlType, sqlValue, expected, false);
    }

    @Override
    public String toString() {
        return sqlType + " " + (sqlValue == null ? "NULL" : sqlValue);
    }
}

package io.github.pgoutput.replication;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** Validation and quoting of the SQL identifiers and literals this package pastes into commands. */
final class Identifiers {

    /** PostgreSQL's NAMEDATALEN - 1: identifiers longer than this are truncated by the server. */
    static final int MAX_IDENTIFIER_BYTES = 63;

    private static final Pattern SLOT_NAME = Pattern.compile("[a-z0-9_]{1,63}");

    private Identifiers() {
    }

    /**
     * Replication slot names may hold only lower-case letters, digits and underscores (the server's own rule). It
     * matters twice here: pgjdbc pastes the name unquoted into {@code START_REPLICATION}, so anything else would change
     * the command.
     */
    static String requireValidSlotName(String name) {
        if (name == null || !SLOT_NAME.matcher(name).matches()) {
            throw new ReplicationSetupException(Setting.SLOT_NAME, "slot name " + (name == null ? "is missing" : "'" + name + "' is invalid")
                    + "; a replication slot name must be 1 to 63 characters of lower-case letters (a-z), digits and underscores,"
                    + " e.g. 'kafka_orders'");
        }
        return name;
    }

    /**
     * Checks a name that will be double-quoted: not empty, at most 63 bytes in UTF-8, no NUL. Single quotes are refused
     * too, because pgjdbc passes option values inside single quotes without escaping them.
     */
    static String requireValid(String name, String what, Setting setting) {
        if (name == null || name.isEmpty()) {
            throw new ReplicationSetupException(setting, what + " is missing or empty; give the exact name");
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_IDENTIFIER_BYTES) {
            throw new ReplicationSetupException(setting, what + " '" + name + "' is longer than " + MAX_IDENTIFIER_BYTES
                    + " bytes; PostgreSQL would truncate it, so use a shorter name");
        }
        if (name.indexOf('\0') >= 0 || name.indexOf('\'') >= 0) {
            throw new ReplicationSetupException(setting, what + " '" + name.replace("\0", "\\0")
                    + "' contains a NUL byte or a single quote; rename it without those characters");
        }
        return name;
    }

    /** {@code "name"} with embedded double quotes doubled: safe for any valid name, keeps its case. */
    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** {@code 'text'} with embedded single quotes doubled (standard_conforming_strings is on since PostgreSQL 9.1). */
    static String literal(String text) {
        return '\'' + text.replace("'", "''") + '\'';
    }
}

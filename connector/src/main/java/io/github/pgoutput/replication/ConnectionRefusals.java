package io.github.pgoutput.replication;

import java.sql.SQLException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's (or pgjdbc's) refusals of a login, each blamed on the setting to change and with the statement or the
 * pg_hba.conf line that fixes it: a wrong password, a role that does not exist, no pg_hba.conf line for the role, the
 * database and the worker's address, no CONNECT privilege on the database, a database that does not exist, and a
 * password the server asks for but the configuration lacks. All permanent: logging in again sends the same
 * credentials. Read from the SQLState and the server's (English) message text, since 28000 alone covers several of
 * them; a translated message falls back to the SQLState's generic advice ({@link SqlErrors}).
 *
 * <p>A logical replication connection ({@code replication=database}) is authenticated like a normal one to the same
 * database: pg_hba.conf matches it by the database name, not by the {@code replication} keyword (that one is for
 * physical replication only), so one line admits both connections of the connector. Stateless.
 */
final class ConnectionRefusals {

    /** PostgreSQL's words for a login no pg_hba.conf line admits (or a {@code reject} line refuses). */
    private static final Pattern NO_HBA_LINE = Pattern.compile(
            "(no pg_hba\\.conf entry for|pg_hba\\.conf rejects connection for) host \"([^\"]*)\", user \"([^\"]*)\", database \"([^\"]*)\"");
    private static final Pattern ROLE_MISSING = Pattern.compile("role \"([^\"]*)\" does not exist");
    private static final Pattern DATABASE_MISSING = Pattern.compile("database \"([^\"]*)\" does not exist");
    private static final Pattern PASSWORD_FAILED = Pattern.compile("authentication failed for user \"([^\"]*)\"");
    /** pgjdbc's words when the server asks for a password and none was given (SCRAM, md5 or plain password). */
    private static final String NO_PASSWORD = "but no password was provided";
    /** The detail PostgreSQL gives with "permission denied for database" at login. */
    private static final String NO_CONNECT_PRIVILEGE = "CONNECT privilege";

    private ConnectionRefusals() {
    }

    /**
     * @param sql   the first SQLException of the chain
     * @param text  what was being done, the server's words and the SQLState, which the explanation continues
     * @param error the whole failure, kept as the cause
     * @param user  the role that logged in, or null when not known (the CONNECT refusal does not name it)
     * @return the refusal explained, or empty when {@code sql} is none of those known here
     */
    static Optional<ReplicationException> explain(SQLException sql, String text, Throwable error, String user) {
        String state = String.valueOf(sql.getSQLState());
        String message = String.valueOf(sql.getMessage());
        if (message.contains(NO_PASSWORD)) {
            return permanent(Setting.PASSWORD, text + "; the server requires a password for this role (its pg_hba.conf line"
                    + " names scram-sha-256, md5 or password), and database.password is not set: set database.password to the"
                    + " role's password", error);
        }
        if (state.equals(SqlStates.INVALID_PASSWORD)) {
            Matcher failed = PASSWORD_FAILED.matcher(message);
            String role = failed.find() ? failed.group(1) : "the role";
            return permanent(Setting.PASSWORD, text + "; the server refused database.password for role '" + role + "' (it says"
                    + " the same when no role of that name exists, so as not to tell which): set database.password to the role's"
                    + " password and check database.user, or, as an administrator, set a new password: ALTER ROLE "
                    + Identifiers.quote(role) + " PASSWORD '<new password>'", error);
        }
        Matcher hba = NO_HBA_LINE.matcher(message);
        if (state.equals(SqlStates.INVALID_AUTHORIZATION) && hba.find()) {
            String address = hba.group(2);
            String line = "host " + hba.group(4) + " " + hba.group(3) + " " + address + (address.contains(":") ? "/128" : "/32")
                    + " scram-sha-256";
            String seen = hba.group(1).startsWith("no") ? "has no line that admits" : "has a reject line that matches";
            return permanent(Setting.USER, text + "; the server's pg_hba.conf " + seen + " role '" + hba.group(3) + "' to database '"
                    + hba.group(4) + "' from " + address + " (the Connect worker, as the server sees it). Add this line above the"
                    + " lines that refuse it, then reload the configuration (SELECT pg_reload_conf()): " + line + " ; it admits"
                    + " the connector's replication connection too (a logical replication connection matches the database name,"
                    + " not the 'replication' keyword). On a managed service (RDS, Cloud SQL, Azure) allow the worker's address"
                    + " in the service's network settings instead", error);
        }
        Matcher role = ROLE_MISSING.matcher(message);
        if (state.equals(SqlStates.INVALID_AUTHORIZATION) && role.find()) {
            return permanent(Setting.USER, text + "; no role '" + role.group(1) + "' exists on the server: correct database.user,"
                    + " or create the role as an administrator (CREATE ROLE " + Identifiers.quote(role.group(1))
                    + " WITH LOGIN REPLICATION PASSWORD '<password>'; docs/setup-postgresql.md lists the privileges each mode needs)", error);
        }
        if (state.equals(SqlStates.INSUFFICIENT_PRIVILEGE) && message.contains(NO_CONNECT_PRIVILEGE)) {
            Matcher database = Pattern.compile("permission denied for database \"([^\"]*)\"").matcher(message);
            String name = database.find() ? database.group(1) : "<database>";
            return permanent(Setting.USER, text + "; the role may not connect to database '" + name + "' (it lacks the CONNECT"
                    + " privilege, which PUBLIC has unless it was revoked): as an administrator, run GRANT CONNECT ON DATABASE "
                    + Identifiers.quote(name) + " TO " + (user == null ? "<database.user>" : Identifiers.quote(user)), error);
        }
        Matcher database = DATABASE_MISSING.matcher(message);
        if (state.equals(SqlStates.INVALID_CATALOG_NAME) && database.find()) {
            return permanent(Setting.DBNAME, text + "; no database '" + database.group(1) + "' exists on the server: correct"
                    + " database.dbname (SELECT datname FROM pg_database lists them)", error);
        }
        return Optional.empty();
    }

    private static Optional<ReplicationException> permanent(Setting setting, String message, Throwable cause) {
        return Optional.of(new ReplicationSetupException(setting, message, cause));
    }
}

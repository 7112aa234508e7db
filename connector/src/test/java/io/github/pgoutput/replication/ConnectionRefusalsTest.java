package io.github.pgoutput.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLException;

import org.junit.jupiter.api.Test;

/**
 * The server's refusals of a login, in the words PostgreSQL 15 and pgjdbc 42.7 say them (captured from a server with
 * scram-sha-256 and trust lines), each explained on the setting to change with the statement or line that fixes it,
 * and a connection that reached no server as a one-off check reports it: what was tried and what to check, never
 * that it will be retried.
 */
class ConnectionRefusalsTest {

    private static final String DURING = "connecting to db.example:5432/shop as cdc";

    private static ReplicationException explained(String message, String state) {
        return ConnectionFailures.explain(new SQLException(message, state), DURING, "cdc").orElseThrow();
    }

    @Test
    void aWrongPasswordIsOnThePasswordAndSaysTheServerDoesNotTellAMissingRoleApart() {
        ReplicationException e = explained("FATAL: password authentication failed for user \"cdc\"", "28P01");

        assertThat(e).isInstanceOf(ReplicationSetupException.class);
        assertThat(e.setting()).isEqualTo(Setting.PASSWORD);
        assertThat(e.getMessage()).contains("refused database.password for role 'cdc'").contains("no role of that name exists")
                .contains("ALTER ROLE \"cdc\" PASSWORD").doesNotContain("retr").doesNotContain("reconnect");
    }

    @Test
    void aRoleThatDoesNotExistIsOnTheUserWithTheCreateRoleToRun() {
        ReplicationException e = explained("FATAL: role \"ghost\" does not exist", "28000");

        assertThat(e.setting()).isEqualTo(Setting.USER);
        assertThat(e.getMessage()).contains("no role 'ghost' exists").contains("CREATE ROLE \"ghost\" WITH LOGIN REPLICATION")
                .doesNotContain("pg_hba.conf");
    }

    @Test
    void aMissingPasswordTheServerAsksForIsOnThePasswordAndIsPermanent() {
        for (String words : new String[] {"The server requested SCRAM-based authentication, but no password was provided.",
            "The server requested password-based authentication, but no password was provided."}) {
            ReplicationException e = explained(words, "08004");

            assertThat(e).isInstanceOf(ReplicationSetupException.class);
            assertThat(e.setting()).isEqualTo(Setting.PASSWORD);
            assertThat(e.getMessage()).contains("the server requires a password for this role").contains("set database.password")
                    .doesNotContain("reconnects").doesNotContain("running and reachable");
        }
    }

    @Test
    void noPgHbaLineIsOnTheUserQuotingTheLineToAddWhichAdmitsTheReplicationConnectionToo() {
        ReplicationException e = explained("FATAL: no pg_hba.conf entry for host \"10.1.2.3\", user \"cdc\", database \"shop\","
                + " no encryption", "28000");

        assertThat(e.setting()).isEqualTo(Setting.USER);
        assertThat(e.getMessage()).contains("host shop cdc 10.1.2.3/32 scram-sha-256").contains("pg_reload_conf()")
                .contains("admits the connector's replication connection too");
    }

    @Test
    void aPgHbaLineForAnIpv6ClientIsOneHostWide() {
        assertThat(explained("FATAL: no pg_hba.conf entry for host \"::1\", user \"cdc\", database \"shop\", SSL encryption", "28000")
                .getMessage()).contains("host shop cdc ::1/128 scram-sha-256");
    }

    @Test
    void aRejectLineIsNamedAsSuch() {
        assertThat(explained("FATAL: pg_hba.conf rejects connection for host \"10.1.2.3\", user \"cdc\", database \"shop\","
                + " no encryption", "28000").getMessage()).contains("has a reject line that matches").contains("host shop cdc 10.1.2.3/32");
    }

    @Test
    void noConnectPrivilegeIsOnTheUserWithTheGrant() {
        ReplicationException e = explained("FATAL: permission denied for database \"shop\"\n  Detail: User does not have CONNECT"
                + " privilege.", "42501");

        assertThat(e.setting()).isEqualTo(Setting.USER);
        assertThat(e.getMessage()).contains("GRANT CONNECT ON DATABASE \"shop\" TO \"cdc\"");
    }

    @Test
    void aPermissionDeniedOnTheDatabaseAfterTheLoginIsNoConnectRefusal() {
        assertThat(ConnectionFailures.explain(new SQLException("ERROR: permission denied for database shop", "42501"), DURING, "cdc"))
                .isEmpty();
    }

    @Test
    void aDatabaseThatDoesNotExistIsOnTheDatabaseName() {
        ReplicationException e = explained("FATAL: database \"shpo\" does not exist", "3D000");

        assertThat(e.setting()).isEqualTo(Setting.DBNAME);
        assertThat(e.getMessage()).contains("no database 'shpo' exists").contains("database.dbname");
    }

    @Test
    void aRefusedConnectionInValidationSaysWhatWasTriedAndWhatToCheckWithoutRetryWording() {
        ReplicationSettings settings = ReplicationSettings.builder("db.example", 5433, "shop", "cdc", "s", "p").build();
        SQLException refused = new SQLException("Connection to db.example:5433 refused.", "08001",
                new ConnectException("Connection refused"));

        PreflightChecks.Problem problem = ConnectionProblems.of(settings, refused);

        assertThat(problem.setting()).isEqualTo(Setting.HOSTNAME);
        assertThat(problem.message()).contains("nothing accepts connections on that port").contains("Tried db.example:5433")
                .contains("listen_addresses").contains("firewall").contains("pg_hba.conf")
                .doesNotContain("retry").doesNotContain("reconnect");
    }

    @Test
    void theTasksOwnClassificationOfARefusedConnectionStillSaysItReconnects() {
        ReplicationException e = SqlErrors.classify(new SQLException("Connection refused", "08001"), DURING, Setting.HOSTNAME);

        assertThat(e).isInstanceOf(ReplicationConnectionLostException.class);
        assertThat(e.getMessage()).contains("reconnects by itself");
    }
}

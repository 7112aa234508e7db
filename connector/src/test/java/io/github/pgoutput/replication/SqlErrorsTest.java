package io.github.pgoutput.replication;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

class SqlErrorsTest {

    @ParameterizedTest
    @ValueSource(strings = {"08006", "08001", "08003", "57P01", "57P03", "53300", "55006"})
    void connectionFailuresShutdownsAndBusySlotsAreRetriable(String state) {
        assertThat(SqlErrors.classify(new SQLException("x", state), "reading", Setting.HOSTNAME))
                .isInstanceOf(ReplicationConnectionLostException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0A000", "22023", "42704", "XX000", "42601", "08P01"})
    void protocolAndObjectErrorsArePermanent(String state) {
        assertThat(SqlErrors.classify(new SQLException("x", state), "starting", Setting.PROTOCOL_VERSION))
                .isInstanceOf(ReplicationSetupException.class)
                .satisfies(e -> assertThat(e.setting()).isEqualTo(Setting.PROTOCOL_VERSION));
    }

    @Test
    void authenticationFailuresNameTheCredentialSetting() {
        assertThat(SqlErrors.classify(new SQLException("password authentication failed", "28P01"), "connecting", Setting.HOSTNAME).setting())
                .isEqualTo(Setting.PASSWORD);
        assertThat(SqlErrors.classify(new SQLException("no pg_hba.conf entry", "28000"), "connecting", Setting.HOSTNAME).setting())
                .isEqualTo(Setting.USER);
        assertThat(SqlErrors.classify(new SQLException("database does not exist", "3D000"), "connecting", Setting.HOSTNAME).setting())
                .isEqualTo(Setting.DBNAME);
    }

    @Test
    void aBusySlotIsBlamedOnTheSlotNameAndSaysWhatToDo() {
        ReplicationException e = SqlErrors.classify(new SQLException("replication slot \"s\" is active for PID 42", "55006"), "starting", Setting.PROTOCOL_VERSION);
        assertThat(e.setting()).isEqualTo(Setting.SLOT_NAME);
        assertThat(e.getMessage()).contains("is active for PID 42").contains("retry later");
    }

    @Test
    void aReadOnlyStandbyIsABoundedRefusalBlamedOnTheHostname() {
        ReplicationConnectionLostException e = (ReplicationConnectionLostException) SqlErrors.classify(
                new SQLException("cannot execute CREATE_REPLICATION_SLOT in a read-only transaction", "25006"), "starting", Setting.SLOT_NAME);
        assertThat(e.isBounded()).isTrue();
        assertThat(e.isSlotInUse()).isFalse();
        assertThat(e.setting()).isEqualTo(Setting.HOSTNAME);
        assertThat(e.getMessage()).contains("read-only").contains("standby").contains("database.hostname");
    }

    /** The words PostgreSQL 17 says, seen in PhysicalStandbyIT. */
    @Test
    void aSyncedSlotOnAStandbyIsABoundedRefusalButOther55000sStayPermanent() {
        ReplicationException synced = SqlErrors.classify(new SQLException("ERROR: cannot use replication slot \"fo\" for logical decoding\n"
                + "  Detail: This replication slot is being synchronized from the primary server.", "55000"), "starting", Setting.SLOT_NAME);
        ReplicationException walLevel = SqlErrors.classify(new SQLException("logical decoding requires \"wal_level\" >= \"logical\"", "55000"),
                "starting", Setting.SLOT_NAME);

        assertThat(synced).isInstanceOfSatisfying(ReplicationConnectionLostException.class, e -> assertThat(e.isBounded()).isTrue());
        assertThat(walLevel).isInstanceOf(ReplicationSetupException.class);
    }
}

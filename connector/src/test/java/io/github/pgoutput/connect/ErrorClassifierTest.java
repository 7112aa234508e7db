package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;

import io.github.pgoutput.replication.FailoverSlots;
import io.github.pgoutput.replication.ReplicationSetupException;
import io.github.pgoutput.replication.Setting;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ErrorClassifierTest {

    @ParameterizedTest
    @ValueSource(strings = {"08000", "08001", "08003", "08006", "40001", "40P01", "53000", "53100", "53200", "53300",
        "55006", "57P01", "57P02", "57P03"})
    void treatsConnectionResourceShutdownAndSlotInUseErrorsAsTransient(String sqlState) {
        ConnectException classified = ErrorClassifier.classify("reading slot s1", new SQLException("boom", sqlState));

        assertThat(classified).isInstanceOf(RetriableException.class)
                .hasMessageContaining("reading slot s1 failed: boom")
                .hasMessageContaining("SQLState " + sqlState);
    }

    @ParameterizedTest
    @ValueSource(strings = {"08P01", "28000", "28P01", "42501", "42704", "42601", "3D000", "55000", "22023", "0A000",
        "XX000", "57P04", "57014"})
    void treatsAuthenticationPrivilegeMissingObjectAndUnknownErrorsAsPermanent(String sqlState) {
        ConnectException classified = ErrorClassifier.classify("starting replication", new SQLException("no",
                sqlState));

        assertThat(classified).isNotInstanceOf(RetriableException.class)
                .hasMessageContaining("SQLState " + sqlState)
                .hasCauseInstanceOf(SQLException.class);
    }

    @Test
    void findsTheSqlStateDeepInTheCauseChain() {
        Exception wrapped = new IllegalStateException("outer", new RuntimeException(new SQLException("x", "57P01")));

        assertThat(ErrorClassifier.classify("polling", wrapped)).isInstanceOf(RetriableException.class);
    }

    @Test
    void letsTheSqlStateWinOverAnIoCause() {
        SQLException authFailure = new SQLException("password authentication failed", "28P01", new EOFException());

        assertThat(ErrorClassifier.classify("connecting", authFailure)).isNotInstanceOf(RetriableException.class)
                .hasMessageContaining("database.password");
    }

    @Test
    void treatsIoErrorsWithoutSqlStateAsTransient() {
        assertThat(ErrorClassifier.classify("reading", new SocketTimeoutException("read timed out")))
                .isInstanceOf(RetriableException.class);
        assertThat(ErrorClassifier.classify("reading", new RuntimeException(new IOException("reset"))))
                .isInstanceOf(RetriableException.class);
        assertThat(ErrorClassifier.classify("reading", new SQLException("no state", (String) null,
                new EOFException()))).isInstanceOf(RetriableException.class);
    }

    @Test
    void namesTheExceptionTypeWhenItHasNoMessage() {
        assertThat(ErrorClassifier.classify("decoding", new NullPointerException()))
                .hasMessageStartingWith("decoding failed: java.lang.NullPointerException (");
    }

    @Test
    void treatsRetriableKafkaClientErrorsAsTransient() {
        assertThat(ErrorClassifier.classify("reading offsets", new TimeoutException("timed out")))
                .isInstanceOf(RetriableException.class);
    }

    @Test
    void treatsConfigurationAndProgrammingErrorsAsPermanent() {
        assertThat(ErrorClassifier.classify("starting", new ConfigException("slot.name", "X", "bad")))
                .isNotInstanceOf(RetriableException.class).hasMessageContaining("configuration");
        assertThat(ErrorClassifier.classify("decoding", new IllegalStateException("unknown tag 'Z' at offset 0")))
                .isNotInstanceOf(RetriableException.class).hasMessageContaining("unknown tag 'Z'");
    }

    @Test
    void returnsAlreadyClassifiedExceptionsUnchanged() {
        RetriableException retriable = new RetriableException("later");
        ConnectException permanent = new ConnectException("never");

        assertThat(ErrorClassifier.classify("x", retriable)).isSameAs(retriable);
        assertThat(ErrorClassifier.classify("x", permanent)).isSameAs(permanent);
    }

    @Test
    void anUnknownHostIsTransientAndNamesTheHostAndTheKey() {
        SQLException failure = new SQLException("The connection attempt failed.", "08001",
                new java.net.UnknownHostException("db.example.invalid"));

        assertThat(ErrorClassifier.classify("connecting", failure)).isInstanceOf(RetriableException.class)
                .hasMessageContaining("'db.example.invalid' could not be resolved")
                .hasMessageContaining("database.hostname");
    }

    @Test
    void aServerWithoutTlsWhenTlsIsRequiredIsPermanentAndNamesTheSslMode() {
        SQLException failure = new SQLException("The server does not support SSL.", "08004");

        assertThat(ErrorClassifier.classify("connecting", failure)).isNotInstanceOf(RetriableException.class)
                .hasMessageContaining("database.sslmode");
    }

    @Test
    void anUntrustedServerCertificateIsPermanentAndNamesTheRootCertificate() {
        javax.net.ssl.SSLHandshakeException handshake = new javax.net.ssl.SSLHandshakeException("PKIX path building failed");
        handshake.initCause(new java.security.cert.CertPathBuilderException("unable to find valid certification path"));
        SQLException failure = new SQLException("SSL error: PKIX path building failed", "08006", handshake);

        assertThat(ErrorClassifier.classify("connecting", failure)).isNotInstanceOf(RetriableException.class)
                .hasMessageContaining("not signed by a CA in database.sslrootcert");
    }

    @Test
    void aTlsErrorOnAnEstablishedConnectionIsStillALostConnection() {
        SQLException failure = new SQLException("An I/O error occurred while sending to the backend.", "08006",
                new javax.net.ssl.SSLException("Connection reset", new java.net.SocketException("Connection reset")));

        assertThat(ErrorClassifier.classify("reading", failure)).isInstanceOf(RetriableException.class);
    }

    @Test
    void aRefusedFailoverSlotFailsTheTaskNamingTheServerVersionAndTheKey() {
        ConnectException e = ErrorClassifier.classify("preparing replication from slot s1",
                new ReplicationSetupException(Setting.SLOT_FAILOVER, FailoverSlots.unsupportedMessage(16)));

        assertThat(e).isNotInstanceOf(RetriableException.class);
        assertThat(e.getMessage()).contains("PostgreSQL 16").contains("set slot.failover=false")
                .contains("fix the setting behind 'slot.failover'");
    }
}

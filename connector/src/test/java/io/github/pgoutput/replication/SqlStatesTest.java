package io.github.pgoutput.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.github.pgoutput.connect.ErrorClassifier;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one SQLState table, run through every place that decides on an SQLState: the replication layer's classifier,
 * the connector's classifier on a raw pgjdbc error, and the connector's classifier on what the replication layer
 * made of it. They all agree with the table, so a failure is retried or fatal whichever layer raised it.
 */
class SqlStatesTest {

    /** Every entry of the table with the verdict it states, and a few states no entry names (permanent). */
    static Stream<Arguments> everyState() {
        List<Arguments> states = new ArrayList<>();
        for (SqlStates.Entry entry : SqlStates.TABLE) {
            if (entry.state().length() == 2) {
                // A class: its generic state and one of its specific ones, unless an earlier entry names that one.
                for (String state : List.of(entry.state() + "000", entry.state() + "P99")) {
                    if (SqlStates.entry(state) == entry) {
                        states.add(Arguments.of(state, entry.transientFailure()));
                    }
                }
            } else {
                states.add(Arguments.of(entry.state(), entry.transientFailure()));
            }
        }
        for (String unknown : List.of("55000", "22023", "0A000", "XX000", "57P04", "57014")) {
            states.add(Arguments.of(unknown, false));
        }
        return states.stream();
    }

    @ParameterizedTest(name = "{0} transient: {1}")
    @MethodSource("everyState")
    void everyEntryPointAgreesWithTheTable(String state, boolean transientFailure) {
        assertThat(SqlStates.isTransient(state)).as("the table").isEqualTo(transientFailure);

        ReplicationException replication = SqlErrors.classify(new SQLException("boom", state), "reading", Setting.HOSTNAME);
        assertThat(replication instanceof ReplicationConnectionLostException).as("the replication layer").isEqualTo(transientFailure);
        assertThat(replication).isInstanceOf(transientFailure ? ReplicationConnectionLostException.class : ReplicationSetupException.class);

        assertThat(ErrorClassifier.verdict(new SQLException("boom", state)).retriable()).as("the connector's verdict")
                .isEqualTo(transientFailure);
        assertThat(ErrorClassifier.classify("reading", new SQLException("boom", state)) instanceof RetriableException)
                .as("the connector on a raw error").isEqualTo(transientFailure);
        assertThat(ErrorClassifier.classify("reading", replication) instanceof RetriableException)
                .as("the connector on the replication layer's error").isEqualTo(transientFailure);
    }

    @ParameterizedTest
    @ValueSource(strings = {"08000", "08001", "08003", "08006", "40001", "40P01", "53000", "53100", "53200", "53300",
        "53400", "55006", "25006", "57P01", "57P02", "57P03"})
    void connectionResourceRollbackShutdownBusySlotAndReadOnlyStandbyStatesAreTransient(String state) {
        assertThat(SqlStates.isTransient(state)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"08P01", "40002", "28000", "28P01", "42501", "42704", "42601", "3D000", "55000", "22023",
        "0A000", "XX000", "57P04", "57014"})
    void protocolAuthenticationPrivilegeMissingObjectAndUnknownStatesArePermanent(String state) {
        assertThat(SqlStates.isTransient(state)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"40001", "53100"})
    void newlyTransientStatesSayWhyInTheReplicationLayersMessage(String state) {
        assertThat(SqlErrors.classify(new SQLException("boom", state), "reading", Setting.HOSTNAME).getMessage())
                .contains("[SQLState " + state + "]").contains(SqlStates.reason(state));
    }
}

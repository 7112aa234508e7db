package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.replication.ProtocolNegotiation.NegotiatedProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProtocolNegotiationTest {

    private static ReplicationSettings.Builder settings() {
        return ReplicationSettings.builder("localhost", 5432, "db", "u", "slot", "pub");
    }

    @ParameterizedTest
    @CsvSource({"14,2", "15,3", "16,4", "17,4", "18,4"})
    void autoPicksTheHighestVersionTheServerSpeaks(int serverMajor, int expected) {
        NegotiatedProtocol p = ProtocolNegotiation.negotiate(settings().streaming(StreamingMode.OFF).build(), serverMajor);

        assertThat(p.protocolVersion()).isEqualTo(expected);
    }

    @Test
    void refusesServersOlderThan14() {
        assertThatThrownBy(() -> ProtocolNegotiation.highestProtocolOf(13))
                .isInstanceOf(ReplicationSetupException.class).hasMessageContaining("PostgreSQL 13 is not supported");
    }

    @Test
    void refusesAnExplicitVersionAboveWhatTheServerSpeaks() {
        assertThatThrownBy(() -> ProtocolNegotiation.negotiate(settings().protocolVersion(4).build(), 15))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.PROTOCOL_VERSION))
                .hasMessageContaining("protocol version 4 was requested, but PostgreSQL 15 speaks at most version 3");
    }

    @Test
    void keepsAnExplicitLowerVersion() {
        assertThat(ProtocolNegotiation.negotiate(settings().protocolVersion(2).build(), 17).protocolVersion()).isEqualTo(2);
    }

    @Test
    void refusesStreamingOnProtocol1() {
        assertThatThrownBy(() -> ProtocolNegotiation.negotiate(settings().protocolVersion(1).streaming(StreamingMode.ON).build(), 17))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.STREAMING))
                .hasMessageContaining("streaming ON needs pgoutput protocol version 2");
    }

    @Test
    void refusesParallelStreamingOnPostgres15() {
        assertThatThrownBy(() -> ProtocolNegotiation.negotiate(settings().streaming(StreamingMode.PARALLEL).build(), 15))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.STREAMING))
                .hasMessageContaining("needs PostgreSQL 16+").hasMessageContaining("use streaming ON");
    }

    @Test
    void refusesParallelStreamingBelowProtocol4() {
        assertThatThrownBy(() -> ProtocolNegotiation.negotiate(settings().protocolVersion(3).streaming(StreamingMode.PARALLEL).build(), 17))
                .isInstanceOf(ReplicationSetupException.class).hasMessageContaining("version 3 was requested");
    }

    @Test
    void refusesTwoPhaseBelowProtocol3AndOnPostgres14() {
        assertThatThrownBy(() -> ProtocolNegotiation.negotiate(settings().protocolVersion(2).twoPhase(true).build(), 17))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.TWO_PHASE));
        assertThatThrownBy(() -> ProtocolNegotiation.negotiate(settings().twoPhase(true).build(), 14))
                .isInstanceOf(ReplicationSetupException.class).hasMessageContaining("turn two-phase off");
    }

    @Test
    void refusesTheOriginFilterBeforePostgres16() {
        assertThatThrownBy(() -> ProtocolNegotiation.negotiate(settings().origin(OriginFilter.NONE).build(), 15))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.ORIGIN));
        assertThat(ProtocolNegotiation.negotiate(settings().origin(OriginFilter.NONE).build(), 16).origin()).isEqualTo(OriginFilter.NONE);
    }

    @Test
    void carriesTheRequestedOptions() {
        NegotiatedProtocol p = ProtocolNegotiation.negotiate(
                settings().streaming(StreamingMode.PARALLEL).twoPhase(true).binary(true).messages(true).build(), 18);

        assertThat(p).isEqualTo(new NegotiatedProtocol(4, StreamingMode.PARALLEL, true, true, true, OriginFilter.SERVER_DEFAULT));
    }
}

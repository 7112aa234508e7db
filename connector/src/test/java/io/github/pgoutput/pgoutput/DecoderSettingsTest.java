package io.github.pgoutput.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DecoderSettingsTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 5, -1})
    void rejectsProtocolVersionsOutsideOneToFour(int version) {
        assertThatIllegalArgumentException().isThrownBy(() -> new DecoderSettings(version, StreamingMode.OFF))
                .withMessageContaining("protocol version " + version + " is not supported; expected 1 to 4");
    }

    @Test
    void streamingOnNeedsProtocol2() {
        assertThatIllegalArgumentException().isThrownBy(() -> new DecoderSettings(1, StreamingMode.ON))
                .withMessageContaining("streaming ON needs pgoutput protocol version 2 or higher");
        assertThat(new DecoderSettings(2, StreamingMode.ON).streamingEnabled()).isTrue();
    }

    @Test
    void streamingParallelNeedsProtocol4() {
        assertThatIllegalArgumentException().isThrownBy(() -> new DecoderSettings(3, StreamingMode.PARALLEL))
                .withMessageContaining("streaming PARALLEL needs pgoutput protocol version 4 or higher");
        assertThat(new DecoderSettings(4, StreamingMode.PARALLEL).streamAbortCarriesAbortInfo()).isTrue();
    }

    @Test
    void requiresAStreamingMode() {
        assertThatIllegalArgumentException().isThrownBy(() -> new DecoderSettings(2, null))
                .withMessageContaining("streaming mode must be given");
    }

    @Test
    void twoPhaseMessagesNeedProtocol3() {
        assertThat(new DecoderSettings(2, StreamingMode.ON).twoPhaseMessagesSupported()).isFalse();
        assertThat(new DecoderSettings(3, StreamingMode.OFF).twoPhaseMessagesSupported()).isTrue();
    }

    @Test
    void abortInfoOnlyWithProtocol4AndParallel() {
        assertThat(new DecoderSettings(4, StreamingMode.ON).streamAbortCarriesAbortInfo()).isFalse();
    }
}

package io.github.pgoutput.localrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void theUsageFitsEightyColumns() {
        assertThat(Options.USAGE.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
    }

    @Test
    void helpAndUnknownArgumentsAnswerWithTheUsage() {
        assertThatThrownBy(() -> Options.parse(Path.of("."), new String[] {"--help"}, Map.of(), true))
                .hasMessage(Options.USAGE);
        assertThatThrownBy(() -> Options.parse(Path.of("."), new String[] {"--dem"}, Map.of(), true))
                .hasMessageStartingWith("unknown argument '--dem'").hasMessageEndingWith(Options.USAGE);
    }
}

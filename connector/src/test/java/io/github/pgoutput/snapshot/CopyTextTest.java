package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** COPY text rows as PostgreSQL writes them, split back into the output functions' texts. */
class CopyTextTest {

    private final CopyText parser = new CopyText();

    private static byte[] line(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void splitsAtTabsAndReadsBackslashNAsNull() {
        assertThat(parser.parse(line("1\t\\N\t\tx\n"), 4)).containsExactly("1", null, "", "x");
    }

    @Test
    void undoesEveryEscapeCopyWrites() {
        assertThat(parser.parse(line("a\\tb\\nc\\\\d\\re\\bf\\fg\\vh\n"), 1)).containsExactly("a\tb\nc\\d\re\bf\fg\u000Bh");
    }

    @Test
    void keepsTheLiteralTextNPart() {
        // A value that is the two characters backslash and N is written as \\N, not \N.
        assertThat(parser.parse(line("\\\\N\tN\n"), 2)).containsExactly("\\N", "N");
    }

    @Test
    void decodesUtf8AndLongValues() {
        char[] longValue = new char[10_000];
        Arrays.fill(longValue, 'ä');
        String value = new String(longValue);
        assertThat(parser.parse(line("€\t" + value + "\n"), 2)).containsExactly("€", value);
    }

    @Test
    void refusesARowWithTheWrongNumberOfValues() {
        assertThatThrownBy(() -> parser.parse(line("1\t2\n"), 3)).hasMessageContaining("2 values but 3 columns");
    }
}

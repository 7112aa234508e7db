package io.github.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Comments cite the protocol notes as {@code docs/pgoutput-protocol.md §6.3}: every section cited in the connector's
 * sources must be a numbered heading of that file, so a reader can open what a comment relies on.
 */
class ProtocolCitationsTest {

    private static final Path MODULE = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
    private static final Path NOTES = MODULE.resolve("../docs/pgoutput-protocol.md").normalize();
    private static final Pattern CITATION = Pattern.compile("docs/pgoutput-protocol\\.md §(\\d+(?:\\.\\d+)?)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#+ (\\d+(?:\\.\\d+)?)\\.? ");

    @Test
    void everyCitedSectionIsAHeadingOfTheProtocolNotes() throws IOException {
        Set<String> headings = new TreeSet<>();
        Matcher heading = HEADING.matcher(Files.readString(NOTES, StandardCharsets.UTF_8));
        while (heading.find()) {
            headings.add(heading.group(1));
        }
        Set<String> cited = new TreeSet<>();
        try (Stream<Path> files = Files.walk(MODULE.resolve("src"))) {
            files.filter(f -> f.toString().endsWith(".java") || f.toString().endsWith(".hex")).forEach(f -> {
                Matcher citation = CITATION.matcher(read(f));
                while (citation.find()) {
                    cited.add(citation.group(1));
                }
            });
        }
        assertThat(cited).as("sections cited in %s/src", MODULE).isNotEmpty();
        assertThat(headings).as("numbered headings of %s", NOTES).containsAll(cited);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

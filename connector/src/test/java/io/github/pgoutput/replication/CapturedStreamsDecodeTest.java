package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.pgoutput.StreamingMode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stored live captures (written by {@link CaptureScenariosIT} and {@link SurprisingPartsIT} with
 * {@code -Dcapture.dir}) stay readable: every frame of every file decodes, with the settings the capture was made with.
 */
class CapturedStreamsDecodeTest {

    private static final Pattern OPTIONS = Pattern.compile("protocolVersion=(\\d), streaming=(\\w+)");

    @TestFactory
    Stream<DynamicTest> everyCapturedFrameDecodes() throws IOException, URISyntaxException {
        Path root = Path.of(getClass().getResource("captures").toURI());
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".hex")).sorted().toList();
        }
        assertThat(files).as("captures for PostgreSQL 15 to 18").hasSizeGreaterThanOrEqualTo(4 * 14);
        return files.stream().map(file -> DynamicTest.dynamicTest(root.relativize(file).toString(), () -> decodesCompletely(file)));
    }

    private static void decodesCompletely(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        Matcher options = lines.stream().map(OPTIONS::matcher).filter(Matcher::find).findFirst()
                .orElseThrow(() -> new AssertionError(file + " does not name its START_REPLICATION options"));
        PgOutputDecoder decoder = new PgOutputDecoder(new DecoderSettings(Integer.parseInt(options.group(1)), StreamingMode.valueOf(options.group(2))));
        int frames = 0;
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split(" ");
            byte[] payload = HexFormat.of().parseHex(fields[2]);
            assertThat(decoder.decode(ByteBuffer.wrap(payload), Lsn.parse(fields[1])).tag()).as(line.substring(0, 6))
                    .isEqualTo(fields[0].charAt(5));
            frames++;
        }
        assertThat(frames).isPositive();
        assertThat(decoder.insideStreamBlock()).as("every stream block closed").isFalse();
    }
}

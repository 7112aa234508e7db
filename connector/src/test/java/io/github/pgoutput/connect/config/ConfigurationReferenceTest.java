package io.github.pgoutput.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference of the user guide, docs/configuration.md, must be exactly what the ConfigDef generates.
 * Run with {@code -Dconfig.reference.update=true} to rewrite it.
 */
class ConfigurationReferenceTest {

    static final String REGENERATE = "mvn -o -pl connector -am test -Dtest=ConfigurationReferenceTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dconfig.reference.update=true";

    private static final Path REFERENCE = Path.of(System.getProperty("basedir", "."), "..", "docs", "configuration.md")
            .toAbsolutePath().normalize();

    @Test
    void configurationReferenceMatchesTheConfigDef() throws IOException {
        String page = Files.readString(REFERENCE, StandardCharsets.UTF_8);
        int start = page.indexOf(ConfigDocumentation.START_MARKER);
        int end = page.indexOf(ConfigDocumentation.END_MARKER);
        assertThat(start).as("%s must contain %s", REFERENCE, ConfigDocumentation.START_MARKER).isNotNegative();
        assertThat(end).as("%s must contain %s after the start marker", REFERENCE, ConfigDocumentation.END_MARKER)
                .isGreaterThan(start);

        String current = page.substring(start + ConfigDocumentation.START_MARKER.length(), end);
        String generated = ConfigDocumentation.render(PgOutputSourceConnectorConfig.CONFIG_DEF);
        if (Boolean.getBoolean("config.reference.update") && !current.equals(generated)) {
            Files.writeString(REFERENCE, page.substring(0, start + ConfigDocumentation.START_MARKER.length())
                    + generated + page.substring(end), StandardCharsets.UTF_8);
            current = generated;
        }

        assertThat(current)
                .as("docs/configuration.md's reference differs from PgOutputSourceConnectorConfig; regenerate it "
                        + "with: %s", REGENERATE)
                .isEqualTo(generated);
    }
}

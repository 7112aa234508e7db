package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * README.md's configuration reference must be exactly what the ConfigDef generates. Run with
 * {@code -Dreadme.update=true} to rewrite it.
 */
class ReadmeConfigSectionTest {

    static final String REGENERATE = "mvn -o -pl connector -am test -Dtest=ReadmeConfigSectionTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dreadme.update=true";

    private static final Path README =
            Path.of(System.getProperty("basedir", "."), "..", "README.md").toAbsolutePath().normalize();

    @Test
    void readmeConfigurationSectionMatchesTheConfigDef() throws IOException {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        int start = readme.indexOf(ConfigDocumentation.START_MARKER);
        int end = readme.indexOf(ConfigDocumentation.END_MARKER);
        assertThat(start).as("%s must contain %s", README, ConfigDocumentation.START_MARKER).isNotNegative();
        assertThat(end).as("%s must contain %s after the start marker", README, ConfigDocumentation.END_MARKER)
                .isGreaterThan(start);

        String current = readme.substring(start + ConfigDocumentation.START_MARKER.length(), end);
        String generated = ConfigDocumentation.render(PgOutputSourceConnectorConfig.CONFIG_DEF);
        if (Boolean.getBoolean("readme.update") && !current.equals(generated)) {
            Files.writeString(README, readme.substring(0, start + ConfigDocumentation.START_MARKER.length())
                    + generated + readme.substring(end), StandardCharsets.UTF_8);
            current = generated;
        }

        assertThat(current)
                .as("README.md's configuration section differs from PgOutputSourceConnectorConfig; regenerate it "
                        + "with: %s", REGENERATE)
                .isEqualTo(generated);
    }
}

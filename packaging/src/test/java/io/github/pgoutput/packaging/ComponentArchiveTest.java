package io.github.pgoutput.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarInputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Confluent Hub archive and the plugin folder that {@code mvn package} builds hold what a worker needs and
 * nothing the worker brings itself. Runs in the package phase, right after the assembly.
 */
class ComponentArchiveTest {

    private static final Path ARCHIVE = Path.of(System.getProperty("component.archive"));
    private static final String BASE = System.getProperty("component.basename") + "/";
    private static final Path PLUGIN_FOLDER = Path.of(System.getProperty("plugin.folder"));
    private static final String VERSION = System.getProperty("project.version");
    private static final Path CONFIG_DIR = Path.of(System.getProperty("maven.multiModuleProjectDirectory",
            System.getProperty("basedir", ".") + "/.."), "config").toAbsolutePath().normalize();

    /** Archive entry name (below the base directory) to its bytes; files only. */
    private static Map<String, byte[]> entries;

    @BeforeAll
    static void readArchive() throws IOException {
        assertThat(ARCHIVE).as("the archive mvn package builds").isRegularFile();
        entries = new TreeMap<>();
        try (ZipFile zip = new ZipFile(ARCHIVE.toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                assertThat(entry.getName()).as("every entry lies below the component directory").startsWith(BASE);
                if (!entry.isDirectory()) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        entries.put(entry.getName().substring(BASE.length()), in.readAllBytes());
                    }
                }
            }
        }
    }

    @Test
    void archiveIsNamedAfterOwnerComponentAndVersion() {
        assertThat(ARCHIVE.getFileName().toString()).isEqualTo("pgoutput-kafka-connect-pgoutput-" + VERSION + ".zip");
    }

    @Test
    void topLevelHoldsManifestLibEtcAndDocOnly() {
        assertThat(entries.keySet()).allSatisfy(name -> assertThat(
                name.equals("manifest.json") || name.startsWith("lib/") || name.startsWith("etc/")
                        || name.startsWith("doc/")).as(name).isTrue());
        assertThat(entries).containsKeys("manifest.json", "doc/README.md", "doc/LICENSE");
    }

    @Test
    void libHoldsConnectorConvertersAndPgjdbcButNoKafkaOrSlf4j() {
        List<String> jars = jarNames("lib/");
        assertThat(jars).anyMatch(j -> j.startsWith("kafka-connect-pgoutput-" + VERSION))
                .anyMatch(j -> j.startsWith("kafka-connect-pgoutput-converters-" + VERSION))
                .anyMatch(j -> j.startsWith("postgresql-"))
                .noneMatch(j -> j.startsWith("kafka-clients") || j.startsWith("connect-") || j.startsWith("slf4j-"))
                .noneMatch(j -> j.contains("testing") || j.contains("junit") || j.contains("assertj"));
        assertThat(entries.keySet()).filteredOn(n -> n.startsWith("lib/")).allMatch(n -> n.endsWith(".jar"));
    }

    @Test
    void connectorJarAnnouncesTheConnectorToTheWorkersServiceLoader() throws IOException {
        String jar = jarNames("lib/").stream().filter(j -> j.equals("kafka-connect-pgoutput-" + VERSION + ".jar"))
                .findFirst().orElseThrow();
        String services = null;
        try (JarInputStream in = new JarInputStream(new java.io.ByteArrayInputStream(entries.get("lib/" + jar)))) {
            for (var e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
                if (e.getName().equals("META-INF/services/org.apache.kafka.connect.source.SourceConnector")) {
                    services = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        }
        assertThat(services).as("service file in %s", jar).contains("io.github.pgoutput.connect.PgOutputSourceConnector");
    }

    @Test
    void etcHoldsEveryExampleConfigAndDocTheReadmeAndLicense() throws IOException {
        List<String> examples;
        try (Stream<Path> files = Files.list(CONFIG_DIR)) {
            examples = files.map(f -> "etc/" + f.getFileName()).sorted().toList();
        }
        assertThat(examples).isNotEmpty();
        assertThat(entries.keySet().stream().filter(n -> n.startsWith("etc/")).sorted().toList())
                .containsExactlyElementsOf(examples);
        assertThat(new String(entries.get("doc/LICENSE"), StandardCharsets.UTF_8)).contains("Apache License")
                .contains("Version 2.0");
    }

    @Test
    void manifestIsValidJsonFilledFromTheBuild() throws IOException {
        String text = new String(entries.get("manifest.json"), StandardCharsets.UTF_8);
        assertThat(text).as("every placeholder is filled").doesNotContain("${");
        JsonNode manifest = new ObjectMapper().readTree(text);

        assertThat(manifest.path("name").asText()).isEqualTo("kafka-connect-pgoutput");
        assertThat(manifest.path("version").asText()).isEqualTo(VERSION);
        assertThat(manifest.path("owner").path("username").asText()).isEqualTo("pgoutput");
        assertThat(texts(manifest.path("component_types"))).containsExactly("source");
        assertThat(manifest.path("title").asText()).isNotBlank();
        assertThat(manifest.path("description").asText()).contains("pgoutput");
        assertThat(manifest.path("documentation_url").asText()).startsWith("https://");
        assertThat(texts(manifest.path("tags"))).contains("postgresql", "cdc");
        assertThat(texts(manifest.path("requirements"))).anyMatch(r -> r.contains("wal_level=logical"));
        assertThat(texts(manifest.path("features").path("supported_encodings"))).containsExactly("any");
        assertThat(texts(manifest.path("features").path("delivery_guarantee"))).containsExactly("at_least_once");
        assertThat(manifest.path("license").path(0).path("name").asText()).isEqualTo("Apache License 2.0");
    }

    @Test
    void pluginFolderHoldsTheSameJarsAsLib() throws IOException {
        assertThat(PLUGIN_FOLDER).isDirectory();
        List<String> folder;
        try (Stream<Path> files = Files.list(PLUGIN_FOLDER)) {
            folder = files.map(f -> f.getFileName().toString()).sorted().toList();
        }
        assertThat(folder).containsExactlyElementsOf(jarNames("lib/"));
    }

    private static List<String> jarNames(String directory) {
        return entries.keySet().stream().filter(n -> n.startsWith(directory))
                .map(n -> n.substring(directory.length())).sorted().toList();
    }

    private static List<String> texts(JsonNode array) {
        assertThat(array.isArray()).as("%s is a JSON array", array).isTrue();
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }
}

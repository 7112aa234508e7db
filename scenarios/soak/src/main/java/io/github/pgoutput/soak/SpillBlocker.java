package io.github.pgoutput.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Makes the spill directory unwritable and writable again. {@code chmod 000} does not stop root, and CI runs the
 * worker as root: there the directory gets the immutable attribute ({@code chattr +i}), which root obeys too (no file
 * can be created, renamed or deleted in it; files already open stay writable). Which one works is proved once by
 * {@link #verify()} with a probe file.
 */
final class SpillBlocker {

    private final Path directory;
    private final boolean root = "root".equals(System.getProperty("user.name"));
    private volatile boolean blocked;

    SpillBlocker(Path directory) {
        this.directory = directory;
    }

    String method() {
        return root ? "chattr +i / chattr -i (the worker runs as root, which ignores permissions)"
                : "chmod 000 / chmod 700";
    }

    /** Blocks, checks that creating a file fails, unblocks, checks that it works again. */
    void verify() throws IOException, InterruptedException {
        block();
        try {
            Path probe = Files.createTempFile(directory, "probe-", ".tmp");
            Files.delete(probe);
            throw new IllegalStateException("the spill directory " + directory + " stayed writable after " + method()
                    + "; the spill fault cannot be injected on this file system");
        } catch (IOException expected) {
            // blocked as intended
        } finally {
            unblock();
        }
        Files.delete(Files.createTempFile(directory, "probe-", ".tmp"));
    }

    void block() throws IOException, InterruptedException {
        blocked = true;
        if (root) {
            run(List.of("chattr", "+i", directory.toString()));
        } else {
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("---------"));
        }
    }

    void unblock() throws IOException, InterruptedException {
        if (root) {
            run(List.of("chattr", "-i", directory.toString()));
        } else {
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
        }
        blocked = false;
    }

    /** Unblocks if blocked: the run's folder must be deletable, whatever happened. */
    void release() {
        if (!blocked) {
            return;
        }
        try {
            unblock();
        } catch (IOException | InterruptedException e) {
            System.err.println("could not make " + directory + " writable again: " + e.getMessage());
        }
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed (exit " + process.exitValue() + "): " + output);
        }
    }
}

package io.github.pgoutput.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs PostgreSQL's programs. PostgreSQL refuses to run as root, so when the build runs as root (as CI does)
 * every command runs as the {@code postgres} OS user through {@code runuser}, and files it must own are chowned.
 */
final class OsCommands {

    static final String SERVER_OS_USER = "postgres";

    private OsCommands() {
    }

    static boolean runningAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    static List<String> asServerUser(List<String> command) {
        if (!runningAsRoot()) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("runuser", "-u", SERVER_OS_USER, "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Hands {@code path} to the server user when running as root. */
    static void giveToServerUser(Path path) throws IOException {
        if (!runningAsRoot()) {
            return;
        }
        UserPrincipal owner;
        try {
            owner = path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(SERVER_OS_USER);
        } catch (IOException e) {
            throw new IllegalStateException("running as root, so PostgreSQL must run as the OS user '" + SERVER_OS_USER
                    + "', which does not exist; create it: useradd --system --create-home " + SERVER_OS_USER, e);
        }
        Files.setOwner(path, owner);
    }

    /**
     * Runs {@code command} to completion and returns its combined output; fails with that output on a non-zero exit.
     * Output goes through a file, not a pipe, because {@code pg_ctl start} leaves a server running that could
     * otherwise hold the pipe open.
     */
    static String run(List<String> command, Path workingDirectory, long timeoutSeconds) throws IOException {
        Path output = Files.createTempFile("kcpg-command-", ".log");
        try {
            Process process = new ProcessBuilder(command).directory(workingDirectory.toFile())
                    .redirectErrorStream(true).redirectOutput(output.toFile()).start();
            process.getOutputStream().close();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s:\n" + Files.readString(output).strip());
            }
            String text = Files.readString(output);
            if (process.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " exited with " + process.exitValue() + ":\n" + text.strip());
            }
            return text;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", command), e);
        } finally {
            Files.deleteIfExists(output);
        }
    }
}

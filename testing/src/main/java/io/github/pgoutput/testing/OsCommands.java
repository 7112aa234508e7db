package io.github.pgoutput.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
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
     * When running as root: fails unless the server user may enter (or run) {@code path}, which needs search
     * permission on every directory above it. The message names the directories in the way with their mode and owner,
     * the {@code chmod} that opens them, and {@code alternative} (where else the files could go).
     */
    static void requireReachableByServerUser(Path path, String alternative) throws IOException {
        if (!runningAsRoot() || serverUserCanEnter(path)) {
            return;
        }
        // The first directory the user cannot pass is found by asking as that user; past it every test fails, so the
        // ones below it are judged by their mode: not the user's own and closed to others.
        List<Path> blockers = new ArrayList<>();
        Path prefix = path.getRoot();
        for (int names = 0; names <= path.getNameCount(); names++) {
            prefix = names == 0 ? prefix : prefix.resolve(path.getName(names - 1));
            boolean blocks = blockers.isEmpty() ? !serverUserCanEnter(prefix) : closedToServerUser(prefix);
            if (blocks) {
                blockers.add(prefix);
            }
        }
        if (blockers.isEmpty()) {
            blockers.add(path);
        }
        List<String> states = new ArrayList<>();
        for (Path blocker : blockers) {
            states.add(blocker + " is " + describe(blocker));
        }
        String chmod = blockers.stream().filter(b -> !Files.isRegularFile(b)).map(Path::toString)
                .reduce((a, b) -> a + " " + b).map(dirs -> "chmod o+x " + dirs).orElse("");
        if (Files.isRegularFile(blockers.get(blockers.size() - 1))) {
            chmod = (chmod.isEmpty() ? "" : chmod + "; ") + "chmod o+rx " + blockers.get(blockers.size() - 1);
        }
        throw new IllegalStateException("PostgreSQL refuses to run as root, so it runs as the OS user '"
                + SERVER_OS_USER + "', which cannot reach " + path + ": " + String.join(", ", states)
                + ". Let it through (" + chmod + ") or " + alternative);
    }

    private static boolean closedToServerUser(Path path) throws IOException {
        if (!Files.exists(path)) {
            return false;
        }
        PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class);
        return !attributes.owner().getName().equals(SERVER_OS_USER)
                && !attributes.permissions().contains(PosixFilePermission.OTHERS_EXECUTE);
    }

    private static String describe(Path path) throws IOException {
        if (!Files.exists(path)) {
            return "missing";
        }
        PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class);
        return PosixFilePermissions.toString(attributes.permissions()) + " " + attributes.owner().getName() + ":"
                + attributes.group().getName();
    }

    /** {@code test -x} as the server user: search permission on a directory, execute permission on a file. */
    private static boolean serverUserCanEnter(Path path) throws IOException {
        Process test = new ProcessBuilder("runuser", "-u", SERVER_OS_USER, "--", "test", "-x", path.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!test.waitFor(30, TimeUnit.SECONDS)) {
                test.destroyForcibly();
                throw new IOException("runuser -u " + SERVER_OS_USER + " -- test -x " + path + " did not finish in 30 s");
            }
            return test.exitValue() == 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while checking that " + SERVER_OS_USER + " can reach " + path, e);
        }
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

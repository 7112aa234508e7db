package io.github.pgoutput.testing;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

/**
 * A base backup of a running server with the low-level backup API, because the zonky server bundles have no
 * {@code pg_basebackup}: {@code pg_backup_start} on one session, a plain file copy of the data directory while that
 * session stays open (closing it would abort the backup), {@code pg_backup_stop}, and its label written into the
 * copy as {@code backup_label}. The copy holds no WAL: the standby streams what it needs from the backup's start
 * checkpoint on, which the caller keeps on the primary with a physical slot reserved before the backup starts.
 */
final class BaseBackup {

    /**
     * Directories whose contents a base backup leaves out (the directories themselves are kept): WAL, slots,
     * and runtime state that the server rebuilds or that must not carry over (PostgreSQL's "Backing up the data
     * directory" list).
     */
    private static final Set<String> EMPTIED_DIRECTORIES = Set.of("pg_wal", "pg_replslot", "pg_dynshmem", "pg_notify",
            "pg_serial", "pg_snapshots", "pg_stat_tmp", "pg_subtrans");

    /** Files of the running server that must not be in the copy. */
    private static final Set<String> LEFT_OUT_FILES = Set.of("postmaster.pid", "postmaster.opts", "pg_internal.init",
            "standby.signal", "recovery.signal", "backup_label", "tablespace_map");

    private BaseBackup() {
    }

    /** Copies {@code primary}'s data directory into {@code target} (which must not exist) as a consistent backup. */
    static void take(PostgresCluster primary, Path target) throws IOException {
        try (Connection session = primary.connect("postgres"); Statement statement = session.createStatement()) {
            // fast = true: an immediate checkpoint, so the test does not wait for checkpoint_timeout.
            statement.execute("SELECT pg_backup_start('kcpg-standby', true)");
            copy(primary.dataDirectory(), target);
            try (ResultSet stop = statement.executeQuery("SELECT labelfile, spcmapfile FROM pg_backup_stop(false)")) {
                stop.next();
                OsCommands.giveToServerUser(Files.writeString(target.resolve("backup_label"), stop.getString(1)));
                String tablespaceMap = stop.getString(2);
                if (tablespaceMap != null && !tablespaceMap.isEmpty()) {
                    OsCommands.giveToServerUser(Files.writeString(target.resolve("tablespace_map"), tablespaceMap));
                }
            }
        } catch (SQLException e) {
            throw new IOException("base backup of " + primary + " failed: " + e.getMessage(), e);
        }
    }

    private static void copy(Path source, Path target) throws IOException {
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
                Path copy = target.resolve(source.relativize(dir).toString());
                Files.createDirectories(copy);
                Files.setPosixFilePermissions(copy, Files.getPosixFilePermissions(dir));
                OsCommands.giveToServerUser(copy);
                if (!dir.equals(source) && EMPTIED_DIRECTORIES.contains(dir.getFileName().toString())
                        && dir.getParent().equals(source)) {
                    if (dir.getFileName().toString().equals("pg_wal")) {
                        // The server expects pg_wal/archive_status to exist.
                        Path status = Files.createDirectories(copy.resolve("archive_status"));
                        OsCommands.giveToServerUser(status);
                    }
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                if (LEFT_OUT_FILES.contains(file.getFileName().toString())) {
                    return FileVisitResult.CONTINUE;
                }
                Path copy = target.resolve(source.relativize(file).toString());
                try {
                    Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES);
                    OsCommands.giveToServerUser(copy);
                } catch (NoSuchFileException e) {
                    // The running server removed it (a temporary file); replaying WAL from the backup start covers it.
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
    }
}

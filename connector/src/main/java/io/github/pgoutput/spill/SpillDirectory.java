package io.github.pgoutput.spill;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;

/**
 * Vets {@code spill.directory} before the disk spill trusts it. A frame's CRC-32C catches damage, not forgery: whoever
 * can write the directory, or swap it for another, can plant frames that are read back as committed changes. So the
 * directory must be one that only the worker's user controls:
 * <ul>
 *   <li>when missing it is created, with any missing parents, with permissions 0700 from the start;</li>
 *   <li>it is not a symbolic link (checked without following links) but a directory;</li>
 *   <li>it is owned by the user the process creates files as (found out with a probe file), and writable by neither
 *       its group nor others;</li>
 *   <li>every directory above it on its real path is owned by that user or by root, and is writable by its group or
 *       others only with the sticky bit set (as {@code /tmp}), so that nobody else can rename it away and put
 *       another in its place.</li>
 * </ul>
 *
 * <p>On file systems without POSIX attributes (Windows) only the link and directory checks apply: owners and ACLs
 * there do not map onto "only this user may write", so restricting the directory's ACL is left to the operator.
 * Files are still created new, never through a link, and kept open until deleted.
 */
final class SpillDirectory {

    static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");

    private static final Set<PosixFilePermission> SHARED_WRITE =
            EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
    private static final int GROUP_OR_OTHERS_WRITE = 0022;
    private static final int STICKY = 01000;

    private SpillDirectory() {
    }

    /**
     * Creates (0700) or checks {@code configured} for the spill of {@code slotName} and returns its absolute path.
     *
     * @throws SpillException naming the directory, what is wrong with it and how to fix it
     */
    static Path open(Path configured, String slotName) {
        Path directory = configured.toAbsolutePath();
        try {
            if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(directory, ownerOnly(directory, OWNER_DIRECTORY));
            }
        } catch (FileAlreadyExistsException e) {
            // Made by someone else meanwhile, or a parent is a file: the checks below tell which.
        } catch (IOException | UnsupportedOperationException e) {
            throw unusable(directory, e);
        }
        try {
            BasicFileAttributes attributes = attributes(directory);
            if (attributes.isSymbolicLink()) {
                throw refused(directory, "is a symbolic link (to " + Files.readSymbolicLink(directory) + ")",
                        "set spill.directory to the real directory if it is the worker's own");
            }
            if (!attributes.isDirectory()) {
                throw unusable(directory, new IOException("not a directory"));
            }
            if (attributes instanceof PosixFileAttributes posix && !disjoint(posix.permissions(), SHARED_WRITE)) {
                throw refused(directory, "is writable by its group or by other users ("
                        + PosixFilePermissions.toString(posix.permissions()) + ")", "set spill.directory to a directory only the "
                        + "worker's user can write (a missing one is created with permissions 0700), or, if nothing else "
                        + "uses this one, chmod 700 " + directory);
            }
            UserPrincipal self = probeFileOwner(directory, slotName);
            if (self != null && attributes instanceof PosixFileAttributes posix && !posix.owner().equals(self)) {
                UserPrincipal owner = posix.owner();
                throw refused(directory, "is owned by " + owner.getName() + ", not by " + self.getName()
                        + ", the user this worker creates its spill files as", "chown it to " + self.getName()
                        + ", or set spill.directory to a directory of " + self.getName()
                        + "'s or to one that does not exist yet");
            }
            checkParents(directory);
        } catch (IOException | UnsupportedOperationException e) {
            throw unusable(directory, e);
        }
        return directory;
    }

    /**
     * The owner of a probe file created in {@code directory} (and deleted again), which also proves the directory
     * writable: the user the process creates files as, even when {@code user.name} says otherwise. {@code null}
     * when the file system reports no owners.
     */
    private static UserPrincipal probeFileOwner(Path directory, String slotName) throws IOException {
        Path probe = Files.createTempFile(directory, slotName + ".probe-", ".tmp", ownerOnly(directory, OWNER_FILE));
        try {
            boolean owners = directory.getFileSystem().supportedFileAttributeViews().contains("owner");
            return owners ? Files.getOwner(probe, LinkOption.NOFOLLOW_LINKS) : null;
        } finally {
            Files.delete(probe);
        }
    }

    private static void checkParents(Path directory) throws IOException {
        if (!directory.getFileSystem().supportedFileAttributeViews().contains("unix")) {
            return;
        }
        int self = (Integer) Files.getAttribute(directory, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        for (Path parent = directory.toRealPath().getParent(); parent != null; parent = parent.getParent()) {
            int uid = (Integer) Files.getAttribute(parent, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int mode = (Integer) Files.getAttribute(parent, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            if (uid != self && uid != 0) {
                throw refused(directory, "lies in " + parent + ", which is owned by another user ("
                        + Files.getOwner(parent, LinkOption.NOFOLLOW_LINKS).getName() + ") who could swap the directory for another",
                        "set spill.directory to a directory whose parents all belong to the worker's user or to root");
            }
            if ((mode & GROUP_OR_OTHERS_WRITE) != 0 && (mode & STICKY) == 0) {
                throw refused(directory, "lies in " + parent + ", which other users may write (mode "
                        + Integer.toOctalString(mode & 07777) + ", no sticky bit) and so swap the directory for another",
                        "chmod go-w " + parent + " or chmod +t " + parent + ", or set spill.directory elsewhere");
            }
        }
    }

    private static BasicFileAttributes attributes(Path path) throws IOException {
        Class<? extends BasicFileAttributes> type = path.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? PosixFileAttributes.class : BasicFileAttributes.class;
        return Files.readAttributes(path, type, LinkOption.NOFOLLOW_LINKS);
    }

    private static boolean disjoint(Set<PosixFilePermission> a, Set<PosixFilePermission> b) {
        return a.stream().noneMatch(b::contains);
    }

    /** Owner-only permissions given at creation, so the file or directory is never briefly open to others. */
    static FileAttribute<?>[] ownerOnly(Path path, Set<PosixFilePermission> permissions) {
        boolean posix = path.getFileSystem().supportedFileAttributeViews().contains("posix");
        return posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)} : new FileAttribute<?>[0];
    }

    private static SpillException refused(Path directory, String what, String fix) {
        return new SpillException("spill.directory " + directory + " " + what + "; the disk spill refuses it, since"
                + " whoever controls the directory could plant spill files that would be read back as committed changes: "
                + fix);
    }

    private static SpillException unusable(Path directory, Exception e) {
        return new SpillException("spill.directory " + directory + " is not a writable directory (" + DiskSpill.describe(e)
                + "); point spill.directory at a directory this process can create and write", e);
    }
}

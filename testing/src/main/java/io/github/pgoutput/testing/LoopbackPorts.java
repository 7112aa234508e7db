package io.github.pgoutput.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on 127.0.0.1 for servers that another process binds later (PostgreSQL, a broker or worker JVM).
 *
 * <p>Why not a port the kernel picks ({@code new ServerSocket(0)}, closed at once): that port comes from the
 * ephemeral range, from which the kernel also picks the local port of every outgoing connection, and tests make many
 * (Kafka clients, JDBC). Between closing the probe and the server's bind, such a connection could take the port and
 * the server then failed to start (seen as a broker that exited at start). The ports handed out here lie below the
 * ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range}), where the kernel never picks, and each is locked
 * in a lock file for as long as this JVM runs, so two test JVMs or runs on the machine never take the same one.
 *
 * <p>Thread-safe.
 */
public final class LoopbackPorts {

    private static final int LOWEST = 15000;
    private static final Path LOCKS = Path.of(System.getProperty("java.io.tmpdir"),
            "pgoutput-ports-" + System.getProperty("user.name"));
    /** Locks held for the life of the JVM: a released lock would let another JVM take a port still in use here. */
    private static final ConcurrentHashMap<Integer, FileLock> HELD = new ConcurrentHashMap<>();

    private LoopbackPorts() {
    }

    /** A port nothing listens on, below the ephemeral range, reserved for this JVM. */
    public static int take() {
        int[] range = range();
        int size = range[1] - range[0];
        int start = ThreadLocalRandom.current().nextInt(size);
        for (int i = 0; i < size; i++) {
            int port = range[0] + (start + i) % size;
            if (!HELD.containsKey(port) && lock(port)) {
                if (bindable(port)) {
                    return port;
                }
                // Something outside this scheme listens there: keep the lock (nobody of ours should use it either).
            }
        }
        throw new IllegalStateException("no free port on 127.0.0.1 between " + range[0] + " and " + range[1]);
    }

    /** {@code count} distinct ports, as {@link #take()} gives them. */
    public static int[] take(int count) {
        int[] ports = new int[count];
        for (int i = 0; i < count; i++) {
            ports[i] = take();
        }
        return ports;
    }

    /** The ports to hand out: from {@value #LOWEST} up to the start of the kernel's ephemeral range. */
    static int[] range() {
        int ephemeralStart = 32768;
        try {
            // readAllLines, not readString: /proc files report size 0, and readString then reads a single byte.
            List<String> lines = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
            ephemeralStart = Integer.parseInt(lines.get(0).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException notLinux) {
            // keep the Linux default
        }
        if (ephemeralStart - LOWEST < 1000) {
            throw new IllegalStateException("the ephemeral port range starts at " + ephemeralStart + ", leaving fewer than"
                    + " 1000 ports above " + LOWEST + " for test servers; widen it (sysctl net.ipv4.ip_local_port_range)");
        }
        return new int[] {LOWEST, ephemeralStart};
    }

    private static boolean lock(int port) {
        try {
            Files.createDirectories(LOCKS);
            FileChannel channel = FileChannel.open(LOCKS.resolve(port + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException heldHere) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                return false;
            }
            HELD.put(port, lock);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock a port in " + LOCKS, e);
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }
}

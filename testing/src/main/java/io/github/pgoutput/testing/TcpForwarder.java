package io.github.pgoutput.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An endpoint that moves, as a virtual IP or a DNS name does in a failover: a TCP forwarder on a fixed local port that
 * passes each connection on to the server it currently points at. {@link #pointAt} moves it (connections open at that
 * moment are cut, as clients of a moved VIP see), {@link #refuse} stops listening so connections are refused (nothing
 * listens at the address during the switch), and {@code pointAt} listens again on the same port.
 *
 * <p>Thread-safe. Plain sockets with two pump threads per connection: meant for a handful of test connections.
 */
public final class TcpForwarder implements AutoCloseable {

    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile InetSocketAddress target;
    private ServerSocket listener;

    private TcpForwarder(int port) {
        this.port = port;
    }

    /** A forwarder on a free port of {@link PostgresCluster#HOST}, passing connections on to {@code server}. */
    public static TcpForwarder to(PostgresCluster server) {
        TcpForwarder forwarder = new TcpForwarder(LoopbackPorts.take());
        forwarder.pointAt(server);
        return forwarder;
    }

    public String host() {
        return PostgresCluster.HOST;
    }

    public int port() {
        return port;
    }

    /** Connections accepted since the last {@link #pointAt}, whether or not the server took them. */
    public int acceptedSincePointed() {
        return accepted.get();
    }

    /**
     * From now on new connections go to {@code server}; connections open now are cut. Listens again if it was
     * {@linkplain #refuse() refusing}.
     */
    public synchronized void pointAt(PostgresCluster server) {
        target = new InetSocketAddress(server.host(), server.port());
        cutOpenConnections();
        accepted.set(0);
        if (listener == null) {
            listen();
        }
    }

    /** Stops listening and cuts every connection: connecting to the forwarder is refused until {@link #pointAt}. */
    public synchronized void refuse() {
        closeListener();
        cutOpenConnections();
    }

    @Override
    public synchronized void close() {
        refuse();
    }

    private void listen() {
        try {
            ServerSocket socket = new ServerSocket();
            // The port was ours a moment ago: connections of the last listener may linger in TIME_WAIT.
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(PostgresCluster.HOST, port), 50);
            listener = socket;
        } catch (IOException e) {
            throw new IllegalStateException("the forwarder cannot listen on " + PostgresCluster.HOST + ":" + port + ": " + e.getMessage(), e);
        }
        ServerSocket accepting = listener;
        Thread acceptor = new Thread(() -> acceptUntilClosed(accepting), "tcp-forwarder-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void acceptUntilClosed(ServerSocket accepting) {
        while (!accepting.isClosed()) {
            Socket client;
            try {
                client = accepting.accept();
            } catch (IOException e) {
                return; // closed by refuse()
            }
            accepted.incrementAndGet();
            InetSocketAddress to = target;
            Socket server = new Socket();
            try {
                server.connect(to, 5_000);
            } catch (IOException e) {
                closeQuietly(client); // the server does not listen: the client sees its connection closed
                closeQuietly(server);
                continue;
            }
            open.add(client);
            open.add(server);
            pump(client, server, "up");
            pump(server, client, "down");
        }
    }

    private void pump(Socket from, Socket to, String direction) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // cut, or the other side went away: close both so neither peer waits on a half-open pair
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "tcp-forwarder-" + port + "-" + direction);
        pump.setDaemon(true);
        pump.start();
    }

    private void cutOpenConnections() {
        for (Socket socket : open) {
            try {
                // A reset rather than an orderly close, as a client sees when its server's address has moved away.
                socket.setSoLinger(true, 0);
            } catch (SocketException e) {
                // already closed
            }
            closeQuietly(socket);
        }
        open.clear();
    }

    private void closeListener() {
        if (listener != null) {
            closeQuietly(listener);
            listener = null;
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // nothing to do: the socket is gone either way
        }
    }
}

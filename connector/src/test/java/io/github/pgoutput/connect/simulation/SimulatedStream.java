package io.github.pgoutput.connect.simulation;

import java.util.List;

import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.ReplicationStream;
import io.github.pgoutput.replication.WalFrame;

/**
 * One replication session of the simulated server: hands out the walsender's script frame by frame, and takes the
 * task's feedback the way pgjdbc carries it (docs/pgoutput-protocol.md §8.3/8.4): a declared LSN reaches the server only with the status
 * update sent inside a later read call, or with the last update of a clean close. So a connection lost, or a task
 * killed, before that read leaves the slot where the server last heard. Single-threaded.
 */
final class SimulatedStream implements ReplicationStream {

    private final SimulatedPostgres server;
    private final List<SimulatedWalSender.Output> script;
    private final DecoderSettings settings;
    /** Where the server started sending: the larger of the requested LSN and the slot's confirmed_flush (docs/pgoutput-protocol.md §6.6). */
    private final Lsn start;
    private int next;
    private Lsn durable;
    private Lsn serverWalEnd = Lsn.INVALID;
    /** The latest keepalive read after the last frame handed out; it becomes serverWalEnd at an empty read. */
    private Lsn keepaliveAfterLastFrame = Lsn.INVALID;
    private Lsn received = Lsn.INVALID;
    private boolean lost;
    private boolean closed;

    SimulatedStream(SimulatedPostgres server, List<SimulatedWalSender.Output> script, Lsn resumeFrom, Lsn start,
                    DecoderSettings settings) {
        this.server = server;
        this.start = start;
        this.script = script;
        this.durable = resumeFrom;
        this.settings = settings;
    }

    @Override
    public WalFrame readPending() {
        if (closed) {
            throw new IllegalStateException("simulated session is closed");
        }
        if (lost) {
            throw server.connectionLost("read after the connection was lost");
        }
        if (server.loseConnectionNow()) {
            lost = true;
            throw server.connectionLost("connection lost (injected)");
        }
        server.statusUpdate(durable);
        while (next < script.size()) {
            SimulatedWalSender.Output item = script.get(next++);
            if (item instanceof SimulatedWalSender.Keepalive keepalive) {
                keepaliveAfterLastFrame = Lsn.max(keepaliveAfterLastFrame, keepalive.walEnd());
                received = Lsn.max(received, keepalive.walEnd());
                continue;
            }
            if (item instanceof SimulatedWalSender.Gap) {
                break;
            }
            keepaliveAfterLastFrame = Lsn.INVALID;
            SimulatedWalSender.FrameItem sent = (SimulatedWalSender.FrameItem) item;
            WalFrame frame = sent.frame();
            received = Lsn.max(received, frame.headerLsn());
            server.frameSent(sent.walIndex());
            return frame;
        }
        if (keepaliveAfterLastFrame.isAfter(serverWalEnd)) {
            serverWalEnd = keepaliveAfterLastFrame;
        }
        return null;
    }

    /** True when every item of the script has been read. */
    boolean drained() {
        return next >= script.size();
    }

    @Override
    public void declareDurable(Lsn lsn) {
        if (lsn.isAfter(durable)) {
            server.declared(lsn);
            durable = lsn;
        }
    }

    @Override
    public Lsn durableLsn() {
        return durable;
    }

    @Override
    public Lsn serverWalEnd() {
        return serverWalEnd;
    }

    @Override
    public Lsn receivedLsn() {
        return received;
    }

    @Override
    public Lsn startLsn() {
        return start;
    }

    @Override
    public DecoderSettings decoderSettings() {
        return settings;
    }

    @Override
    public void close() {
        if (!closed && !lost) {
            server.statusUpdate(durable); // the last feedback of a clean close
        }
        closed = true;
        server.closed(this);
    }
}

package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;

/**
 * One started logical replication stream, as the task reads it: frames in wire order, and the feedback it may give.
 * {@link ReplicationSession} is the implementation against a live server; tests drive the task through scripted ones.
 *
 * <p>Feedback contract: the flush position the server sees is only ever what the caller passed to
 * {@link #declareDurable} (or the LSN the stream was started at). Thread-safety: {@link #readPending()} from one
 * thread at a time; the other methods from any thread.
 */
public interface ReplicationStream extends AutoCloseable {

    /**
     * The next XLogData frame, or null when none is available now. Never blocks waiting for the server.
     *
     * @throws ReplicationConnectionLostException when the connection is gone (retriable)
     * @throws ReplicationSetupException          when the server ends the stream with a permanent error
     */
    WalFrame readPending();

    /** Everything up to {@code lsn} is durably processed; smaller values than an earlier declaration are ignored. */
    void declareDurable(Lsn lsn);

    /** The highest LSN declared durable so far (initially the start LSN); {@link Lsn#INVALID} if none. */
    Lsn durableLsn();

    /**
     * The walEnd of the latest keepalive that arrived after every frame {@link #readPending()} returned, or
     * {@link Lsn#INVALID} before the first: with nothing pending, the caller may declare it durable.
     */
    Lsn serverWalEnd();

    /** The highest LSN received so far (frames and keepalives), for metrics. */
    Lsn receivedLsn();

    /**
     * The LSN the server sends from: the larger of the LSN requested at START_REPLICATION and the slot's
     * confirmed_flush_lsn (docs/pgoutput-protocol.md §6.6). A delivery whose commit or prepare record starts before it was not re-sent
     * by the resume rule.
     */
    Lsn startLsn();

    /** The decoder settings of the protocol this stream was started with. */
    DecoderSettings decoderSettings();

    /** Sends the last feedback and releases the connection. Idempotent; never throws for a connection already gone. */
    @Override
    void close();
}

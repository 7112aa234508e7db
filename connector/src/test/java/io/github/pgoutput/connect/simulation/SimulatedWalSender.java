package io.github.pgoutput.connect.simulation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

import io.github.pgoutput.connect.simulation.SimulatedWal.Record;
import io.github.pgoutput.connect.simulation.SimulationHistory.ChangeStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndKind;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Item;
import io.github.pgoutput.connect.simulation.SimulationHistory.MessageStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Op;
import io.github.pgoutput.connect.simulation.SimulationHistory.SignalMessageStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.SubAbortStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Table;
import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Begin;
import io.github.pgoutput.pgoutput.PgOutputMessage.BeginPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Commit;
import io.github.pgoutput.pgoutput.PgOutputMessage.CommitPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.Delete;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Origin;
import io.github.pgoutput.pgoutput.PgOutputMessage.Prepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.RollbackPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamAbort;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamCommit;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamStart;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamStop;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import io.github.pgoutput.pgoutput.PgTimestamps;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.WalFrame;

/**
 * What the walsender sends in one session started at {@code S}: decodes the whole WAL from the beginning (the slot's
 * restart_lsn, docs/pgoutput-protocol.md §2.1) and writes the pgoutput messages the spec says PostgreSQL writes at each record, with
 * keepalives and idle gaps between them. The section of docs/pgoutput-protocol.md behind each rule is cited where it is applied.
 *
 * <p>Why a model of decoding rather than a fixed recording: a restart point anywhere in the history must give what
 * PostgreSQL would send from there, and the interesting cases (a transaction streamed in one session and sent whole
 * in the next, a prepared transaction sent at COMMIT PREPARED with its old prepare LSNs) follow from these rules.
 */
final class SimulatedWalSender {

    /** One thing the server does: send a frame, send a keepalive, or have nothing to send for one read. */
    sealed interface Output permits FrameItem, Keepalive, Gap {
    }

    /** A frame, and the index of the WAL record whose decoding sent it. */
    record FrameItem(WalFrame frame, String tag, int walIndex) implements Output {
    }

    record Keepalive(Lsn walEnd) implements Output {
    }

    record Gap() implements Output {
    }

    /** The START_REPLICATION options that matter here, and the slot's two_phase_at (null: two-phase decoding off). */
    record Session(Lsn start, Lsn twoPhaseAt, DecoderSettings settings, boolean messages) {
    }

    /** Per streamed transaction, what this session has sent of it (docs/pgoutput-protocol.md §6.3). */
    private static final class StreamState {
        boolean streamed;
        int sentChanges;
        final Set<Integer> subsWithSentChanges = new HashSet<>();
        final Map<Table, Integer> scopedSchema = new HashMap<>();
    }

    private final SimulatedWal wal;
    private final Session session;
    private final SplittableRandom random;
    private final List<Output> out = new ArrayList<>();
    /** Relations whose R this session has sent outside stream scopes, by schema version (docs/pgoutput-protocol.md §6.9). */
    private final Map<Table, Integer> sentSchema = new HashMap<>();
    private final Map<Integer, StreamState> streams = new HashMap<>();
    private final Map<Integer, Set<Integer>> abortedSubs = new HashMap<>();
    private boolean insideBlock;
    /** The index of the record being decoded. */
    private int decoding;

    private SimulatedWalSender(SimulatedWal wal, Session session, SplittableRandom random) {
        this.wal = wal;
        this.session = session;
        this.random = random;
    }

    /** Everything the session sends, in order; after the last item the server only sends keepalives at the WAL end. */
    static List<Output> script(SimulatedWal wal, Session session, SplittableRandom random) {
        SimulatedWalSender sender = new SimulatedWalSender(wal, session, random);
        // Spec 2.1: the first frame after CopyBothResponse is a keepalive whose walEnd is the slot's confirmed_flush.
        sender.out.add(new Keepalive(session.start()));
        for (Record record : wal.records()) {
            sender.decoding = record.index();
            sender.decode(record);
            if (random.nextInt(100) < 25) {
                // Spec 2.3/2.4: sentPtr is past everything decoded, never past an unsent commit record.
                sender.out.add(new Keepalive(Lsn.max(record.end(), session.start())));
            }
            if (random.nextInt(100) < 15) {
                sender.out.add(new Gap());
            }
        }
        sender.out.add(new Keepalive(Lsn.max(wal.end(), session.start())));
        return sender.out;
    }

    private boolean streaming() {
        return session.settings().streamingEnabled();
    }

    /** Spec 6.5: decode-at-prepare for prepares at or after the slot's two_phase_at. */
    private boolean decodedAtPrepare(Item item) {
        Record prepare = wal.endRecord(item, EndKind.PREPARE);
        return session.twoPhaseAt() != null && prepare != null && !prepare.start().isBefore(session.twoPhaseAt());
    }

    /** Spec 2.1 / 6.6: a transaction is sent iff its commit (or prepare) record starts at or after the start point. */
    private boolean sendable(Record record) {
        return !record.start().isBefore(session.start());
    }

    private void decode(Record record) {
        Item item = record.item();
        if (record.step() instanceof MessageStep) {
            // Spec 6.8: sent as soon as decoded, outside any transaction; skipped before the start point (src).
            if (session.messages() && sendable(record)) {
                send(new LogicalMessage(Xid.INVALID, false, record.end(), "sim", Bytes.utf8("ntx-" + item.id())), record.end());
            }
            return;
        }
        if (record.step() instanceof SignalMessageStep signal) {
            if (session.messages() && sendable(record)) {
                send(new LogicalMessage(Xid.INVALID, false, record.end(), SimulatedSignal.MESSAGE_PREFIX,
                        Bytes.utf8(SimulatedSignal.of(signal.signal()).document())), record.end());
            }
            return;
        }
        if (record.step() instanceof ChangeStep change) {
            if (change.endsBlock() && item.large() && streaming() && sendable(record)) {
                // Spec 6.2: streaming starts only once decoding has passed the start point (src), so blocks that
                // fell before it are sent together in the first block after it.
                streamBlock(item, record.stepIndex() + 1);
            }
            return;
        }
        if (record.step() instanceof SubAbortStep sub) {
            abortedSubs.computeIfAbsent(item.id(), k -> new HashSet<>()).add(sub.sub());
            StreamState state = streams.get(item.id());
            // Spec 6.4: an A only for a subtransaction this session streamed changes of.
            if (state != null && state.streamed && state.subsWithSentChanges.contains(sub.sub())) {
                send(abort(item, item.subXid(sub.sub()), record), record.end());
                // pgoutput's stream_abort forgets, for the top-level xid, every relation it sent inside the stream
                // (cleanup_rel_sync_cache(toptxn->xid, false)), also for a subtransaction's abort: the next change
                // of such a table in this transaction brings its R again, since the aborted one may have carried it.
                state.scopedSchema.clear();
            }
            return;
        }
        if (!(record.step() instanceof EndStep end)) {
            return; // ALTER TABLE: no message of its own; the next change of the table brings a new R (docs/pgoutput-protocol.md §6.9)
        }
        EndKind kind = end.kind();
        StreamState state = streams.get(item.id());
        boolean streamedHere = state != null && state.streamed;
        switch (kind) {
            case COMMIT -> {
                if (sendable(record)) {
                    if (streamedHere) {
                        finishStream(item, record, false);
                    } else {
                        whole(item, record, record);
                    }
                }
            }
            case ABORT -> {
                if (streamedHere) {
                    send(abort(item, item.xid(), record), record.end()); // docs/pgoutput-protocol.md §6.4: A(top, top)
                }
            }
            case PREPARE -> {
                if (decodedAtPrepare(item) && sendable(record)) {
                    if (streamedHere) {
                        finishStream(item, record, true);
                    } else {
                        wholePrepared(item, record);
                    }
                }
            }
            case COMMIT_PREPARED -> {
                if (!sendable(record)) {
                    return;
                }
                Record prepare = wal.endRecord(item, EndKind.PREPARE);
                if (decodedAtPrepare(item)) {
                    send(new CommitPrepared(0, record.start(), record.end(), time(record), Xid.of(item.xid()), item.gid()), record.end());
                } else if (session.twoPhaseAt() != null) {
                    // Spec 6.5: prepared before two_phase_at: b + changes + P with the ORIGINAL prepare LSNs, then K.
                    wholePrepared(item, prepare);
                    send(new CommitPrepared(0, record.start(), record.end(), time(record), Xid.of(item.xid()), item.gid()), record.end());
                } else if (streamedHere) {
                    finishStream(item, record, false); // docs/pgoutput-protocol.md §6.5: without two_phase, streamed: blocks + c
                } else {
                    whole(item, record, record); // docs/pgoutput-protocol.md §6.5: without two_phase, a plain B..C at COMMIT PREPARED
                }
            }
            case ROLLBACK_PREPARED -> {
                Record prepare = wal.endRecord(item, EndKind.PREPARE);
                if (session.twoPhaseAt() != null) {
                    // Spec 6.5: r is sent, also for a gid prepared before two_phase_at and never sent downstream.
                    if (sendable(record)) {
                        send(new RollbackPrepared(0, prepare.end(), record.end(), time(prepare), time(record), Xid.of(item.xid()),
                                item.gid()), record.end());
                    }
                } else if (streamedHere) {
                    send(abort(item, item.xid(), record), record.end()); // docs/pgoutput-protocol.md §6.4: A(top, top) at ROLLBACK PREPARED
                }
            }
        }
    }

    /** The changes of {@code item} this session may still send: published, not rolled back, in WAL order. */
    private List<Record> pending(Item item, int fromChange, int untilStep) {
        Set<Integer> aborted = abortedSubs.getOrDefault(item.id(), Set.of());
        List<Record> changes = new ArrayList<>();
        int changeIndex = 0;
        for (Record record : wal.recordsOf(item)) {
            if (!(record.step() instanceof ChangeStep change) || record.stepIndex() >= untilStep) {
                continue;
            }
            if (changeIndex++ < fromChange) {
                continue;
            }
            boolean sent = change.op().isMessage() ? session.messages() : change.table().published;
            if (aborted.contains(change.sub()) || !sent) {
                continue;
            }
            changes.add(record);
        }
        return changes;
    }

    private int changeCount(Item item, int untilStep) {
        int count = 0;
        for (Record record : wal.recordsOf(item)) {
            if (record.step() instanceof ChangeStep && record.stepIndex() < untilStep) {
                count++;
            }
        }
        return count;
    }

    /** One S..E block with every change of {@code item} buffered so far (docs/pgoutput-protocol.md §6.3). Empty blocks happen (rule 7). */
    private void streamBlock(Item item, int untilStep) {
        StreamState state = streams.computeIfAbsent(item.id(), k -> new StreamState());
        List<Record> changes = pending(item, state.sentChanges, untilStep);
        Lsn first = changes.isEmpty() ? Lsn.INVALID : changes.get(0).start();
        send(new StreamStart(Xid.of(item.xid()), !state.streamed), first);
        if (!state.streamed && item.origin()) {
            send(new Origin(Lsn.INVALID, "upstream"), first); // docs/pgoutput-protocol.md §3.2: after the first S only, origin_lsn 0/0
        }
        insideBlock = true;
        Lsn last = first;
        for (Record change : changes) {
            ChangeStep step = (ChangeStep) change.step();
            if (!step.op().isMessage() && !Integer.valueOf(change.version()).equals(state.scopedSchema.get(step.table()))) {
                // Spec 6.3 rule 8: R inside a stream is sent once per streamed transaction, with the change's xid.
                send(SimulatedRows.relation(step.table(), change.version(), Xid.of(item.subXid(step.sub()))), Lsn.INVALID);
                state.scopedSchema.put(step.table(), change.version());
            }
            send(changeMessage(item, change, Xid.of(item.subXid(step.sub()))), change.wireLsn());
            state.subsWithSentChanges.add(step.sub());
            last = change.wireLsn();
        }
        insideBlock = false;
        send(new StreamStop(), last);
        state.streamed = true;
        state.sentChanges = changeCount(item, untilStep);
    }

    /** The last block (docs/pgoutput-protocol.md §6.3 rule 6), then c or p; stream-scoped relations become known at c only (rule 8). */
    private void finishStream(Item item, Record end, boolean prepare) {
        StreamState state = streams.get(item.id());
        if (!pending(item, state.sentChanges, Integer.MAX_VALUE).isEmpty()) {
            streamBlock(item, Integer.MAX_VALUE);
        }
        if (prepare) {
            send(new StreamPrepare(0, end.start(), end.end(), time(end), Xid.of(item.xid()), item.gid()), end.end());
        } else {
            send(new StreamCommit(Xid.of(item.xid()), 0, end.start(), end.end(), time(end)), end.end());
            sentSchema.putAll(state.scopedSchema);
        }
        streams.remove(item.id());
    }

    /** B, changes, C at the commit record (docs/pgoutput-protocol.md §6.1); nothing at all when no change is published. */
    private void whole(Item item, Record commit, Record at) {
        List<Record> changes = pending(item, 0, Integer.MAX_VALUE);
        if (changes.isEmpty()) {
            return; // PG15+: empty transactions are skipped (docs/pgoutput-protocol.md §6.1)
        }
        Lsn firstChange = changes.get(0).start();
        send(new Begin(commit.start(), time(commit), Xid.of(item.xid())), item.origin() ? Lsn.INVALID : firstChange);
        if (item.origin()) {
            send(new Origin(Lsn.of(0xABCDEF), "upstream"), firstChange);
        }
        changesOutsideBlock(item, changes);
        send(new Commit(0, commit.start(), commit.end(), time(commit)), at.end());
    }

    /** b, changes, P (docs/pgoutput-protocol.md §6.5): always sent, also when empty. */
    private void wholePrepared(Item item, Record prepare) {
        List<Record> changes = pending(item, 0, Integer.MAX_VALUE);
        send(new BeginPrepare(prepare.start(), prepare.end(), time(prepare), Xid.of(item.xid()), item.gid()),
                item.origin() || changes.isEmpty() ? Lsn.INVALID : changes.get(0).start());
        if (item.origin()) {
            send(new Origin(Lsn.of(0xABCDEF), "upstream"), Lsn.INVALID);
        }
        changesOutsideBlock(item, changes);
        send(new Prepare(0, prepare.start(), prepare.end(), time(prepare), Xid.of(item.xid()), item.gid()), prepare.end());
    }

    private void changesOutsideBlock(Item item, List<Record> changes) {
        for (Record change : changes) {
            ChangeStep step = (ChangeStep) change.step();
            if (!step.op().isMessage() && !Integer.valueOf(change.version()).equals(sentSchema.get(step.table()))) {
                send(SimulatedRows.relation(step.table(), change.version(), Xid.INVALID), Lsn.INVALID); // docs/pgoutput-protocol.md §6.9; header 0/0 (2.2)
                sentSchema.put(step.table(), change.version());
            }
            send(changeMessage(item, change, Xid.INVALID), change.wireLsn());
        }
    }

    private StreamAbort abort(Item item, long subXid, Record at) {
        boolean withInfo = session.settings().streamAbortCarriesAbortInfo(); // docs/pgoutput-protocol.md §3.1: proto 4 + parallel only
        return new StreamAbort(Xid.of(item.xid()), Xid.of(subXid), withInfo ? Optional.of(at.end()) : Optional.empty(),
                withInfo ? Optional.of(time(at)) : Optional.empty());
    }

    private PgOutputMessage changeMessage(Item item, Record change, Xid xid) {
        ChangeStep step = (ChangeStep) change.step();
        long oid = step.table().oid;
        if (step.table() == Table.SIG && step.op() == Op.INSERT) {
            SimulatedSignal signal = SimulatedSignal.of(step.row());
            return new Insert(xid, oid, SimulatedRows.signalRow(SimulatedSignal.id(change), signal));
        }
        return switch (step.op()) {
            case INSERT -> new Insert(xid, oid, SimulatedRows.row(step, change, item));
            case UPDATE -> new Update(xid, oid, Optional.empty(), SimulatedRows.row(step, change, item));
            case DELETE -> new Delete(xid, oid, new OldTuple(OldTuple.Kind.KEY, SimulatedRows.key(step, change)));
            case MESSAGE -> new LogicalMessage(xid, true, change.end(), "sim", Bytes.utf8("tx-" + item.id()));
            case SIGNAL -> new LogicalMessage(xid, true, change.end(), SimulatedSignal.MESSAGE_PREFIX,
                    Bytes.utf8(SimulatedSignal.of(step.row()).document()));
        };
    }

    private static Instant time(Record record) {
        return PgTimestamps.toInstant(800_000_000_000_000L + record.start().value());
    }

    private void send(PgOutputMessage message, Lsn headerLsn) {
        out.add(new FrameItem(SimulationFrames.frame(message, insideBlock, session.settings(), headerLsn), Character.toString(message.tag()),
                decoding));
    }
}

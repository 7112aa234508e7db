package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Small helpers shared by the live replication tests. */
final class LiveStreams {

    private LiveStreams() {
    }

    /** Settings for the test database as superuser, with a short status interval so feedback shows quickly. */
    static ReplicationSettings.Builder settings(PostgresDatabase db, String slot, String publication) {
        return ReplicationSettings.builder(db.host(), db.port(), db.name(), db.user(), slot, publication)
                .statusInterval(Duration.ofMillis(200));
    }

    /**
     * Reads frames until {@code done} holds for the frames read so far. Polls without blocking the server: sleeps a
     * little whenever nothing is buffered.
     *
     * @throws AssertionError naming the tags seen when {@code timeout} passes first
     */
    static List<WalFrame> readUntil(ReplicationSession session, Predicate<List<WalFrame>> done, Duration timeout) throws InterruptedException {
        List<WalFrame> frames = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(frames)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up after " + timeout + "; " + summary(frames));
            }
            WalFrame frame = session.readPending();
            if (frame == null) {
                Thread.sleep(5);
            } else {
                frames.add(frame);
            }
        }
        return frames;
    }

    /** Reads whatever arrives during {@code window} (to prove that nothing more comes). */
    static List<WalFrame> readFor(ReplicationSession session, Duration window) throws InterruptedException {
        List<WalFrame> frames = new ArrayList<>();
        long deadline = System.nanoTime() + window.toNanos();
        while (System.nanoTime() < deadline) {
            WalFrame frame = session.readPending();
            if (frame == null) {
                Thread.sleep(5);
            } else {
                frames.add(frame);
            }
        }
        return frames;
    }

    /**
     * True once {@code count} frames with one of the given tags have arrived. Stateful: it looks at each frame once, so
     * use a fresh one for each read.
     */
    static Predicate<List<WalFrame>> count(int count, String tags) {
        return new Predicate<>() {
            private int inspected;
            private int matched;

            @Override
            public boolean test(List<WalFrame> frames) {
                for (; inspected < frames.size(); inspected++) {
                    if (tags.indexOf(frames.get(inspected).tag()) >= 0) {
                        matched++;
                    }
                }
                return matched >= count;
            }
        };
    }

    /** A short description of what was read: the count of each tag and the last few tags. */
    static String summary(List<WalFrame> frames) {
        java.util.Map<Character, Integer> counts = new java.util.TreeMap<>();
        frames.forEach(f -> counts.merge(f.tag(), 1, Integer::sum));
        String all = tags(frames);
        return frames.size() + " frames " + counts + ", last tags: " + all.substring(Math.max(0, all.length() - 60));
    }

    /** The tags of the frames as one string, e.g. {@code "BIC"}. */
    static String tags(List<WalFrame> frames) {
        StringBuilder sb = new StringBuilder();
        frames.forEach(f -> sb.append(f.tag()));
        return sb.toString();
    }

    /** The end LSN of a Commit ({@code C}) frame: after the flags byte and commit_lsn (docs/pgoutput-protocol.md §3.1). */
    static Lsn commitEndLsn(WalFrame commit) {
        if (commit.tag() != 'C') {
            throw new IllegalArgumentException("not a Commit: " + commit.tag());
        }
        ByteBuffer p = commit.payload();
        return Lsn.of(p.getLong(p.position() + 1 + 1 + 8));
    }

    /** The final_lsn of a Begin ({@code B}) frame: the start of its commit record. */
    static Lsn beginFinalLsn(WalFrame begin) {
        if (begin.tag() != 'B') {
            throw new IllegalArgumentException("not a Begin: " + begin.tag());
        }
        ByteBuffer p = begin.payload();
        return Lsn.of(p.getLong(p.position() + 1));
    }

    static WalFrame last(List<WalFrame> frames, char tag) {
        for (int i = frames.size() - 1; i >= 0; i--) {
            if (frames.get(i).tag() == tag) {
                return frames.get(i);
            }
        }
        throw new AssertionError("no '" + tag + "' among " + tags(frames));
    }

    static Lsn confirmedFlush(PostgresDatabase db, String slot) {
        String text = db.queryValue("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
        return Lsn.parse(text);
    }

    static Lsn currentWal(PostgresDatabase db) {
        return Lsn.parse(db.queryValue("SELECT pg_current_wal_lsn()"));
    }

    /** Waits until the slot's confirmed_flush_lsn equals {@code expected}. */
    static void awaitConfirmedFlush(PostgresDatabase db, String slot, Lsn expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Lsn seen = confirmedFlush(db, slot);
        while (!seen.equals(expected)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("slot " + slot + " confirmed_flush_lsn is " + seen + ", expected " + expected);
            }
            Thread.sleep(20);
            seen = confirmedFlush(db, slot);
        }
    }

    /** Waits until no walsender holds the slot any more. */
    static void awaitSlotInactive(PostgresDatabase db, String slot) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ("t".equals(db.queryValue("SELECT active FROM pg_replication_slots WHERE slot_name = '" + slot + "'"))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("slot " + slot + " is still active");
            }
            Thread.sleep(20);
        }
    }
}

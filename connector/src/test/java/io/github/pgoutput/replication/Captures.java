package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
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
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.RollbackPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamAbort;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamCommit;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamStart;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamStop;
import io.github.pgoutput.pgoutput.PgOutputMessage.Truncate;
import io.github.pgoutput.pgoutput.PgOutputMessage.Type;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.testing.PostgresDatabase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Live captures for the tests: every frame read is decoded (so each capture also proves the decoder reads real
 * server output), rendered as a readable token, and optionally written as hex next to the SQL that made it.
 *
 * <p>Tokens leave out what changes from run to run (LSNs, timestamps, OIDs) and name xids by order of appearance
 * ({@code x1}, {@code x2}, ...), so that expected sequences can be written down. Changes inside a stream block carry
 * their (sub)transaction xid as {@code @xN}.
 */
final class Captures {

    /** Set {@code -Dcapture.dir=...} (through failsafe's argLine) to write each capture there as hex. */
    static final String CAPTURE_DIR_PROPERTY = "capture.dir";

    record Captured(WalFrame frame, PgOutputMessage message) {
    }

    private final PgOutputDecoder decoder;
    private final List<Captured> captured = new ArrayList<>();
    private final Map<Long, String> xidNames = new HashMap<>();
    private final Map<Long, String> relationNames = new HashMap<>();
    private final Map<Character, Integer> tagCounts = new HashMap<>();

    Captures(ReplicationSession session) {
        this.decoder = new PgOutputDecoder(session.protocol().decoderSettings());
    }

    /** Decodes and keeps each frame; returns the frames (for {@link LiveStreams} predicates). */
    List<Captured> add(List<WalFrame> frames) {
        List<Captured> added = new ArrayList<>();
        for (WalFrame frame : frames) {
            ByteBuffer copy = ByteBuffer.allocate(frame.payload().remaining()).put(frame.payload().duplicate()).flip();
            PgOutputMessage message = decoder.decode(frame.payload(), frame.headerLsn());
            Captured c = new Captured(new WalFrame(copy, frame.headerLsn()), message);
            captured.add(c);
            added.add(c);
            tagCounts.merge(message.tag(), 1, Integer::sum);
            if (message instanceof Relation r) {
                relationNames.put(r.relationId(), r.relationName());
            }
        }
        return added;
    }

    /** How many messages with this tag were captured so far. */
    int count(char tag) {
        return tagCounts.getOrDefault(tag, 0);
    }

    /**
     * Reads, decodes and keeps frames until {@code done} holds.
     *
     * @throws AssertionError with the tokens so far when {@code timeout} passes first
     */
    void readUntil(ReplicationSession session, java.util.function.Predicate<Captures> done, java.time.Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(this)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up after " + timeout + "; shape so far: " + shape());
            }
            WalFrame frame = session.readPending();
            if (frame == null) {
                Thread.sleep(5);
            } else {
                add(List.of(frame));
            }
        }
    }

    /** Reads for a while to prove nothing more arrives; returns what did. */
    List<Captured> readFor(ReplicationSession session, java.time.Duration window) throws InterruptedException {
        int before = captured.size();
        add(LiveStreams.readFor(session, window));
        return List.copyOf(captured.subList(before, captured.size()));
    }

    /** Number of captured messages with this tag whose stream xid token is {@code xidName}. */
    long countAt(String tokenPrefix) {
        return tokens().stream().filter(t -> t.startsWith(tokenPrefix)).count();
    }

    List<Captured> all() {
        return List.copyOf(captured);
    }

    List<PgOutputMessage> messages() {
        return captured.stream().map(Captured::message).toList();
    }

    /** One token per message, in order. */
    List<String> tokens() {
        List<String> tokens = new ArrayList<>();
        for (Captured c : captured) {
            tokens.add(token(c.message()));
        }
        return tokens;
    }

    /**
     * The tokens with stream block boundaries that only continue the same transaction left out (E, and an S for the
     * same xid as the S before it) and runs of equal tokens folded into one with a trailing {@code +}. What remains does
     * not depend on where the server cut blocks, which varies with memory accounting.
     */
    List<String> shape() {
        List<String> out = new ArrayList<>();
        String lastStreamXid = null;
        for (String token : tokens()) {
            if (token.equals("E")) {
                continue;
            }
            if (token.startsWith("S ")) {
                String xid = token.split(" ")[1];
                if (xid.equals(lastStreamXid) && !token.endsWith("first")) {
                    continue;
                }
                lastStreamXid = xid;
            } else if (!token.contains("@")) {
                lastStreamXid = token.startsWith("A ") ? lastStreamXid : null;
            }
            if (!out.isEmpty() && (out.get(out.size() - 1).equals(token) || out.get(out.size() - 1).equals(token + " +"))) {
                out.set(out.size() - 1, token + " +");
            } else {
                out.add(token);
            }
        }
        return out;
    }

    private String token(PgOutputMessage message) {
        if (message instanceof Begin) {
            return "B";
        } else if (message instanceof Commit) {
            return "C";
        } else if (message instanceof Origin o) {
            return "O " + o.name();
        } else if (message instanceof Relation r) {
            return "R" + at(r.xid()) + " " + r.namespace() + "." + r.relationName() + " " + r.replicaIdentity() + " "
                    + r.columns().stream().map(col -> col.name() + (col.partOfKey() ? "*" : "")).collect(Collectors.joining(","));
        } else if (message instanceof Type y) {
            return "Y" + at(y.xid()) + " " + y.namespace() + "." + y.typeName();
        } else if (message instanceof Insert i) {
            // Rows of tables named big_* (the bulk of streamed transactions) are left out, so that their runs fold.
            String table = rel(i.relationId());
            return "I" + at(i.xid()) + " " + table + (table.startsWith("big_") ? "" : " N" + tuple(i.newTuple()));
        } else if (message instanceof Update u) {
            return "U" + at(u.xid()) + " " + rel(u.relationId()) + u.oldTuple().map(o -> " " + oldKind(o) + tuple(o.tuple())).orElse("")
                    + " N" + tuple(u.newTuple());
        } else if (message instanceof Delete d) {
            return "D" + at(d.xid()) + " " + rel(d.relationId()) + " " + oldKind(d.oldTuple()) + tuple(d.oldTuple().tuple());
        } else if (message instanceof Truncate t) {
            return "T" + at(t.xid()) + " " + t.relationIds().stream().map(this::rel).collect(Collectors.joining(",")) + " options=" + t.options();
        } else if (message instanceof LogicalMessage m) {
            return "M" + at(m.xid()) + " " + (m.transactional() ? "tx" : "ntx") + " " + m.prefix() + " " + m.content().toUtf8();
        } else if (message instanceof StreamStart s) {
            return "S " + name(s.xid()) + (s.firstSegment() ? " first" : "");
        } else if (message instanceof StreamStop) {
            return "E";
        } else if (message instanceof StreamCommit c) {
            return "c " + name(c.xid());
        } else if (message instanceof StreamAbort a) {
            return "A " + name(a.xid()) + " " + name(a.subXid()) + (a.abortLsn().isPresent() ? " with-abort-lsn" : "");
        } else if (message instanceof BeginPrepare b) {
            return "b " + b.gid();
        } else if (message instanceof Prepare p) {
            return "P " + p.gid();
        } else if (message instanceof CommitPrepared k) {
            return "K " + k.gid();
        } else if (message instanceof RollbackPrepared r) {
            return "r " + r.gid();
        } else if (message instanceof StreamPrepare p) {
            return "p " + name(p.xid()) + " " + p.gid();
        }
        throw new AssertionError("no token for " + message);
    }

    private static String oldKind(OldTuple old) {
        return old.kind() == OldTuple.Kind.KEY ? "K" : "O";
    }

    private String at(Xid xid) {
        return xid.isValid() ? "@" + name(xid) : "";
    }

    private String name(Xid xid) {
        return xidNames.computeIfAbsent(xid.value(), v -> "x" + (xidNames.size() + 1));
    }

    private String rel(long relationId) {
        return relationNames.getOrDefault(relationId, "?" + relationId);
    }

    private static String tuple(TupleData tuple) {
        return tuple.columns().stream().map(Captures::value).collect(Collectors.joining(",", "(", ")"));
    }

    private static String value(ColumnValue value) {
        if (value instanceof ColumnValue.Text t) {
            String text = t.asString();
            return text.length() > 20 ? "t:" + text.substring(0, 8) + "…" + text.length() : "t:" + text;
        } else if (value instanceof ColumnValue.Binary b) {
            return "b:" + (b.value().length() > 8 ? b.value().toString().substring(0, 16) + "…" + b.value().length() : b.value());
        }
        return value instanceof ColumnValue.UnchangedToast ? "u" : "n";
    }

    /**
     * Writes the capture as {@code pg<major>/<scenario>.hex} under {@code -Dcapture.dir}, in the decoder tests' format
     * ({@code <name> <wal position> <payload hex>}), with the SQL and the server version as comments. Does nothing
     * when the property is not set.
     */
    void writeIfAsked(PostgresDatabase db, ReplicationSession session, String scenario, String sql) {
        String dir = System.getProperty(CAPTURE_DIR_PROPERTY);
        if (dir == null || dir.isBlank()) {
            return;
        }
        StringBuilder out = new StringBuilder();
        out.append("# Captured live by ").append(CaptureScenariosIT.class.getSimpleName()).append(" (").append(scenario).append(")\n");
        out.append("# PostgreSQL ").append(db.queryValue("SHOW server_version")).append(", server_encoding UTF8, pgjdbc replication stream\n");
        out.append("# START_REPLICATION options: ").append(session.protocol()).append('\n');
        out.append("# Second column: the 'w' frame header LSN (0/0 for Relation/Type; not a progress position).\n");
        out.append("# SQL:\n");
        sql.lines().forEach(line -> out.append("#   ").append(line).append('\n'));
        out.append('\n');
        int i = 0;
        for (Captured c : captured) {
            ByteBuffer p = c.frame().payload();
            byte[] bytes = new byte[p.remaining()];
            p.duplicate().get(bytes);
            out.append(String.format("%04d-%c", ++i, c.message().tag())).append(' ').append(c.frame().headerLsn()).append(' ')
                    .append(HexFormat.of().formatHex(bytes)).append('\n');
        }
        try {
            Path file = Path.of(dir, "pg" + db.majorVersion(), scenario + ".hex");
            Files.createDirectories(file.getParent());
            Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Lsn endLsnOfLast(List<Captured> captured) {
        for (int i = captured.size() - 1; i >= 0; i--) {
            if (captured.get(i).message() instanceof Commit c) {
                return c.endLsn();
            }
        }
        throw new AssertionError("no Commit captured");
    }
}

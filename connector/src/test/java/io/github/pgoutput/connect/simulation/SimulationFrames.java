package io.github.pgoutput.connect.simulation;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

import io.github.pgoutput.pgoutput.ColumnValue;
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
import io.github.pgoutput.pgoutput.PgTimestamps;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.WalFrame;

/**
 * Writes pgoutput messages as the bytes PostgreSQL sends (docs/pgoutput-protocol.md §3.1 layouts), so that the simulation's task
 * reads them through the real {@code PgOutputDecoder} and nothing between the wire and the task is mocked.
 *
 * <p>Why a hand-written encoder and not captured frames: the simulation invents its WAL history per seed, so its
 * frames must be produced on demand. The xid prefix of R/Y/I/U/D/T/M is written exactly when the message is inside a
 * stream block (docs/pgoutput-protocol.md §3.1 "xid?"); Stream Abort gets abort_lsn/abort_ts exactly with protocol 4 and streaming
 * parallel. Stateless and thread-safe.
 */
public final class SimulationFrames {

    /** pgjdbc hands the payload out as a slice after the 25-byte XLogData header (docs/pgoutput-protocol.md §8.3); so do we. */
    private static final int XLOGDATA_HEADER_BYTES = 25;

    private SimulationFrames() {
    }

    /** The frame of {@code message}: a payload slice with a non-zero array offset, as pgjdbc gives it. */
    public static WalFrame frame(PgOutputMessage message, boolean insideStreamBlock, DecoderSettings settings, Lsn headerLsn) {
        byte[] payload = encode(message, insideStreamBlock, settings);
        byte[] copyData = new byte[XLOGDATA_HEADER_BYTES + payload.length];
        copyData[0] = 'w';
        System.arraycopy(payload, 0, copyData, XLOGDATA_HEADER_BYTES, payload.length);
        ByteBuffer slice = ByteBuffer.wrap(copyData, XLOGDATA_HEADER_BYTES, payload.length).slice();
        return new WalFrame(slice, headerLsn);
    }

    /** The pgoutput payload of {@code message}, type byte first. */
    static byte[] encode(PgOutputMessage message, boolean insideStreamBlock, DecoderSettings settings) {
        Out out = new Out();
        out.int8(message.tag());
        if (insideStreamBlock && message instanceof PgOutputMessage.StreamScoped scoped) {
            out.xid(scoped.xid());
        }
        // Java 17: an instanceof chain over the sealed interface.
        if (message instanceof Begin m) {
            out.lsn(m.finalLsn()).time(m.commitTime()).xid(m.xid());
        } else if (message instanceof Commit m) {
            out.int8(m.flags()).lsn(m.commitLsn()).lsn(m.endLsn()).time(m.commitTime());
        } else if (message instanceof Origin m) {
            out.lsn(m.originLsn()).string(m.name());
        } else if (message instanceof Relation m) {
            out.int32((int) m.relationId()).string(m.namespace()).string(m.relationName()).int8(m.replicaIdentity().code());
            out.int16(m.columns().size());
            for (RelationColumn column : m.columns()) {
                out.int8(column.partOfKey() ? 1 : 0).string(column.name()).int32((int) column.typeOid()).int32(column.typeModifier());
            }
        } else if (message instanceof Type m) {
            out.int32((int) m.typeOid()).string(m.namespace()).string(m.typeName());
        } else if (message instanceof Insert m) {
            out.int32((int) m.relationId()).int8('N').tuple(m.newTuple());
        } else if (message instanceof Update m) {
            out.int32((int) m.relationId());
            m.oldTuple().ifPresent(old -> out.int8(old.kind() == OldTuple.Kind.KEY ? 'K' : 'O').tuple(old.tuple()));
            out.int8('N').tuple(m.newTuple());
        } else if (message instanceof Delete m) {
            out.int32((int) m.relationId()).int8(m.oldTuple().kind() == OldTuple.Kind.KEY ? 'K' : 'O').tuple(m.oldTuple().tuple());
        } else if (message instanceof Truncate m) {
            out.int32(m.relationIds().size()).int8(m.options());
            m.relationIds().forEach(id -> out.int32(id.intValue()));
        } else if (message instanceof LogicalMessage m) {
            out.int8(m.transactional() ? 1 : 0).lsn(m.lsn()).string(m.prefix()).int32(m.content().length()).bytes(m.content().toByteArray());
        } else if (message instanceof StreamStart m) {
            out.xid(m.xid()).int8(m.firstSegment() ? 1 : 0);
        } else if (message instanceof StreamStop) {
            // no body
        } else if (message instanceof StreamCommit m) {
            out.xid(m.xid()).int8(m.flags()).lsn(m.commitLsn()).lsn(m.endLsn()).time(m.commitTime());
        } else if (message instanceof StreamAbort m) {
            out.xid(m.xid()).xid(m.subXid());
            if (settings.streamAbortCarriesAbortInfo()) {
                // Spec 3.1: present only with protocol 4 AND streaming=parallel; a message built without them gets 0/0.
                out.lsn(m.abortLsn().orElse(Lsn.INVALID)).time(m.abortTime().orElse(PgTimestamps.toInstant(0)));
            }
        } else if (message instanceof BeginPrepare m) {
            out.lsn(m.prepareLsn()).lsn(m.endLsn()).time(m.prepareTime()).xid(m.xid()).string(m.gid());
        } else if (message instanceof Prepare m) {
            out.int8(m.flags()).lsn(m.prepareLsn()).lsn(m.endLsn()).time(m.prepareTime()).xid(m.xid()).string(m.gid());
        } else if (message instanceof CommitPrepared m) {
            out.int8(m.flags()).lsn(m.commitLsn()).lsn(m.endLsn()).time(m.commitTime()).xid(m.xid()).string(m.gid());
        } else if (message instanceof RollbackPrepared m) {
            out.int8(m.flags()).lsn(m.prepareEndLsn()).lsn(m.rollbackEndLsn()).time(m.prepareTime()).time(m.rollbackTime())
                    .xid(m.xid()).string(m.gid());
        } else if (message instanceof StreamPrepare m) {
            out.int8(m.flags()).lsn(m.prepareLsn()).lsn(m.endLsn()).time(m.prepareTime()).xid(m.xid()).string(m.gid());
        } else {
            throw new IllegalArgumentException("no encoding for " + message);
        }
        return out.toByteArray();
    }

    /** Big-endian writer of the wire primitives (docs/pgoutput-protocol.md, "Wire conventions" in §0). */
    private static final class Out {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Out int8(int value) {
            bytes.write(value);
            return this;
        }

        Out int16(int value) {
            return int8(value >>> 8).int8(value);
        }

        Out int32(int value) {
            return int16(value >>> 16).int16(value);
        }

        Out int64(long value) {
            return int32((int) (value >>> 32)).int32((int) value);
        }

        Out lsn(Lsn lsn) {
            return int64(lsn.value());
        }

        Out xid(Xid xid) {
            return int32((int) xid.value());
        }

        Out time(Instant time) {
            return int64(PgTimestamps.toPostgresMicros(time));
        }

        Out string(String text) {
            bytes.writeBytes(text.getBytes(StandardCharsets.UTF_8));
            return int8(0);
        }

        Out bytes(byte[] raw) {
            bytes.writeBytes(raw);
            return this;
        }

        Out tuple(TupleData tuple) {
            int16(tuple.size());
            for (ColumnValue value : tuple.columns()) {
                if (value instanceof ColumnValue.Null) {
                    int8('n');
                } else if (value instanceof ColumnValue.UnchangedToast) {
                    int8('u');
                } else if (value instanceof ColumnValue.Text text) {
                    int8('t').int32(text.value().length()).bytes(text.value().toByteArray());
                } else if (value instanceof ColumnValue.Binary binary) {
                    int8('b').int32(binary.value().length()).bytes(binary.value().toByteArray());
                }
            }
            return this;
        }

        byte[] toByteArray() {
            return bytes.toByteArray();
        }
    }
}

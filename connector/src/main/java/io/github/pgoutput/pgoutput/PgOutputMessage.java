package io.github.pgoutput.pgoutput;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One pgoutput logical replication message, as decoded from the payload of one XLogData frame.
 *
 * <p>Names and fields follow PostgreSQL's "Logical Replication Message Formats" page. Every record is
 * immutable. LSN and xid fields are value types; timestamps are {@link Instant}s with microsecond
 * precision. Messages that PostgreSQL prefixes with an xid when they are sent inside a stream block
 * implement {@link StreamScoped}; outside a stream block their {@code xid} is {@link Xid#INVALID}.
 */
public sealed interface PgOutputMessage {

    /** The one-byte tag that introduces this message on the wire. */
    char tag();

    /**
     * A message that may travel inside a stream block, where it carries the xid of the
     * (sub)transaction that made it.
     */
    sealed interface StreamScoped extends PgOutputMessage {
        /** The (sub)transaction xid from the stream-block prefix, or {@link Xid#INVALID} outside a stream block. */
        Xid xid();
    }

    /** A row-level change of a table: Insert, Update, Delete or Truncate. */
    sealed interface Change extends StreamScoped {
    }

    /**
     * A message of a prepared transaction (two-phase commit): Begin Prepare, Prepare, Stream Prepare, Commit Prepared or
     * Rollback Prepared. PostgreSQL sends these only when the slot decodes prepared transactions at PREPARE time.
     */
    sealed interface TwoPhase extends PgOutputMessage {
        /** The xid of the prepared transaction. */
        Xid xid();

        /** The global transaction id given to PREPARE TRANSACTION. */
        String gid();
    }

    /** {@code B}: start of a non-streamed transaction. {@code finalLsn} is the start of its commit record. */
    record Begin(Lsn finalLsn, Instant commitTime, Xid xid) implements PgOutputMessage {
        @Override
        public char tag() {
            return 'B';
        }
    }

    /** {@code C}: end of a non-streamed transaction. {@code endLsn} is the progress point to confirm. */
    record Commit(int flags, Lsn commitLsn, Lsn endLsn, Instant commitTime) implements PgOutputMessage {
        @Override
        public char tag() {
            return 'C';
        }
    }

    /** {@code O}: the replication origin the current transaction came from. {@code originLsn} is the origin server's. */
    record Origin(Lsn originLsn, String name) implements PgOutputMessage {
        @Override
        public char tag() {
            return 'O';
        }
    }

    /** {@code R}: the definition of a published relation, sent before its first change and after every change of it. */
    record Relation(Xid xid, long relationId, String namespace, String relationName, ReplicaIdentity replicaIdentity,
                    List<RelationColumn> columns) implements StreamScoped {
        public Relation {
            columns = List.copyOf(columns);
        }

        @Override
        public char tag() {
            return 'R';
        }
    }

    /** {@code Y}: a non-built-in data type referenced by a following Relation. */
    record Type(Xid xid, long typeOid, String namespace, String typeName) implements StreamScoped {
        @Override
        public char tag() {
            return 'Y';
        }
    }

    /** {@code I}: a new row. */
    record Insert(Xid xid, long relationId, TupleData newTuple) implements Change {
        @Override
        public char tag() {
            return 'I';
        }
    }

    /**
     * {@code U}: a changed row. {@code oldTuple} is present with REPLICA IDENTITY FULL (kind {@code FULL})
     * or when key columns changed (kind {@code KEY}); otherwise it is empty.
     */
    record Update(Xid xid, long relationId, Optional<OldTuple> oldTuple, TupleData newTuple) implements Change {
        public Update {
            Objects.requireNonNull(oldTuple, "oldTuple");
        }

        @Override
        public char tag() {
            return 'U';
        }
    }

    /** {@code D}: a deleted row, identified by its key ({@code KEY}) or its whole old row ({@code FULL}). */
    record Delete(Xid xid, long relationId, OldTuple oldTuple) implements Change {
        @Override
        public char tag() {
            return 'D';
        }
    }

    /** {@code T}: one TRUNCATE statement over one or more relations. */
    record Truncate(Xid xid, int options, List<Long> relationIds) implements Change {
        public static final int CASCADE = 1;
        public static final int RESTART_IDENTITY = 2;

        public Truncate {
            relationIds = List.copyOf(relationIds);
        }

        public boolean cascade() {
            return (options & CASCADE) != 0;
        }

        public boolean restartIdentity() {
            return (options & RESTART_IDENTITY) != 0;
        }

        @Override
        public char tag() {
            return 'T';
        }
    }

    /**
     * {@code M}: a logical decoding message from {@code pg_logical_emit_message}. {@code lsn} is the end of its
     * WAL record. Non-transactional messages arrive outside any transaction, as soon as they are decoded.
     */
    record LogicalMessage(Xid xid, boolean transactional, Lsn lsn, String prefix, Bytes content) implements StreamScoped {
        @Override
        public char tag() {
            return 'M';
        }
    }

    /** {@code S}: start of a block of changes of the in-progress top-level transaction {@code xid}. */
    record StreamStart(Xid xid, boolean firstSegment) implements PgOutputMessage {
        @Override
        public char tag() {
            return 'S';
        }
    }

    /** {@code E}: end of the current stream block. */
    record StreamStop() implements PgOutputMessage {
        @Override
        public char tag() {
            return 'E';
        }
    }

    /** {@code c}: a streamed transaction committed. {@code endLsn} is the progress point to confirm. */
    record StreamCommit(Xid xid, int flags, Lsn commitLsn, Lsn endLsn, Instant commitTime) implements PgOutputMessage {
        @Override
        public char tag() {
            return 'c';
        }
    }

    /**
     * {@code A}: a streamed (sub)transaction aborted. {@code subXid == xid} means the whole transaction.
     * {@code abortLsn}/{@code abortTime} are present only with protocol 4 and {@code streaming = parallel}.
     */
    record StreamAbort(Xid xid, Xid subXid, Optional<Lsn> abortLsn, Optional<Instant> abortTime) implements PgOutputMessage {
        public StreamAbort {
            Objects.requireNonNull(abortLsn, "abortLsn");
            Objects.requireNonNull(abortTime, "abortTime");
        }

        public boolean abortsWholeTransaction() {
            return xid.equals(subXid);
        }

        @Override
        public char tag() {
            return 'A';
        }
    }

    /** {@code b}: start of a prepared transaction decoded at PREPARE time. */
    record BeginPrepare(Lsn prepareLsn, Lsn endLsn, Instant prepareTime, Xid xid, String gid) implements TwoPhase {
        @Override
        public char tag() {
            return 'b';
        }
    }

    /** {@code P}: end of a prepared transaction. {@code endLsn} is the progress point to confirm. */
    record Prepare(int flags, Lsn prepareLsn, Lsn endLsn, Instant prepareTime, Xid xid, String gid) implements TwoPhase {
        @Override
        public char tag() {
            return 'P';
        }
    }

    /** {@code K}: COMMIT PREPARED. May name a GID this client never saw prepared. */
    record CommitPrepared(int flags, Lsn commitLsn, Lsn endLsn, Instant commitTime, Xid xid, String gid) implements TwoPhase {
        @Override
        public char tag() {
            return 'K';
        }
    }

    /**
     * {@code r}: ROLLBACK PREPARED. {@code prepareEndLsn}/{@code prepareTime} identify which PREPARE is rolled back
     * (a GID can be reused); {@code rollbackEndLsn} is the progress point to confirm.
     */
    record RollbackPrepared(int flags, Lsn prepareEndLsn, Lsn rollbackEndLsn, Instant prepareTime, Instant rollbackTime,
                            Xid xid, String gid) implements TwoPhase {
        @Override
        public char tag() {
            return 'r';
        }
    }

    /** {@code p}: a streamed transaction was prepared; stands in for Begin Prepare … Prepare. */
    record StreamPrepare(int flags, Lsn prepareLsn, Lsn endLsn, Instant prepareTime, Xid xid, String gid) implements TwoPhase {
        @Override
        public char tag() {
            return 'p';
        }
    }
}

package io.github.pgoutput.connect;

import java.util.Objects;

import org.apache.kafka.connect.header.Headers;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;

/**
 * The one class that knows the names of the Kafka record headers this connector writes. The names are persisted
 * (consumers filter on them): never rename them.
 *
 * <table>
 *   <caption>Headers</caption>
 *   <tr><th>Header</th><th>Type</th><th>Meaning</th></tr>
 *   <tr><td>{@code pg.xid}</td><td>int64</td><td>transaction id (unsigned 32-bit)</td></tr>
 *   <tr><td>{@code pg.lsn}</td><td>string X/Y</td><td>LSN of the change's WAL record; for a snapshot record, the
 *       slot's consistent point</td></tr>
 *   <tr><td>{@code pg.commit_lsn}</td><td>string X/Y</td><td>end LSN of the delivery: where the record that completed
 *       it ends (the COMMIT, the PREPARE for PREPARED, the COMMIT PREPARED or the ROLLBACK PREPARED), the position
 *       the slot is confirmed to once the delivery is durable</td></tr>
 *   <tr><td>{@code pg.outcome}</td><td>string</td><td>{@link Outcome}: COMMITTED, PREPARED or ROLLED_BACK</td></tr>
 *   <tr><td>{@code pg.two_phase}</td><td>boolean</td><td>whether the transaction was prepared (PREPARE
 *       TRANSACTION)</td></tr>
 *   <tr><td>{@code pg.tx_order}</td><td>int64</td><td>1-based position of the record in its delivery; the same
 *       number as the source offset's {@code tx_order}</td></tr>
 *   <tr><td>{@code pg.gid}</td><td>string</td><td>global id of a two-phase transaction; absent otherwise</td></tr>
 *   <tr><td>{@code pg.snapshot}</td><td>boolean</td><td>true for records read by the snapshot; absent for streamed
 *       records</td></tr>
 * </table>
 *
 * <p>Stateless and thread-safe.
 */
public final class LifecycleHeaders {

    public static final String XID = "pg.xid";
    public static final String LSN = "pg.lsn";
    public static final String COMMIT_LSN = "pg.commit_lsn";
    public static final String OUTCOME = "pg.outcome";
    public static final String TWO_PHASE = "pg.two_phase";
    public static final String TX_ORDER = "pg.tx_order";
    public static final String GID = "pg.gid";
    public static final String SNAPSHOT = "pg.snapshot";

    private LifecycleHeaders() {
    }

    /** The value of {@code pg.outcome}: what had happened to the transaction when the delivery was emitted. */
    public enum Outcome {
        /** Committed (a plain COMMIT, or COMMIT PREPARED when {@code pg.two_phase} is true). */
        COMMITTED,
        /** Prepared with PREPARE TRANSACTION; COMMITTED or ROLLED_BACK follows later. */
        PREPARED,
        /** A prepared transaction undone with ROLLBACK PREPARED. */
        ROLLED_BACK
    }

    /**
     * The headers of one record of a streamed transaction.
     *
     * @param xid       the transaction's id
     * @param lsn       LSN of the change's WAL record
     * @param commitLsn end LSN of the delivery (of the record that completed it)
     * @param outcome   what the delivery reports
     * @param twoPhase  whether the transaction was prepared
     * @param txOrder   1-based position of the record in its delivery
     * @param gid       the global transaction id; non-null exactly when {@code twoPhase}
     */
    public record Change(Xid xid, Lsn lsn, Lsn commitLsn, Outcome outcome, boolean twoPhase, long txOrder,
            String gid) {

        public Change {
            Objects.requireNonNull(xid, "xid");
            Objects.requireNonNull(lsn, "lsn");
            Objects.requireNonNull(commitLsn, "commitLsn");
            Objects.requireNonNull(outcome, "outcome");
            if (txOrder < 1) {
                throw new IllegalArgumentException("txOrder is 1-based, was " + txOrder);
            }
            if (twoPhase != (gid != null)) {
                throw new IllegalArgumentException("a gid is given exactly for two-phase transactions (twoPhase="
                        + twoPhase + ", gid=" + gid + ")");
            }
            if (!twoPhase && outcome != Outcome.COMMITTED) {
                throw new IllegalArgumentException(outcome + " exists only for two-phase transactions");
            }
        }
    }

    /** Adds the headers of a streamed change record to {@code headers}. */
    public static Headers addChange(Headers headers, Change change) {
        headers.addLong(XID, change.xid().value());
        headers.addString(LSN, change.lsn().toString());
        headers.addString(COMMIT_LSN, change.commitLsn().toString());
        headers.addString(OUTCOME, change.outcome().name());
        headers.addBoolean(TWO_PHASE, change.twoPhase());
        headers.addLong(TX_ORDER, change.txOrder());
        if (change.gid() != null) {
            headers.addString(GID, change.gid());
        }
        return headers;
    }

    /** Adds the headers of a snapshot record: {@code pg.snapshot=true} and the consistent point as {@code pg.lsn}. */
    public static Headers addSnapshot(Headers headers, Lsn consistentPoint) {
        headers.addBoolean(SNAPSHOT, true);
        headers.addString(LSN, Objects.requireNonNull(consistentPoint, "consistentPoint").toString());
        return headers;
    }
}

package io.github.pgoutput.connect.record;

import java.util.List;
import java.util.Objects;
import java.util.UUID;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.header.Headers;

import io.github.pgoutput.assembly.Delivery;
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
 *   <tr><td>{@code pg.outcome}</td><td>string</td><td>the delivery's {@link Delivery.Kind}: COMMITTED, PREPARED or
 *       ROLLED_BACK (see {@link #outcome})</td></tr>
 *   <tr><td>{@code pg.two_phase}</td><td>boolean</td><td>whether the transaction was prepared (PREPARE
 *       TRANSACTION)</td></tr>
 *   <tr><td>{@code pg.tx_order}</td><td>int64</td><td>1-based position of the record in its delivery; the same
 *       number as the source offset's {@code tx_order}</td></tr>
 *   <tr><td>{@code pg.gid}</td><td>string</td><td>global id of a two-phase transaction; absent otherwise</td></tr>
 *   <tr><td>{@code pg.snapshot}</td><td>boolean</td><td>true for records read by the snapshot; absent for streamed
 *       records</td></tr>
 * </table>
 *
 * <p>Debezium's headers, with Debezium's names and values:
 * <table>
 *   <caption>Debezium headers</caption>
 *   <tr><th>Header</th><th>Type</th><th>Meaning</th></tr>
 *   <tr><td>{@code __debezium.oldkey}</td><td>the table's key struct</td><td>on the create record of a key-changing
 *       update: the row's old key</td></tr>
 *   <tr><td>{@code __debezium.newkey}</td><td>the table's key struct</td><td>on the delete record (and its tombstone)
 *       of a key-changing update: the row's new key</td></tr>
 *   <tr><td>{@code __debezium.context.connectorLogicalName}</td><td>string</td><td>{@code topic.prefix}; with
 *       {@code extended.headers.enabled}, on every data change and snapshot record, as the three below</td></tr>
 *   <tr><td>{@code __debezium.context.taskId}</td><td>string</td><td>the task's number ({@code 0}: there is one
 *       task)</td></tr>
 *   <tr><td>{@code __debezium.context.connectorName}</td><td>string</td><td>{@code postgresql}, the name Debezium's
 *       PostgreSQL connector gives</td></tr>
 *   <tr><td>{@code __debezium.context.runId}</td><td>string UUID</td><td>new each time a task starts</td></tr>
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
    /**
     * On a change record whose unchanged TOAST values could not all be proven ({@code unchanged.toast.resolution}):
     * the columns left as the placeholder, comma-separated.
     */
    public static final String TOAST_UNRESOLVED = "pg.toast.unresolved";
    public static final String OLD_KEY = "__debezium.oldkey";
    public static final String NEW_KEY = "__debezium.newkey";
    public static final String CONTEXT_LOGICAL_NAME = "__debezium.context.connectorLogicalName";
    public static final String CONTEXT_TASK_ID = "__debezium.context.taskId";
    public static final String CONTEXT_CONNECTOR_NAME = "__debezium.context.connectorName";
    public static final String CONTEXT_RUN_ID = "__debezium.context.runId";
    /** The {@code connectorName} Debezium's PostgreSQL connector writes. */
    static final String CONNECTOR_NAME = "postgresql";

    private LifecycleHeaders() {
    }

    /**
     * The value of {@code pg.outcome} (and of the transaction topic's {@code outcome}) for a delivery of {@code kind}:
     * what had happened to the transaction when the delivery was emitted. Persisted: spelled out here so that renaming
     * a constant cannot change what consumers read.
     */
    public static String outcome(Delivery.Kind kind) {
        return switch (kind) {
            case COMMITTED -> "COMMITTED";
            case PREPARED -> "PREPARED";
            case ROLLED_BACK -> "ROLLED_BACK";
        };
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
    public record Change(Xid xid, Lsn lsn, Lsn commitLsn, Delivery.Kind outcome, boolean twoPhase, long txOrder,
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
            requireOutcomeFits(outcome, twoPhase);
        }
    }

    private static void requireOutcomeFits(Delivery.Kind outcome, boolean twoPhase) {
        if (!twoPhase && outcome != Delivery.Kind.COMMITTED) {
            throw new IllegalArgumentException(outcome + " exists only for two-phase transactions");
        }
    }

    /** Adds the headers of a streamed change record to {@code headers}. */
    public static Headers addChange(Headers headers, Change change) {
        return ofDelivery(change.xid(), change.commitLsn(), change.outcome(), change.gid())
                .addTo(headers, change.lsn(), change.txOrder());
    }

    /**
     * The headers of the records of one delivery: those that are the same for all of them ({@code pg.xid},
     * {@code pg.commit_lsn}, {@code pg.outcome}, {@code pg.two_phase}, {@code pg.gid}) made once.
     *
     * @param gid the global transaction id of a two-phase transaction; null otherwise
     */
    public static DeliveryHeaders ofDelivery(Xid xid, Lsn commitLsn, Delivery.Kind outcome, String gid) {
        Objects.requireNonNull(commitLsn, "commitLsn");
        requireOutcomeFits(Objects.requireNonNull(outcome, "outcome"), gid != null);
        Headers built = new ConnectHeaders()
                .addLong(XID, xid.value())
                .addString(COMMIT_LSN, commitLsn.toString())
                .addString(OUTCOME, outcome(outcome))
                .addBoolean(TWO_PHASE, gid != null);
        if (gid != null) {
            built.addString(GID, gid);
        }
        Header[] headers = new Header[5];
        int i = 0;
        for (Header header : built) {
            headers[i++] = header;
        }
        return new DeliveryHeaders(headers[0], headers[1], headers[2], headers[3], headers[4]);
    }

    /**
     * The headers the records of one delivery share (a header is immutable: the same objects go on every record), and
     * how each record adds them with its own {@code pg.lsn} and {@code pg.tx_order}.
     */
    public static final class DeliveryHeaders {

        private final Header xid;
        private final Header commitLsn;
        private final Header outcome;
        private final Header twoPhase;
        /** Null unless the transaction is two-phase. */
        private final Header gid;

        private DeliveryHeaders(Header xid, Header commitLsn, Header outcome, Header twoPhase, Header gid) {
            this.xid = xid;
            this.commitLsn = commitLsn;
            this.outcome = outcome;
            this.twoPhase = twoPhase;
            this.gid = gid;
        }

        /**
         * Adds the headers of the delivery's record at {@code lsn}, the {@code txOrder}th of the delivery (1-based), to
         * {@code headers}, in the order {@link LifecycleHeaders} lists them.
         */
        public Headers addTo(Headers headers, Lsn lsn, long txOrder) {
            if (txOrder < 1) {
                throw new IllegalArgumentException("txOrder is 1-based, was " + txOrder);
            }
            headers.add(xid);
            headers.addString(LSN, lsn.toString());
            headers.add(commitLsn);
            headers.add(outcome);
            headers.add(twoPhase);
            headers.addLong(TX_ORDER, txOrder);
            if (gid != null) {
                headers.add(gid);
            }
            return headers;
        }
    }

    /** Adds the headers of a snapshot record: {@code pg.snapshot=true} and the consistent point as {@code pg.lsn}. */
    public static Headers addSnapshot(Headers headers, Lsn consistentPoint) {
        headers.addBoolean(SNAPSHOT, true);
        headers.addString(LSN, Objects.requireNonNull(consistentPoint, "consistentPoint").toString());
        return headers;
    }

    /** Adds {@code __debezium.oldkey} or {@code __debezium.newkey}: the other key of a key-changing update. */
    public static Headers addKeyChange(Headers headers, String name, Schema keySchema, Struct key) {
        if (!OLD_KEY.equals(name) && !NEW_KEY.equals(name)) {
            throw new IllegalArgumentException("not a key change header: " + name);
        }
        headers.add(name, key, keySchema);
        return headers;
    }

    /**
     * Debezium's context headers of one task run, built once: the same header objects go on every record, so adding
     * them costs four list appends per record.
     */
    public static final class Context {

        /** No context headers ({@code extended.headers.enabled=false}). */
        public static final Context NONE = new Context(List.of());

        private final List<Header> headers;

        private Context(List<Header> headers) {
            this.headers = headers;
        }

        /** The headers of a task run: {@code runId} names it. */
        public static Context of(String logicalName, String taskId, UUID runId) {
            Headers built = new ConnectHeaders()
                    .addString(CONTEXT_LOGICAL_NAME, Objects.requireNonNull(logicalName))
                    .addString(CONTEXT_TASK_ID, Objects.requireNonNull(taskId))
                    .addString(CONTEXT_CONNECTOR_NAME, CONNECTOR_NAME)
                    .addString(CONTEXT_RUN_ID, runId.toString());
            List<Header> headers = new java.util.ArrayList<>(4);
            // A header is immutable: the same objects can go on every record.
            built.forEach(headers::add);
            return new Context(List.copyOf(headers));
        }

        /** Adds the context headers to {@code headers}. */
        public Headers addTo(Headers target) {
            for (Header header : headers) {
                target.add(header);
            }
            return target;
        }
    }
}

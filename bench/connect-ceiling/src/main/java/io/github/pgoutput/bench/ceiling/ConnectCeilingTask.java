package io.github.pgoutput.bench.ceiling;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.AvroNames;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.ColumnTypes;
import io.github.pgoutput.connect.record.DirectEncoding;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.connect.record.MessageKeyColumns;
import io.github.pgoutput.connect.record.RecordEncoder;
import io.github.pgoutput.connect.record.TopicNames;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.SnapshotTable;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/**
 * Emits {@code ceiling.records} records of the bench table {@code (id bigint, v text, n numeric, ts timestamptz,
 * flag boolean)}: snapshot records ({@code op=r}, with the {@code pg.snapshot} headers and the snapshot offset) built
 * by our {@link ChangeRecordBuilder} from rows like the workloads' (a 96-character {@code v}), with Debezium's context
 * headers as ours carry them, so that the worker
 * converts and sends exactly what our connector would. {@value #DISTINCT} distinct records are built at start and
 * handed out in turn, {@code max.batch.size} (2,048) per poll: the task itself costs next to nothing. With
 * {@code ceiling.streamed=true} the records carry the headers of our streamed changes instead (W1-W4); with
 * {@code ceiling.direct=true} their key and value are the bytes of our {@code direct.encoding=json}.
 */
public final class ConnectCeilingTask extends SourceTask {

    private static final int DISTINCT = 4096;
    private static final int BATCH = 2048;
    private static final Lsn CONSISTENT_POINT = Lsn.parse("0/1000000");
    private static final SnapshotTable BENCH = new SnapshotTable(new TableName("public", "bench"), 16_400, List.of(
            new RelationColumn(true, "id", 20, -1), new RelationColumn(false, "v", 25, -1),
            new RelationColumn(false, "n", 1700, -1), new RelationColumn(false, "ts", 1184, -1),
            new RelationColumn(false, "flag", 16, -1)), -1, false, null);

    private final List<SourceRecord> records = new ArrayList<>(DISTINCT);
    private long total;
    private long startAtMillis;
    private long emitted;

    @Override
    public void start(Map<String, String> props) {
        total = Long.parseLong(props.get(ConnectCeilingConnector.RECORDS_CONFIG));
        startAtMillis = Long.parseLong(props.getOrDefault(ConnectCeilingConnector.START_AT_CONFIG, "0"));
        String prefix = props.get(ConnectCeilingConnector.TOPIC_PREFIX_CONFIG);
        boolean streamed = Boolean.parseBoolean(props.getOrDefault(ConnectCeilingConnector.STREAMED_CONFIG, "false"));
        RecordEncoder encoder = RecordEncoder.of(Boolean.parseBoolean(props.getOrDefault(ConnectCeilingConnector.DIRECT_CONFIG,
                "false")) ? DirectEncoding.JSON : DirectEncoding.NONE);
        LifecycleHeaders.Context context = LifecycleHeaders.Context.of(prefix, "0", java.util.UUID.randomUUID());
        ChangeRecordBuilder builder = new ChangeRecordBuilder(prefix, "bench", "bench", new TopicNames(prefix, "__debezium-heartbeat"),
                new AvroNames(prefix), new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(oids -> {
                    throw new SQLException("the bench table has built-in types only");
                }), true, (schema, table) -> true, MessageKeyColumns.NONE, false);
        Map<String, String> partition = SourceOffsets.partition("bench", prefix);
        Map<String, Object> offset = SourceOffsets.snapshotInProgress(CONSISTENT_POINT);
        String v = "0123456789abcdef".repeat(6);
        for (int i = 1; i <= DISTINCT; i++) {
            SnapshotRow row = new SnapshotRow(BENCH, List.of(Integer.toString(i), v, i + ".142857142857142857",
                    "2026-01-01 00:00:" + String.format("%02d", i % 60) + "+00", i % 2 == 0 ? "t" : "f"), false, false,
                    SnapshotRow.Marker.TRUE);
            ChangeRecordBuilder.Draft draft = builder.snapshotRow(row, CONSISTENT_POINT, 1000L);
            ConnectHeaders headers = new ConnectHeaders();
            if (streamed) {
                // A streamed insert's headers: its transaction, position, outcome and order, and the context ones.
                Lsn lsn = Lsn.of(CONSISTENT_POINT.value() + 64L * i);
                LifecycleHeaders.addChange(headers, new LifecycleHeaders.Change(Xid.of(1000), lsn,
                        Lsn.of(CONSISTENT_POINT.value() + 64L * DISTINCT + 64), Delivery.Kind.COMMITTED, false, i, null));
                context.addTo(headers);
            } else {
                // A snapshot row's headers, initial or incremental: its own two and the context ones.
                LifecycleHeaders.addSnapshot(headers, CONSISTENT_POINT);
                context.addTo(headers);
            }
            records.add(encoder.record(partition, offset, draft.topic(), null, draft.keySchema(), draft.key(),
                    draft.valueSchema(), draft.value(), draft.timestampMs(), headers));
        }
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        long wait = startAtMillis - System.currentTimeMillis();
        if (emitted >= total || wait > 0) {
            Thread.sleep(emitted >= total ? 100 : Math.min(wait, 100));
            return null;
        }
        int n = (int) Math.min(BATCH, total - emitted);
        List<SourceRecord> batch = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            batch.add(records.get((int) (emitted++ % DISTINCT)));
        }
        return batch;
    }

    @Override
    public void stop() {
    }

    @Override
    public String version() {
        return "bench";
    }
}

package io.github.pgoutput.benchmarks;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.connect.record.AvroNames;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.ColumnTypes;
import io.github.pgoutput.connect.record.ConnectJsonWriter;
import io.github.pgoutput.connect.record.MessageKeyColumns;
import io.github.pgoutput.connect.record.TopicNames;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.SnapshotTable;
import org.apache.kafka.connect.json.JsonConverter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The per-event cost of the record path on the side-by-side bench table {@code (id bigint, v text, n numeric,
 * ts timestamptz, flag boolean)}: building one record with our {@link ChangeRecordBuilder}, then turning its key and
 * value into bytes with Kafka's {@code JsonConverter} (what the worker does with {@code direct.encoding=none}) or with
 * our {@link ConnectJsonWriter} ({@code direct.encoding=json} / {@code json_with_schemas}), which write the same
 * bytes. One operation is one event; run with {@code -prof gc} for the bytes allocated per event.
 *
 * <p>{@code java -jar bench/jmh/target/benchmarks.jar RecordPathBenchmark -f 1 -wi 3 -w 2s -i 5 -r 2s -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RecordPathBenchmark {

    private static final int DISTINCT = 1024;
    private static final Lsn CONSISTENT_POINT = Lsn.parse("0/1000000");
    private static final SnapshotTable BENCH = new SnapshotTable(new TableName("public", "bench"), 16_400, List.of(
            new RelationColumn(true, "id", 20, -1), new RelationColumn(false, "v", 25, -1),
            new RelationColumn(false, "n", 1700, -1), new RelationColumn(false, "ts", 1184, -1),
            new RelationColumn(false, "flag", 16, -1)), -1, false, null);

    private ChangeRecordBuilder builder;
    private final List<SnapshotRow> rows = new ArrayList<>(DISTINCT);
    private final List<ChangeRecordBuilder.Draft> drafts = new ArrayList<>(DISTINCT);
    private JsonConverter keyConverter;
    private JsonConverter valueConverter;
    private JsonConverter keyConverterWithSchemas;
    private JsonConverter valueConverterWithSchemas;
    private final ConnectJsonWriter direct = new ConnectJsonWriter(false);
    private final ConnectJsonWriter directWithSchemas = new ConnectJsonWriter(true);
    private int next;

    @Setup
    public void setUp() {
        builder = new ChangeRecordBuilder("bench", "bench", "bench", new TopicNames("bench", "__debezium-heartbeat"),
                new AvroNames("bench"), new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(oids -> {
                    throw new SQLException("the bench table has built-in types only");
                }), true, (schema, table) -> true, MessageKeyColumns.NONE, false);
        String v = "0123456789abcdef".repeat(6);
        for (int i = 1; i <= DISTINCT; i++) {
            SnapshotRow row = new SnapshotRow(BENCH, List.of(Integer.toString(i), v, i + ".142857142857142857",
                    "2026-01-01 00:00:" + String.format("%02d", i % 60) + "+00", i % 2 == 0 ? "t" : "f"), false, false,
                    SnapshotRow.Marker.TRUE);
            rows.add(row);
            drafts.add(builder.snapshotRow(row, CONSISTENT_POINT, 1000L));
        }
        keyConverter = converter(true, false);
        valueConverter = converter(false, false);
        keyConverterWithSchemas = converter(true, true);
        valueConverterWithSchemas = converter(false, true);
    }

    private static JsonConverter converter(boolean key, boolean schemas) {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", Boolean.toString(schemas)), key);
        return converter;
    }

    private ChangeRecordBuilder.Draft nextDraft() {
        return drafts.get(next++ & (DISTINCT - 1));
    }

    /** Our share: one snapshot row to a record's key and value Structs. */
    @Benchmark
    public ChangeRecordBuilder.Draft build() {
        return builder.snapshotRow(rows.get(next++ & (DISTINCT - 1)), CONSISTENT_POINT, 1000L);
    }

    /** The worker's share with direct.encoding=none and JsonConverter, schemas.enable=false. */
    @Benchmark
    public void jsonConverter(Blackhole sink) {
        ChangeRecordBuilder.Draft draft = nextDraft();
        sink.consume(keyConverter.fromConnectData(draft.topic(), draft.keySchema(), draft.key()));
        sink.consume(valueConverter.fromConnectData(draft.topic(), draft.valueSchema(), draft.value()));
    }

    /** The same bytes written by the connector with direct.encoding=json. */
    @Benchmark
    public void directJson(Blackhole sink) {
        ChangeRecordBuilder.Draft draft = nextDraft();
        sink.consume(direct.write(draft.keySchema(), draft.key()));
        sink.consume(direct.write(draft.valueSchema(), draft.value()));
    }

    /** JsonConverter with schemas.enable=true. */
    @Benchmark
    public void jsonConverterWithSchemas(Blackhole sink) {
        ChangeRecordBuilder.Draft draft = nextDraft();
        sink.consume(keyConverterWithSchemas.fromConnectData(draft.topic(), draft.keySchema(), draft.key()));
        sink.consume(valueConverterWithSchemas.fromConnectData(draft.topic(), draft.valueSchema(), draft.value()));
    }

    /** The same bytes written by the connector with direct.encoding=json_with_schemas. */
    @Benchmark
    public void directJsonWithSchemas(Blackhole sink) {
        ChangeRecordBuilder.Draft draft = nextDraft();
        sink.consume(directWithSchemas.write(draft.keySchema(), draft.key()));
        sink.consume(directWithSchemas.write(draft.valueSchema(), draft.value()));
    }
}

package io.github.pgoutput.bench.ceiling;

import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.SourceConnector;

/**
 * The Connect ceiling of the side-by-side benchmark: one task that reads nothing and hands the worker
 * {@code ceiling.records} records of the bench table, built once by our own record builder, as fast as the worker
 * takes them. Its rate is what the worker, the converter and the producer allow for exactly our records, so our
 * connector's rate divided by it is the share of that ceiling we reach. A benchmark tool: never packaged with the
 * connector.
 */
public final class ConnectCeilingConnector extends SourceConnector {

    static final String RECORDS_CONFIG = "ceiling.records";
    static final String TOPIC_PREFIX_CONFIG = "topic.prefix";
    static final String START_AT_CONFIG = "ceiling.start.at.ms";
    static final String STREAMED_CONFIG = "ceiling.streamed";
    static final String DIRECT_CONFIG = "ceiling.direct";

    private static final ConfigDef CONFIG = new ConfigDef()
            .define(RECORDS_CONFIG, ConfigDef.Type.LONG, ConfigDef.NO_DEFAULT_VALUE, ConfigDef.Range.atLeast(1),
                    ConfigDef.Importance.HIGH, "records to emit, then the task idles")
            .define(TOPIC_PREFIX_CONFIG, ConfigDef.Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigDef.Importance.HIGH,
                    "as our connector's: the records go to <prefix>.public.bench")
            .define(START_AT_CONFIG, ConfigDef.Type.LONG, 0L, ConfigDef.Importance.MEDIUM,
                    "the first record is handed out at this time (epoch milliseconds), so that the measurement does not"
                            + " include the task's start; 0: at once")
            .define(STREAMED_CONFIG, ConfigDef.Type.BOOLEAN, false, ConfigDef.Importance.MEDIUM,
                    "true: the headers of our streamed changes (pg.xid, pg.lsn, pg.commit_lsn, pg.outcome, pg.two_phase,"
                            + " pg.tx_order and Debezium's context headers), as W1-W4 records carry; false: those of our"
                            + " snapshot rows, as W5's")
            .define(DIRECT_CONFIG, ConfigDef.Type.BOOLEAN, false, ConfigDef.Importance.MEDIUM,
                    "true: the records carry the key and value bytes our direct.encoding=json writes (run with"
                            + " ByteArrayConverter), the ceiling of that mode; false: Structs, for the worker's converter");

    private Map<String, String> props;

    @Override
    public void start(Map<String, String> props) {
        CONFIG.parse(props);
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return ConnectCeilingTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        return List.of(props);
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return CONFIG;
    }

    @Override
    public String version() {
        return "bench";
    }
}

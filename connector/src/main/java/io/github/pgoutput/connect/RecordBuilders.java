package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ConnectorSettings;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.record.AvroNames;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.ColumnTypes;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.connect.record.RecordEncoder;
import io.github.pgoutput.connect.record.TopicNames;
import io.github.pgoutput.connect.record.TransactionTopicRecords;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.replication.TypeCatalog;
import java.util.List;
import java.util.UUID;
import java.util.function.BiPredicate;
import java.util.regex.Pattern;

/**
 * Makes the record builders of one task run from its configuration. The builders' options are made once, so the
 * context headers are the same objects on every record of the run (and the run has one {@code runId}).
 */
final class RecordBuilders {

    /** Debezium's {@code __debezium.context.taskId}: the connector runs one task. */
    private static final String TASK_ID = "0";

    private final PgOutputSourceConnectorConfig config;
    private final String version;
    private final ChangeRecordBuilder.Options options;
    /** Compiled once: the predicate runs for every change, and the config accessors compile the expressions anew. */
    private final BiPredicate<String, String> captured;

    RecordBuilders(PgOutputSourceConnectorConfig config, String version) {
        this.config = config;
        this.version = version;
        // Compiling the table selection once mattered: ~3% of the worker's CPU on a 1M-row transaction when the
        // accessors were called per change (bench/side-by-side.sh).
        this.captured = ConnectorSettings.tableSelection(config);
        List<Pattern> include = config.messagePrefixIncludeList();
        List<Pattern> exclude = config.messagePrefixExcludeList();
        this.options = new ChangeRecordBuilder.Options(
                config.extendedHeadersEnabled()
                        ? LifecycleHeaders.Context.of(config.topicPrefix(), TASK_ID, UUID.randomUUID())
                        : LifecycleHeaders.Context.NONE,
                config.skippedOperations(), config.binaryHandlingMode(),
                prefix -> ConnectorSettings.captured(include, exclude, prefix), RecordEncoder.of(config.directEncoding()),
                config.columnShaping());
    }

    /**
     * A builder with its own schema and type caches over {@code catalog}; snapshot and stream read the same catalog, so
     * their schemas agree.
     */
    ChangeRecordBuilder create(TypeCatalog catalog) {
        return new ChangeRecordBuilder(config.topicPrefix(), config.databaseDbname(), version, config.topicNames(),
                new AvroNames(config.topicPrefix()), new PostgresTypeMapper(ConnectorSettings.converters(config)),
                new ColumnTypes(catalog), config.tombstonesOnDelete(), captured,
                config.messageKeyColumns(), config.provideTransactionMetadata(), options);
    }

    /** The records of the transaction topic with {@code provide.transaction.metadata}, else null. */
    TransactionTopicRecords transactionTopicRecords() {
        return config.provideTransactionMetadata() ? new TransactionTopicRecords(config.topicNames()) : null;
    }
}

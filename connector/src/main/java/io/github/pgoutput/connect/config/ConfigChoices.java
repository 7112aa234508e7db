package io.github.pgoutput.connect.config;

import io.github.pgoutput.assembly.PreparedTransactionMode;
import io.github.pgoutput.connect.record.DirectEncoding;
import io.github.pgoutput.converters.BinaryHandlingMode;
import io.github.pgoutput.converters.DecimalHandlingMode;
import io.github.pgoutput.converters.HStoreHandlingMode;
import io.github.pgoutput.converters.IntervalHandlingMode;
import io.github.pgoutput.converters.TemporalPrecisionMode;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.snapshot.SnapshotMode;
import io.github.pgoutput.toast.UnchangedToastResolution;
import java.util.Locale;
import java.util.Optional;

/**
 * The accepted values of every enum-valued key of {@link PgOutputSourceConnectorConfig}, each mapped onto the enum of
 * the layer that uses it. This is the one place where a value as users write it meets the constant it means; most are
 * the constant's name in lower case, the exceptions are spelled out here.
 */
public final class ConfigChoices {

    /** {@code database.sslmode}: pgjdbc's {@code sslmode} values, passed through unchanged. */
    public static final ConfigChoice<SslMode> SSL_MODE = ConfigChoice.of(SslMode.class, SslMode::configValue);

    /** {@code publication.autocreate.mode}: disabled, all_tables, filtered, no_tables. */
    public static final ConfigChoice<PublicationMode> PUBLICATION_AUTOCREATE_MODE =
            ConfigChoice.lowerCase(PublicationMode.class);

    /** {@code protocol.version}: auto, 1, 2, 3, 4. */
    public static final ConfigChoice<ProtocolVersionSetting> PROTOCOL_VERSION =
            ConfigChoice.of(ProtocolVersionSetting.class, ProtocolVersionSetting::configValue);

    /**
     * {@code streaming}: auto (empty; {@link ConnectorSettings} resolves it against the protocol version), off, on,
     * parallel.
     */
    public static final ConfigChoice<Optional<StreamingMode>> STREAMING = ConfigChoice.autoOrLowerCase(StreamingMode.class);

    /** {@code prepared.transaction.mode}: fail, stage. */
    public static final ConfigChoice<PreparedTransactionMode> PREPARED_TRANSACTION_MODE =
            ConfigChoice.lowerCase(PreparedTransactionMode.class);

    /** {@code decimal.handling.mode}: precise, double, string. */
    public static final ConfigChoice<DecimalHandlingMode> DECIMAL_HANDLING_MODE =
            ConfigChoice.lowerCase(DecimalHandlingMode.class);

    /** {@code time.precision.mode}: Debezium's values, the lower-case names of the converters' constants. */
    public static final ConfigChoice<TemporalPrecisionMode> TIME_PRECISION_MODE =
            ConfigChoice.lowerCase(TemporalPrecisionMode.class);

    /** {@code interval.handling.mode}: numeric, string. */
    public static final ConfigChoice<IntervalHandlingMode> INTERVAL_HANDLING_MODE =
            ConfigChoice.lowerCase(IntervalHandlingMode.class);

    /** {@code hstore.handling.mode}: json, map. */
    public static final ConfigChoice<HStoreHandlingMode> HSTORE_HANDLING_MODE =
            ConfigChoice.lowerCase(HStoreHandlingMode.class);

    /** {@code binary.handling.mode}: bytes, base64, base64-url-safe (Debezium's spelling, with hyphens), hex. */
    public static final ConfigChoice<BinaryHandlingMode> BINARY_HANDLING_MODE = ConfigChoice.of(BinaryHandlingMode.class,
            mode -> mode.name().toLowerCase(Locale.ROOT).replace('_', '-'));

    /**
     * {@code snapshot.mode}: initial, no_data, initial_only, when_needed, always; and two old names Debezium 3.x no
     * longer accepts but configurations still carry: never (no_data's name before Debezium 2.6, refused since 3.3) and
     * exported (a deprecated alias of initial in Debezium 1.x, gone in 2.0).
     */
    public static final ConfigChoice<SnapshotMode> SNAPSHOT_MODE = ConfigChoice.lowerCase(SnapshotMode.class)
            .withAlias("never", SnapshotMode.NO_DATA).withAlias("exported", SnapshotMode.INITIAL);

    /** {@code snapshot.new.tables}: off, incremental. */
    public static final ConfigChoice<NewTableSnapshots> NEW_TABLE_SNAPSHOTS = ConfigChoice.lowerCase(NewTableSnapshots.class);

    /** {@code direct.encoding}: none, json, json_with_schemas. */
    public static final ConfigChoice<DirectEncoding> DIRECT_ENCODING = ConfigChoice.lowerCase(DirectEncoding.class);

    /** {@code unchanged.toast.resolution}: none, reselect, store. */
    public static final ConfigChoice<UnchangedToastResolution> UNCHANGED_TOAST_RESOLUTION =
            ConfigChoice.lowerCase(UnchangedToastResolution.class);

    private ConfigChoices() {
    }
}

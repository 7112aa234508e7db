package io.github.pgoutput.converters;

import java.util.Objects;

/**
 * Settings of a {@link PostgresTypeMapper}. The connector's config class owns the keys; this is only the
 * parsed result. {@link #DEFAULTS} are Debezium's defaults, so that records match what Debezium writes.
 *
 * @param decimalHandlingMode          how numeric and money values are represented
 * @param unavailableValuePlaceholder  what an unchanged TOAST value ({@code 'u'}) becomes in string, bytes
 *                                     (as UTF-8) and such array columns; never null
 * @param moneyFractionDigits          digits after the decimal point of {@code money} values: the
 *                                     {@code frac_digits} of the database's {@code lc_monetary}, 2 for most locales
 * @param temporalPrecisionMode        how date, time and timestamp values are represented
 * @param intervalHandlingMode         how interval values are represented
 * @param binaryHandlingMode           how bytea values are represented
 * @param hstoreHandlingMode           how hstore values are represented
 */
public record ConverterOptions(DecimalHandlingMode decimalHandlingMode, String unavailableValuePlaceholder,
                               int moneyFractionDigits, TemporalPrecisionMode temporalPrecisionMode,
                               IntervalHandlingMode intervalHandlingMode, BinaryHandlingMode binaryHandlingMode,
                               HStoreHandlingMode hstoreHandlingMode) {

    /** Debezium's default placeholder, so that consumers written for Debezium recognise it. */
    public static final String DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER = "__debezium_unavailable_value";

    public static final ConverterOptions DEFAULTS = new ConverterOptions(DecimalHandlingMode.PRECISE,
            DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER, 2, TemporalPrecisionMode.ADAPTIVE, IntervalHandlingMode.NUMERIC,
            BinaryHandlingMode.BYTES, HStoreHandlingMode.JSON);

    public ConverterOptions {
        Objects.requireNonNull(decimalHandlingMode, "decimalHandlingMode");
        Objects.requireNonNull(unavailableValuePlaceholder, "unavailableValuePlaceholder");
        Objects.requireNonNull(temporalPrecisionMode, "temporalPrecisionMode");
        Objects.requireNonNull(intervalHandlingMode, "intervalHandlingMode");
        Objects.requireNonNull(binaryHandlingMode, "binaryHandlingMode");
        Objects.requireNonNull(hstoreHandlingMode, "hstoreHandlingMode");
        if (moneyFractionDigits < 0 || moneyFractionDigits > 10) {
            throw new IllegalArgumentException("moneyFractionDigits is " + moneyFractionDigits
                    + "; PostgreSQL prints between 0 and 10 fraction digits for money");
        }
    }

    public ConverterOptions withDecimalHandlingMode(DecimalHandlingMode mode) {
        return new ConverterOptions(mode, unavailableValuePlaceholder, moneyFractionDigits, temporalPrecisionMode,
                intervalHandlingMode, binaryHandlingMode, hstoreHandlingMode);
    }

    public ConverterOptions withUnavailableValuePlaceholder(String placeholder) {
        return new ConverterOptions(decimalHandlingMode, placeholder, moneyFractionDigits, temporalPrecisionMode,
                intervalHandlingMode, binaryHandlingMode, hstoreHandlingMode);
    }

    public ConverterOptions withMoneyFractionDigits(int digits) {
        return new ConverterOptions(decimalHandlingMode, unavailableValuePlaceholder, digits, temporalPrecisionMode,
                intervalHandlingMode, binaryHandlingMode, hstoreHandlingMode);
    }

    public ConverterOptions withTemporalPrecisionMode(TemporalPrecisionMode mode) {
        return new ConverterOptions(decimalHandlingMode, unavailableValuePlaceholder, moneyFractionDigits, mode,
                intervalHandlingMode, binaryHandlingMode, hstoreHandlingMode);
    }

    public ConverterOptions withIntervalHandlingMode(IntervalHandlingMode mode) {
        return new ConverterOptions(decimalHandlingMode, unavailableValuePlaceholder, moneyFractionDigits,
                temporalPrecisionMode, mode, binaryHandlingMode, hstoreHandlingMode);
    }

    public ConverterOptions withBinaryHandlingMode(BinaryHandlingMode mode) {
        return new ConverterOptions(decimalHandlingMode, unavailableValuePlaceholder, moneyFractionDigits,
                temporalPrecisionMode, intervalHandlingMode, mode, hstoreHandlingMode);
    }

    public ConverterOptions withHStoreHandlingMode(HStoreHandlingMode mode) {
        return new ConverterOptions(decimalHandlingMode, unavailableValuePlaceholder, moneyFractionDigits,
                temporalPrecisionMode, intervalHandlingMode, binaryHandlingMode, mode);
    }
}

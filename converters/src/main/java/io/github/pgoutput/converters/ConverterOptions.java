package io.github.pgoutput.converters;

import java.util.Objects;

/**
 * Settings of a {@link PostgresTypeMapper}. The connector's config class owns the keys; this is only the
 * parsed result.
 *
 * @param decimalHandlingMode          how numeric and money values are represented
 * @param unavailableValuePlaceholder  what an unchanged TOAST value ({@code 'u'}) becomes in string, bytes
 *                                     (as UTF-8) and such array columns; never null
 * @param moneyFractionDigits          digits after the decimal point of {@code money} values: the
 *                                     {@code frac_digits} of the database's {@code lc_monetary}, 2 for most locales
 */
public record ConverterOptions(DecimalHandlingMode decimalHandlingMode, String unavailableValuePlaceholder,
                               int moneyFractionDigits) {

    /** Debezium's default placeholder, so that consumers written for Debezium recognise it. */
    public static final String DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER = "__debezium_unavailable_value";

    public static final ConverterOptions DEFAULTS =
            new ConverterOptions(DecimalHandlingMode.PRECISE, DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER, 2);

    public ConverterOptions {
        Objects.requireNonNull(decimalHandlingMode, "decimalHandlingMode");
        Objects.requireNonNull(unavailableValuePlaceholder, "unavailableValuePlaceholder");
        if (moneyFractionDigits < 0 || moneyFractionDigits > 10) {
            throw new IllegalArgumentException("moneyFractionDigits is " + moneyFractionDigits
                    + "; PostgreSQL prints between 0 and 10 fraction digits for money");
        }
    }

    public ConverterOptions withDecimalHandlingMode(DecimalHandlingMode mode) {
        return new ConverterOptions(mode, unavailableValuePlaceholder, moneyFractionDigits);
    }
}

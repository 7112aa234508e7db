package io.github.pgoutput.converters;

import java.util.Optional;
import org.apache.kafka.connect.data.Schema;

/** A domain converts exactly as its base type; only {@link #type()} tells them apart. */
record DomainConverter(PgColumnType type, ColumnConverter base) implements ColumnConverter {

    @Override
    public Schema schema(boolean optional) {
        return base.schema(optional);
    }

    @Override
    public Object fromText(String text) {
        return base.fromText(text);
    }

    @Override
    public Object fromBinary(byte[] bytes) {
        return base.fromBinary(bytes);
    }

    @Override
    public Optional<Object> unchangedToastValue() {
        return base.unchangedToastValue();
    }
}

package io.github.pgoutput.connect.shaping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.function.UnaryOperator;

import io.github.pgoutput.converters.BuiltInTypes;
import io.github.pgoutput.converters.PgColumnType;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.Test;

/**
 * Debezium's column mappers, byte for byte: the expected digests are computed outside Java (Python's hashlib over the
 * salt and the value's Java serialization, {@code AC ED 00 05 74 <length> <modified UTF-8>}, or its text).
 */
class ColumnMapperTest {

    static SourceColumn column(int oid, int typmod) {
        return SourceColumns.describe("public", "t", "c", PgColumnType.builtIn(oid, typmod), true, null, null);
    }

    private static SchemaBuilder parameters(ColumnMapper mapper, SourceColumn column) {
        SchemaBuilder builder = SchemaBuilder.string();
        mapper.alterSchema(column, builder);
        return builder;
    }

    @Test
    void aMaskReplacesEveryValueOfACharacterColumnNullIncluded() {
        UnaryOperator<Object> mask = ColumnMapper.Mask.ofLength(4).values(column(BuiltInTypes.TEXT, -1));

        assertThat(mask.apply("secret")).isEqualTo("****");
        assertThat(mask.apply(null)).isEqualTo("****");
        assertThat(parameters(ColumnMapper.Mask.ofLength(4), column(BuiltInTypes.TEXT, -1)).parameters())
                .containsExactly(java.util.Map.entry("masked", "true"));
    }

    @Test
    void aMaskLeavesOtherTypesValuesButMarksTheirSchema() {
        SourceColumn int4 = column(BuiltInTypes.INT4, -1);

        assertThat(ColumnMapper.Mask.ofLength(4).values(int4)).isNull();
        assertThat(parameters(ColumnMapper.Mask.ofLength(4), int4).parameters()).containsEntry("masked", "true");
    }

    @Test
    void hashV1DigestsTheSaltAndTheValuesJavaSerialization() {
        UnaryOperator<Object> hash = new HashMask("SHA-256", "CzQMA0cB5K", false).values(column(BuiltInTypes.TEXT, -1));

        assertThat(hash.apply("hello")).isEqualTo("b4d39ab0d198fb4cac8b2f023da74f670bcaf192dcc79b5d6361b7ae6b2fafdf");
        assertThat(new HashMask("SHA-256", "s", false).values(column(BuiltInTypes.TEXT, -1)).apply("zürich"))
                .isEqualTo("3694960ea2e4fcaf1a3aab34f639bca7c4bb74a715e5833b2dc099190b42bc03");
        assertThat(hash.apply(null)).isNull();
    }

    @Test
    void hashV2DigestsTheSaltAndTheValuesText() {
        UnaryOperator<Object> hash = new HashMask("MD5", "pepper.and.salt", true).values(column(BuiltInTypes.TEXT, -1));

        assertThat(hash.apply("hello")).isEqualTo("d8fecbba0aa0fbf56eb609b779c2fe88");
    }

    @Test
    void aHashIsCutToTheColumnsDeclaredLength() {
        UnaryOperator<Object> hash = new HashMask("MD5", "pepper.and.salt", true)
                .values(column(BuiltInTypes.VARCHAR, 10 + 4));

        assertThat(hash.apply("hello")).isEqualTo("d8fecbba0a");
    }

    @Test
    void anUnknownAlgorithmIsRefusedNamingTheKnownOnes() {
        assertThatThrownBy(() -> new HashMask("SHA-999", "s", false))
                .hasMessageStartingWith("'SHA-999' is not a hash algorithm of this JVM").hasMessageContaining("SHA-256");
    }

    @Test
    void truncationCutsStringsAndBytesLongerThanTheLimitWhateverTheType() {
        UnaryOperator<Object> cut = new ColumnMapper.Truncate(3).values(column(BuiltInTypes.JSON, -1));

        assertThat(cut.apply("{\"a\":1}")).isEqualTo("{\"a");
        assertThat(cut.apply("ab")).isEqualTo("ab");
        assertThat((byte[]) cut.apply(new byte[] {1, 2, 3, 4})).containsExactly(1, 2, 3);
        assertThat(((ByteBuffer) cut.apply(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}))).array()).containsExactly(1, 2, 3);
        assertThat(cut.apply(12345)).isEqualTo(12345);
        assertThat(cut.apply(null)).isNull();
    }

    @Test
    void truncationLeavesAColumnNoLongerThanTheLimitAlone() {
        SourceColumn char3 = column(BuiltInTypes.BPCHAR, 3 + 4);
        SourceColumn int2 = column(BuiltInTypes.INT2, -1);

        assertThat(new ColumnMapper.Truncate(3).values(char3)).isNull();
        assertThat(parameters(new ColumnMapper.Truncate(3), char3).parameters()).isNull();
        assertThat(parameters(new ColumnMapper.Truncate(3), int2).parameters())
                .as("int2's length is 5, more than 3: the parameter, but its values stay")
                .containsExactly(java.util.Map.entry("truncateLength", "3"));
    }

    @Test
    void sourceTypePropagationWritesTypeLengthScaleAndNameInDebeziumsOrder() {
        SourceColumn numeric = column(BuiltInTypes.NUMERIC, ((12 << 16) | 3) + 4);

        assertThat(parameters(new ColumnMapper.PropagateSourceType(), numeric).parameters()).containsExactly(
                java.util.Map.entry("__debezium.source.column.type", "NUMERIC"),
                java.util.Map.entry("__debezium.source.column.length", "12"),
                java.util.Map.entry("__debezium.source.column.scale", "3"),
                java.util.Map.entry("__debezium.source.column.name", "c"));
        assertThat(new ColumnMapper.PropagateSourceType().values(numeric)).isNull();
    }
}

package io.github.pgoutput.connect.shaping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.connect.config.ColumnMapperKeys;
import io.github.pgoutput.connect.config.ShapingKeyException;
import io.github.pgoutput.converters.BuiltInTypes;
import io.github.pgoutput.converters.PgColumnType;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ColumnMappersTest {

    private static SourceColumn column(String table, String name, int oid) {
        return SourceColumns.describe("public", table, name, PgColumnType.builtIn(oid, -1), true, null, null);
    }

    @Test
    void eachKeyFamilyMakesItsMapper() {
        ColumnMappers mappers = ColumnMapperKeys.mappers(Map.of(
                "column.mask.with.7.chars", "public\\.t\\.a",
                "column.truncate.to.9.chars", "public\\.t\\.b",
                "column.mask.hash.SHA-256.with.salt.salt.with.dots", "public\\.t\\.c",
                "column.mask.hash.v2.MD5.with.salt.pepper", "public\\.t\\.d",
                "column.propagate.source.type", "public\\.t\\.e",
                "datatype.propagate.source.type", ".+\\.INT8"));

        assertThat(mappers.mapperFor(column("t", "a", BuiltInTypes.TEXT))).contains(new ColumnMapper.Mask("*******"));
        assertThat(mappers.mapperFor(column("t", "b", BuiltInTypes.TEXT))).contains(new ColumnMapper.Truncate(9));
        assertThat(mappers.mapperFor(column("t", "c", BuiltInTypes.TEXT)))
                .contains(new HashMask("SHA-256", "salt.with.dots", false));
        assertThat(mappers.mapperFor(column("t", "d", BuiltInTypes.TEXT))).contains(new HashMask("MD5", "pepper", true));
        assertThat(mappers.mapperFor(column("t", "e", BuiltInTypes.TEXT))).contains(new ColumnMapper.PropagateSourceType());
        assertThat(mappers.mapperFor(column("u", "f", BuiltInTypes.INT8)))
                .as("by schema.table.typename").contains(new ColumnMapper.PropagateSourceType());
        assertThat(mappers.mapperFor(column("u", "g", BuiltInTypes.TEXT))).isEmpty();
    }

    @Test
    void oneMapperPerColumnTheFirstInDebeziumsOrderOfKinds() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("column.mask.hash.v2.MD5.with.salt.x", ".*");
        keys.put("column.mask.hash.SHA-256.with.salt.x", ".*");
        keys.put("datatype.propagate.source.type", ".*");
        keys.put("column.propagate.source.type", ".*");
        keys.put("column.mask.with.3.chars", ".*");
        keys.put("column.truncate.to.2.chars", "public\\.t\\.first");
        ColumnMappers mappers = ColumnMapperKeys.mappers(keys);

        assertThat(mappers.mapperFor(column("t", "first", BuiltInTypes.TEXT))).contains(new ColumnMapper.Truncate(2));
        assertThat(mappers.mapperFor(column("t", "other", BuiltInTypes.TEXT))).contains(new ColumnMapper.Mask("***"));
    }

    @Test
    void keysOfOneKindApplyInKeyOrder() {
        ColumnMappers mappers = ColumnMapperKeys.mappers(Map.of("column.mask.with.5.chars", ".*", "column.mask.with.12.chars", ".*"));

        assertThat(mappers.mapperFor(column("t", "a", BuiltInTypes.TEXT))).contains(new ColumnMapper.Mask("************"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "column.mask.with.0.chars                | positive whole number",
        "column.mask.with.five.chars             | column.mask.with.12.chars",
        "column.truncate.to.-1.chars             | column.truncate.to.12.chars",
        "column.truncate.to.3                    | column.truncate.to.12.chars",
        "column.mask.hash.SHA-256                | column.mask.hash.SHA-256.with.salt.CzQMA0cB5K",
        "column.mask.hash.NOPE.with.salt.x       | is not a hash algorithm of this JVM",
        "column.mask.hash.v2.NOPE.with.salt.x    | is not a hash algorithm of this JVM",
    })
    void aMalformedKeyIsRefusedOnThatKeySayingHowToWriteIt(String key, String advice) {
        assertThatThrownBy(() -> ColumnMapperKeys.mappers(Map.of(key, ".*")))
                .isInstanceOfSatisfying(ShapingKeyException.class, e -> assertThat(e.key()).isEqualTo(key))
                .hasMessageContaining(advice);
    }

    @Test
    void aValueThatIsNoListOfRegularExpressionsIsRefusedOnItsKey() {
        assertThatThrownBy(() -> ColumnMapperKeys.mappers(Map.of("column.mask.with.3.chars", "public\\.t\\.(a")))
                .isInstanceOfSatisfying(ShapingKeyException.class,
                        e -> assertThat(e.key()).isEqualTo("column.mask.with.3.chars"))
                .hasMessageContaining("'public\\.t\\.(a' is not a valid regular expression");
    }

    @Test
    void recognisesItsKeys() {
        assertThat(ColumnMapperKeys.isMapperKey("column.mask.with.3.chars")).isTrue();
        assertThat(ColumnMapperKeys.isMapperKey("column.mask.hash.MD5.with.salt.x")).isTrue();
        assertThat(ColumnMapperKeys.isMapperKey("column.truncate.to.3.chars")).isTrue();
        assertThat(ColumnMapperKeys.isMapperKey("datatype.propagate.source.type")).isTrue();
        assertThat(ColumnMapperKeys.isMapperKey("column.include.list")).isFalse();
    }
}

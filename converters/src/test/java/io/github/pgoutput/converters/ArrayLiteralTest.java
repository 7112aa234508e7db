package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ArrayLiteralTest {

    @Test
    void readsAnEmptyArrayAsNoElements() {
        assertThat(ArrayLiteral.parse("{}", ',')).isEmpty();
    }

    @Test
    void tellsABareNullFromQuotedOrEscapedNullStrings() {
        assertThat(ArrayLiteral.parse("{NULL,\"NULL\",null,N\\ULL}", ','))
                .containsExactly(null, "NULL", null, "NULL");
    }

    @Test
    void unescapesQuotesAndBackslashesInsideQuotedElements() {
        assertThat(ArrayLiteral.parse("{\"a \\\"b\\\"\",\"c\\\\d\",\"\",\"{x},y\"}", ','))
                .containsExactly("a \"b\"", "c\\d", "", "{x},y");
    }

    @Test
    void flattensNestedDimensionsInRowMajorOrder() {
        assertThat(ArrayLiteral.parse("{{{1,2},{3,4}},{{5,6},{7,8}}}", ',')).containsExactly("1", "2", "3", "4", "5", "6", "7", "8");
    }

    @Test
    void skipsTheDimensionDecorationOfNonDefaultLowerBounds() {
        assertThat(ArrayLiteral.parse("[-2:-1][3:4]={{a,b},{c,d}}", ',')).containsExactly("a", "b", "c", "d");
    }

    @Test
    void splitsOnTheElementTypesDelimiter() {
        // box[] as array_out prints it: boxes contain commas, so box's typdelim is ';'.
        assertThat(ArrayLiteral.parse("{(1,1),(0,0);(3,3),(2,2)}", ';')).containsExactly("(1,1),(0,0)", "(3,3),(2,2)");
    }

    @Test
    void rejectsMalformedLiteralsWithThePosition() {
        for (String bad : Arrays.asList("", "{", "{1,2", "{1,,2}", "{1}x", "1,2", "{\"unterminated}", "{a\"b}", "[1:2]{1,2}")) {
            assertThatThrownBy(() -> ArrayLiteral.parse(bad, ',')).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("array literal");
        }
    }

    @Test
    void refusesMoreDimensionsThanPostgresAllows() {
        assertThatThrownBy(() -> ArrayLiteral.parse("{{{{{{{{1}}}}}}}}", ','))
                .hasMessageContaining("more than 6 dimensions");
    }
}

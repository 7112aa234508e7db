package io.github.pgoutput.connect.shaping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RegexListTest {

    @Test
    void splitsAtUnescapedCommasTrimsItemsAndDropsEmptyOnes() {
        assertThat(RegexList.parse(" public\\.a\\.x , ,public\\.b\\..*,").expressions())
                .containsExactly("public\\.a\\.x", "", "public\\.b\\..*");
        assertThat(RegexList.split(",,a")).containsExactly("a");
    }

    @Test
    void anEscapedCommaStaysInsideTheExpression() {
        RegexList list = RegexList.parse("public\\.t\\.c{1\\,3},public\\.u\\.v");

        assertThat(list.expressions()).containsExactly("public\\.t\\.c{1,3}", "public\\.u\\.v");
        assertThat(list.matches("public.t.ccc")).isTrue();
        assertThat(list.matches("public.t.cccc")).isFalse();
    }

    @Test
    void matchesTheWholeNameIgnoringCase() {
        RegexList list = RegexList.parse("public\\.customers\\.email");

        assertThat(list.matches("PUBLIC.Customers.EMAIL")).isTrue();
        assertThat(list.matches("public.customers.email2")).isFalse();
        assertThat(list.matches("xpublic.customers.email")).isFalse();
    }

    @Test
    void anExpressionThatDoesNotCompileIsNamed() {
        assertThatThrownBy(() -> RegexList.parse("public\\.ok,public\\.(broken"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'public\\.(broken' is not a valid regular expression");
    }

    @Test
    void aLoneBackslashAtTheEndIsRefused() {
        assertThatThrownBy(() -> RegexList.parse("public\\.a\\"))
                .hasMessageContaining("ends with a lone backslash");
    }

    @Test
    void nullIsTheEmptyList() {
        assertThat(RegexList.parse(null).isEmpty()).isTrue();
        assertThat(RegexList.parse(null).matches("anything")).isFalse();
    }
}

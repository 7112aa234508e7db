package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The text output of the geometric types, as geo_ops.c prints it, read into numbers. */
class GeometricTextTest {

    @Test
    void readsAPointAndEveryFloat8Spelling() {
        assertThat(GeometricText.point("(1.5,-2)")).containsExactly(1.5, -2.0);
        assertThat(GeometricText.point("(1e+300,-1e-300)")).containsExactly(1e300, -1e-300);
        assertThat(GeometricText.point("(NaN,-Infinity)")).containsExactly(Double.NaN, Double.NEGATIVE_INFINITY);
        assertThat(Double.doubleToRawLongBits(GeometricText.point("(-0,0)")[0])).isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    @Test
    void readsABoxAsItsTwoCornersInPrintedOrder() {
        assertThat(GeometricText.box("(2,2),(-2,-2)")).containsExactly(2.0, 2.0, -2.0, -2.0);
    }

    @Test
    void readsAnLsegInSquareBrackets() {
        assertThat(GeometricText.lseg("[(-1,-1),(1,1)]")).containsExactly(-1.0, -1.0, 1.0, 1.0);
    }

    @Test
    void readsAPathOpenInSquareBracketsAndClosedInParentheses() {
        GeometricText.Path open = GeometricText.path("[(0,0),(1,1),(2,0)]");
        assertThat(open.closed()).isFalse();
        assertThat(open.xy()).containsExactly(0.0, 0.0, 1.0, 1.0, 2.0, 0.0);
        GeometricText.Path closed = GeometricText.path("((0,0),(3,4))");
        assertThat(closed.closed()).isTrue();
        assertThat(closed.xy()).containsExactly(0.0, 0.0, 3.0, 4.0);
        assertThat(GeometricText.path("((5,6))").xy()).containsExactly(5.0, 6.0);
    }

    @Test
    void readsAPolygonOfAnyNumberOfVertices() {
        assertThat(GeometricText.polygon("((0,0),(2,0),(2,2))")).containsExactly(0.0, 0.0, 2.0, 0.0, 2.0, 2.0);
        assertThat(GeometricText.polygon("((1,2))")).containsExactly(1.0, 2.0);
        StringBuilder many = new StringBuilder("(");
        for (int i = 0; i < 100; i++) {
            many.append(i == 0 ? "" : ",").append('(').append(i).append(',').append(-i).append(')');
        }
        double[] xy = GeometricText.polygon(many.append(')').toString());
        assertThat(xy).hasSize(200);
        assertThat(xy[198]).isEqualTo(99.0);
        assertThat(xy[199]).isEqualTo(-99.0);
    }

    @Test
    void readsACircleAsCenterAndRadius() {
        assertThat(GeometricText.circle("<(1,1),0.5>")).containsExactly(1.0, 1.0, 0.5);
    }

    @Test
    void readsALineAsItsThreeCoefficients() {
        assertThat(GeometricText.line("{1,-1,0}")).containsExactly(1.0, -1.0, 0.0);
    }

    @Test
    void refusesTextThatIsNotTheTypesOutputNamingThePosition() {
        assertThatThrownBy(() -> GeometricText.box("((0,0),(1,1))")).hasMessageContaining("at position 1, found '(0'");
        assertThatThrownBy(() -> GeometricText.lseg("[(0,0)]")).hasMessageContaining("expected 2 points, found 1");
        assertThatThrownBy(() -> GeometricText.box("(0,0),(1,1),(2,2)")).hasMessageContaining("unexpected ',(2,2)'");
        assertThatThrownBy(() -> GeometricText.path("[(0,0),(1,1))")).hasMessageContaining("expected ']'");
        assertThatThrownBy(() -> GeometricText.point("( 1,2)")).hasMessageContaining("expected a number at position 1");
        assertThatThrownBy(() -> GeometricText.point("(,2)")).hasMessageContaining("expected a number");
        assertThatThrownBy(() -> GeometricText.line("{1,2}")).hasMessageContaining("expected ','");
        assertThatThrownBy(() -> GeometricText.circle("<(0,0),x>")).hasMessageContaining("expected a number at position 7");
    }
}

package io.github.pgoutput.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomValuesTest {

    @Test
    void betweenStaysInsideItsInclusiveBoundsAndReachesBoth() {
        Random random = new Random(1);
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            long value = RandomValues.between(random, 5, 9);
            assertThat(value).isBetween(5L, 9L);
            seen.add(value);
        }
        assertThat(seen).containsExactlyInAnyOrder(5L, 6L, 7L, 8L, 9L);
        for (int i = 0; i < 2000; i++) {
            assertThat(RandomValues.between(random, 1, Long.MAX_VALUE)).isPositive();
        }
    }

    @Test
    void anyLongOftenHasAZeroUpperHalfAndOftenTheSignBit() {
        Random random = new Random(2);
        int small = 0;
        int negative = 0;
        for (int i = 0; i < 1000; i++) {
            long value = RandomValues.anyLong(random);
            small += (value >>> 32) == 0 ? 1 : 0;
            negative += value < 0 ? 1 : 0;
        }
        assertThat(small).isGreaterThan(300);
        assertThat(negative).isGreaterThan(5);
    }

    @Test
    void stringHasAtMostMaxLengthCodePointsAndMixesAsciiWithOtherCharacters() {
        Random random = new Random(3);
        boolean ascii = false;
        boolean supplementary = false;
        for (int i = 0; i < 500; i++) {
            String text = RandomValues.string(random, 40);
            assertThat(text.codePointCount(0, text.length())).isLessThanOrEqualTo(40);
            ascii |= text.chars().anyMatch(c -> c >= 'a' && c <= 'z');
            supplementary |= text.codePoints().anyMatch(Character::isSupplementaryCodePoint);
        }
        assertThat(ascii).isTrue();
        assertThat(supplementary).isTrue();
    }
}

package io.github.pgoutput.connect.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.github.pgoutput.testing.RandomValues;
import io.github.pgoutput.testing.SeededProperty;

class AvroNamesTest {

    private static final String AVRO_FULL_NAME = "[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*";

    /** Names that are empty, only separators, start with a digit, or hold no character Avro allows. */
    private static final List<String> EDGE_TEXTS = List.of("", " ", ".", "..", "_", "-", "0", "1st", "\u0000", "\uD800",
            "\uDC00x", "😀", "größe", "a.b", "Sales Data");

    private static final List<String> EDGE_PREFIXES = List.of("a", ".", "..", "-", "_", "0", "9.9", "a.", ".a", "X-Z._");

    @Test
    void namesTheKeyValueAndEnvelopeSchemasOfATable() {
        AvroNames names = new AvroNames("shop");

        assertThat(names.key("public", "orders")).isEqualTo("shop.public.orders.Key");
        assertThat(names.value("public", "orders")).isEqualTo("shop.public.orders.Value");
        assertThat(names.envelope("public", "orders")).isEqualTo("shop.public.orders.Envelope");
    }

    @Test
    void sanitisesEachNameDeterministically() {
        AvroNames names = new AvroNames("prod-eu.2024..shop");

        assertThat(names.value("Sales Data", "1st.order"))
                .isEqualTo("prod_eu._2024._.shop.Sales_Data._1st_order.Value");
        assertThat(AvroNames.name("größe")).isEqualTo("gr__e");
        assertThat(AvroNames.name("")).isEqualTo("_");
        assertThat(AvroNames.name("😀")).isEqualTo("_");
    }

    @Test
    void alwaysProducesAValidAvroFullName() {
        for (String prefix : EDGE_PREFIXES) {
            for (String text : EDGE_TEXTS) {
                assertValidFullName(prefix, text, text);
            }
        }
        SeededProperty.check(1000, random -> assertValidFullName(prefix(random), RandomValues.string(random, 255),
                RandomValues.string(random, 255)));
    }

    private static void assertValidFullName(String prefix, String schema, String table) {
        String name = new AvroNames(prefix).envelope(schema, table);

        assertThat(name).matches(AVRO_FULL_NAME).endsWith(".Envelope");
        assertThat(name.split("\\.", -1)).hasSize(prefix.split("\\.", -1).length + 3);
    }

    @Test
    void leavesValidNamesUnchanged() {
        for (String name : List.of("a", "Z", "_", "a0", "_9", "snake_case_name")) {
            assertThat(AvroNames.name(name)).isEqualTo(name);
        }
        SeededProperty.check(1000, random -> {
            String name = validName(random);
            assertThat(AvroNames.name(name)).isEqualTo(name);
        });
    }

    @Test
    void isIdempotent() {
        for (String text : EDGE_TEXTS) {
            assertIdempotent(text);
        }
        SeededProperty.check(1000, random -> assertIdempotent(RandomValues.string(random, 255)));
    }

    private static void assertIdempotent(String text) {
        String once = AvroNames.name(text);

        assertThat(AvroNames.name(once)).isEqualTo(once);
    }

    /** 1 to 30 characters of {@code abcXYZ019._-}. */
    private static String prefix(Random random) {
        return fromChars(random, "abcXYZ019._-", 1 + random.nextInt(30));
    }

    /** A letter or '_', 0 to 9 more of them, then 0 to 20 lower-case letters, digits or '_'. */
    private static String validName(Random random) {
        String head = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
        String tail = "abcdefghijklmnopqrstuvwxyz0123456789_";
        return fromChars(random, head, 1 + random.nextInt(10)) + fromChars(random, tail, random.nextInt(21));
    }

    private static String fromChars(Random random, String chars, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(chars.charAt(random.nextInt(chars.length())));
        }
        return out.toString();
    }
}

package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class AvroNamesTest {

    private static final String AVRO_FULL_NAME = "[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*";

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

    @Property
    void alwaysProducesAValidAvroFullName(@ForAll("prefixes") String prefix, @ForAll String schema,
            @ForAll String table) {
        String name = new AvroNames(prefix).envelope(schema, table);

        assertThat(name).matches(AVRO_FULL_NAME).endsWith(".Envelope");
        assertThat(name.split("\\.", -1)).hasSize(prefix.split("\\.", -1).length + 3);
    }

    @Property
    void leavesValidNamesUnchanged(@ForAll("validNames") String name) {
        assertThat(AvroNames.name(name)).isEqualTo(name);
    }

    @Property
    void isIdempotent(@ForAll String text) {
        String once = AvroNames.name(text);

        assertThat(AvroNames.name(once)).isEqualTo(once);
    }

    @Provide
    Arbitrary<String> prefixes() {
        return Arbitraries.strings().withChars("abcXYZ019._-").ofMinLength(1).ofMaxLength(30);
    }

    @Provide
    Arbitrary<String> validNames() {
        return Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z').withChars('_')
                .ofMinLength(1).ofMaxLength(10)
                .flatMap(head -> Arbitraries.strings().withCharRange('a', 'z').withCharRange('0', '9').withChars('_')
                        .ofMaxLength(20).map(tail -> head + tail));
    }
}

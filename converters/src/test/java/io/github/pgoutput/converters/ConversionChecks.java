package io.github.pgoutput.converters;

import io.github.pgoutput.converters.LiveValues.Observed;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.connect.data.ConnectSchema;
import org.apache.kafka.connect.data.Struct;
import org.assertj.core.api.SoftAssertions;

/** Checks every observed case through both forms and reports all failures at once, each naming its case. */
final class ConversionChecks {

    private ConversionChecks() {
    }

    static void assertConversions(PostgresTypeMapper mapper, List<Observed> observed) {
        SoftAssertions softly = new SoftAssertions();
        for (Observed o : observed) {
            ColumnConverter converter = mapper.converterFor(o.type());
            String name = o.testCase() + " [" + o.type().describe() + ", text " + o.text() + "]";
            check(softly, name + " from text", converter, converter::fromText, o.text(), o.testCase().expected());
            if (o.testCase().binary()) {
                check(softly, name + " from binary " + ValueConversionException.hex(o.send() == null ? new byte[0] : o.send()),
                        converter, converter::fromBinary, o.send(), o.testCase().expected());
            } else if (o.send() != null) {
                softly.assertThatThrownBy(() -> converter.fromBinary(o.send()))
                        .as(name + " binary must be refused")
                        .isInstanceOf(ValueConversionException.class)
                        .hasMessageContaining(o.type().name())
                        .hasMessageContaining("'binary' option off");
            }
        }
        softly.assertAll();
    }

    private static <T> void check(SoftAssertions softly, String name, ColumnConverter converter, Function<T, Object> convert,
                                  T input, Object expected) {
        if (expected instanceof TypeCase.Failure failure) {
            softly.assertThatThrownBy(() -> convert.apply(input)).as(name)
                    .isInstanceOf(ValueConversionException.class)
                    .hasMessageContaining(failure.fragment());
            return;
        }
        Object actual;
        try {
            actual = convert.apply(input);
        } catch (RuntimeException e) {
            softly.fail(name + " threw " + e);
            return;
        }
        softly.assertThat(comparable(actual)).as(name).isEqualTo(comparable(expected));
        try {
            ConnectSchema.validateValue(converter.schema(true), actual);
            if (actual != null) {
                ConnectSchema.validateValue(converter.schema(false), actual);
            }
        } catch (RuntimeException e) {
            softly.fail(name + ": value " + actual + " is not valid for its schema: " + e.getMessage());
        }
    }

    /** byte[] and Struct compared by content, also inside lists. */
    static Object comparable(Object value) {
        if (value instanceof byte[] bytes) {
            return "bytes" + Arrays.toString(bytes);
        }
        if (value instanceof Struct struct && struct.schema().name().equals(SchemaNames.VARIABLE_SCALE_DECIMAL)) {
            return "VariableScaleDecimal(" + VariableScaleDecimal.toDecimal(struct).toPlainString() + ", scale "
                    + struct.getInt32("scale") + ")";
        }
        if (value instanceof List<?> list) {
            return list.stream().map(ConversionChecks::comparable).toList();
        }
        return value;
    }
}

package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.github.pgoutput.connect.config.ConfigChoices;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The connect layer parses enum-valued keys straight into the enums of the layers that use them (see
 * {@link ConfigChoices}); it declares no copy of such an enum, by name or by constants, to be mapped back and forth.
 * Nested enums count too (a lifecycle outcome mirrored {@code Delivery.Kind} until it became that enum).
 */
class OneEnumPerConceptTest {

    private static final String CONNECT = "io.github.pgoutput.connect";

    private static final JavaClasses MAIN_CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.github.pgoutput");

    @Test
    void connectDeclaresNoEnumThatMirrorsAnEnumOfTheLayersBelow() {
        Map<Boolean, List<JavaClass>> enumsByConnect = MAIN_CLASSES.stream()
                .filter(JavaClass::isEnum)
                .collect(Collectors.partitioningBy(c -> c.getPackageName().startsWith(CONNECT)));
        List<JavaClass> below = enumsByConnect.get(false);
        assertThat(below).as("the layers' enums were imported").isNotEmpty();
        Set<String> namesBelow = below.stream().map(JavaClass::getSimpleName).collect(Collectors.toSet());
        Set<Set<String>> constantsBelow = below.stream().map(OneEnumPerConceptTest::constants).collect(Collectors.toSet());

        for (JavaClass connectEnum : enumsByConnect.get(true)) {
            assertThat(namesBelow).as("an enum of a layer below is named like %s", connectEnum.getName())
                    .doesNotContain(connectEnum.getSimpleName());
            assertThat(constantsBelow).as("an enum of a layer below has the constants of %s", connectEnum.getName())
                    .doesNotContain(constants(connectEnum));
        }
    }

    private static Set<String> constants(JavaClass type) {
        return Arrays.stream(type.reflect().getEnumConstants()).map(c -> ((Enum<?>) c).name()).collect(Collectors.toSet());
    }
}

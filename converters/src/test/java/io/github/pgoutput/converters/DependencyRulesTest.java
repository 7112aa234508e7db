package io.github.pgoutput.converters;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The converters run inside the connector with connect-api as their only dependency. */
class DependencyRulesTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.github.pgoutput.converters");

    @Test
    void useNothingButTheJdkAndConnectApi() {
        noClasses().should().dependOnClassesThat()
                .resideOutsideOfPackages("java..", "org.apache.kafka.connect.data..", "org.apache.kafka.connect.errors..",
                        "io.github.pgoutput.converters..")
                .check(MAIN);
    }

    @Test
    void doNotTouchJdbcOrTheConnector() {
        noClasses().should().dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "org.postgresql..", "io.github.pgoutput.pgoutput..", "io.github.pgoutput.connect..")
                .check(MAIN);
    }
}

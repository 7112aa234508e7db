package io.github.pgoutput.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The assembly layer is pure (no Kafka, no JDBC, no I/O libraries); the spill knows JDBC but not Kafka. */
class AssemblyAndSpillDependencyRulesTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.github.pgoutput.assembly", "io.github.pgoutput.spill");

    @Test
    void assemblyDependsOnNeitherKafkaNorJdbcNorFiles() {
        noClasses().that().resideInAPackage("io.github.pgoutput.assembly..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "java.sql..", "org.postgresql..",
                        "java.nio.file..", "java.io..", "io.github.pgoutput.replication..", "io.github.pgoutput.connect..")
                .check(PRODUCTION);
    }

    @Test
    void spillDependsOnNeitherKafkaNorTheAssembly() {
        noClasses().that().resideInAPackage("io.github.pgoutput.spill..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "io.github.pgoutput.assembly..",
                        "io.github.pgoutput.replication..", "io.github.pgoutput.connect..")
                .check(PRODUCTION);
    }
}

package io.github.pgoutput.assembly;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Dependencies inside the assembly package, checked on the compiled main classes. */
@AnalyzeClasses(packages = "io.github.pgoutput.assembly", importOptions = ImportOption.DoNotIncludeTests.class)
class AssemblyDependencyTest {

    @ArchTest
    static final ArchRule nothingCallsBackIntoTheAssembler = noClasses()
            .that().resideInAPackage("io.github.pgoutput.assembly..")
            .and().doNotHaveSimpleName(TransactionAssembler.class.getSimpleName())
            .should().dependOnClassesThat().areAssignableTo(TransactionAssembler.class)
            .because("the assembler builds the cursors and held transactions; what they share with it is in"
                    + " AssemblyContext, so the dependency runs one way");
}

package io.github.pgoutput;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.github.pgoutput.snapshot.ChunkReader;
import io.github.pgoutput.snapshot.ExportedSnapshot;
import io.github.pgoutput.snapshot.IncrementalSnapshot;
import io.github.pgoutput.snapshot.InitialSnapshot;
import io.github.pgoutput.snapshot.PrefetchedChunks;
import io.github.pgoutput.snapshot.ResumedRows;
import io.github.pgoutput.snapshot.ResumedSnapshotChanges;
import io.github.pgoutput.snapshot.SnapshotPlanner;
import io.github.pgoutput.snapshot.SnapshotReader;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The package rules of the connector, checked on the compiled main classes. Pure layers stay free of Kafka and
 * JDBC so they can be tested and reasoned about without either. A rule whose classes are missing fails (ArchUnit's
 * default), so a renamed package cannot make a rule pass by matching nothing.
 */
@AnalyzeClasses(packages = "io.github.pgoutput", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule decoderDependsOnTheJdkOnly = classes()
            .that().resideInAPackage("io.github.pgoutput.pgoutput..")
            .should().onlyDependOnClassesThat(resideInAnyPackage("java..", "io.github.pgoutput.pgoutput..")
                    .and(not(resideInAnyPackage("java.sql..", "java.net.."))))
            .because("the decoder is pure: bytes in, messages out, java.* only and no JDBC or network");

    @ArchTest
    static final ArchRule assemblyIsFreeOfKafkaAndJdbc = noClasses()
            .that().resideInAPackage("io.github.pgoutput.assembly..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "org.postgresql..", "java.sql..")
            .because("transaction assembly is pure logic over decoded messages");

    @ArchTest
    static final ArchRule assemblyDoesNoIo = noClasses()
            .that().resideInAPackage("io.github.pgoutput.assembly..")
            .should().dependOnClassesThat().resideInAnyPackage("java.io..", "java.nio.file..", "java.nio.channels..", "java.net..")
            .because("the assembler does no I/O: bytes it must keep go through the TransactionSpill SPI");

    @ArchTest
    static final ArchRule spillKnowsNothingOfAssembly = noClasses()
            .that().resideInAPackage("io.github.pgoutput.spill..")
            .should().dependOnClassesThat().resideInAPackage("io.github.pgoutput.assembly..")
            .because("the spill stores opaque payloads; the assembler builds on it, not the other way round");

    @ArchTest
    static final ArchRule spillIsFreeOfKafka = noClasses()
            .that().resideInAPackage("io.github.pgoutput.spill..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("spill backends store transactions, they do not speak Kafka (java.sql is allowed for the database backend)");

    @ArchTest
    static final ArchRule toastIsFreeOfKafkaAndJdbc = noClasses()
            .that().resideInAPackage("io.github.pgoutput.toast..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "org.postgresql..")
            .orShould().dependOnClassesThat().belongToAnyOf(java.sql.Statement.class, java.sql.PreparedStatement.class,
                    java.sql.ResultSet.class, java.sql.Connection.class, java.sql.DriverManager.class)
            .because("unchanged TOAST resolution is logic over decoded changes and its own store; its one query is in"
                    + " replication (CurrentRowReader), reached through the CurrentRows interface");

    @ArchTest
    static final ArchRule replicationIsFreeOfKafka = noClasses()
            .that().resideInAPackage("io.github.pgoutput.replication..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("replication I/O talks to PostgreSQL only");

    @ArchTest
    static final ArchRule onlyConnectImportsKafka = noClasses()
            // converters is its own module, built on connect-api by design, and testing (test support, which starts
            // brokers and workers) is on the test class path; both show up here as dependencies.
            .that().resideOutsideOfPackages("io.github.pgoutput.connect..", "io.github.pgoutput.converters..",
                    "io.github.pgoutput.testing..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("io.github.pgoutput.connect is the only package that imports org.apache.kafka");

    @ArchTest
    static final ArchRule connectWritesNoSql = noClasses()
            .that().resideInAPackage("io.github.pgoutput.connect..")
            .should().dependOnClassesThat().belongToAnyOf(java.sql.Statement.class, java.sql.PreparedStatement.class,
                    java.sql.CallableStatement.class, java.sql.ResultSet.class, java.sql.DriverManager.class)
            .because("SQL lives below connect: slots, publications, catalog queries and probes in replication, the"
                    + " snapshot's queries in snapshot; connect calls them and may only see SQLException");

    @ArchTest
    static final ArchRule connectHoldsNoConnectionButTheSpills = noClasses()
            .that().resideInAPackage("io.github.pgoutput.connect..")
            .and().doNotHaveSimpleName("PostgresPipeline")
            .should().dependOnClassesThat().belongToAnyOf(java.sql.Connection.class)
            .because("connect opens no connection itself; the one exception is the production pipeline, which hands"
                    + " the database spill its way of opening connections (the spill's own SourceConnections)");

    @ArchTest
    static final ArchRule connectReachesSnapshotsThroughOneDoor = noClasses()
            .that().resideInAPackage("io.github.pgoutput.connect..")
            .should().dependOnClassesThat(exactly(InitialSnapshot.class, SnapshotReader.class, SnapshotPlanner.class, ChunkReader.class,
                    PrefetchedChunks.class, ResumedRows.class, ExportedSnapshot.class))
            .orShould().callConstructorWhere(target(owner(exactly(IncrementalSnapshot.class, ResumedSnapshotChanges.class))))
            .because("snapshots of every kind (the start-up decision, initial and resumable, a resumed snapshot's"
                    + " changes, incremental snapshots with their signals and new tables) are reached through"
                    + " io.github.pgoutput.snapshot.Snapshots, which takes and returns plain values (the values nested"
                    + " in these classes included); connect turns what it returns into records and offsets");

    /** The classes {@code types} themselves, not the classes nested in them. */
    private static DescribedPredicate<JavaClass> exactly(Class<?>... types) {
        Set<String> names = Arrays.stream(types).map(Class::getName).collect(Collectors.toSet());
        return DescribedPredicate.describe("are exactly one of " + names, c -> names.contains(c.getName()));
    }

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("io.github.pgoutput.(**)")
            .should().beFreeOfCycles()
            .because("each package builds on those below it: connect on config, record, offsets and shaping; config"
                    + " on the values of record and shaping; all of them on the pure layers. A cycle would make one"
                    + " floor impossible to understand, test or change without the other");
}

package io.github.pgoutput.testing;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

/**
 * The JUnit 5 extension behind {@link PostgresTest}: one shared server per major version per test JVM (kept in the
 * root extension store, which closes it when the run ends), and one fresh database per test invocation.
 */
public final class PostgresExtension implements TestTemplateInvocationContextProvider {

    /** System property listing the major versions to test, comma-separated. */
    public static final String VERSIONS_PROPERTY = "pg.versions";

    /**
     * System property choosing how {@link PostgresTest#representative()} is read: {@code representative} (the
     * default) runs such a test on its one version, {@code full} on every selected version.
     */
    public static final String MATRIX_PROPERTY = "pg.matrix";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(PostgresExtension.class);
    private static final AtomicInteger DATABASE_COUNTER = new AtomicInteger();

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().map(m -> m.isAnnotationPresent(PostgresTest.class)).orElse(false);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        PostgresTest annotation = method.getAnnotation(PostgresTest.class);
        List<Integer> versions = versionsToRun(method.getDeclaringClass().getSimpleName() + "." + method.getName(),
                annotation, selectedVersions(), fullMatrix());
        return versions.stream().map(version -> new Invocation(version, annotation));
    }

    /**
     * The versions {@code annotation} runs on, given the {@code selected} ones: those within its min/max, or, unless
     * {@code fullMatrix}, only its representative (the nearest selected one when the representative is not selected).
     *
     * @throws IllegalStateException naming {@code test} when no selected version fits, or the representative lies
     *     outside the test's own min/max or the supported versions
     */
    static List<Integer> versionsToRun(String test, PostgresTest annotation, List<Integer> selected, boolean fullMatrix) {
        int representative = annotation.representative();
        if (representative != 0 && (!PostgresInstallation.SUPPORTED_MAJORS.contains(representative)
                || representative < annotation.minVersion() || representative > annotation.maxVersion())) {
            throw new IllegalStateException(test + " names representative = " + representative + ", which is not a supported version "
                    + PostgresInstallation.SUPPORTED_MAJORS + " within its minVersion " + annotation.minVersion()
                    + " and maxVersion " + annotation.maxVersion());
        }
        List<Integer> fitting = selected.stream()
                .filter(v -> v >= annotation.minVersion() && v <= annotation.maxVersion())
                .toList();
        if (fitting.isEmpty()) {
            throw new IllegalStateException(test + " needs PostgreSQL " + annotation.minVersion()
                    + (annotation.maxVersion() == Integer.MAX_VALUE ? "+" : " to " + annotation.maxVersion())
                    + " but -D" + VERSIONS_PROPERTY + " selects only " + selected);
        }
        if (representative == 0 || fullMatrix) {
            return fitting;
        }
        int nearest = fitting.get(0);
        for (int version : fitting) {
            int distance = Math.abs(version - representative);
            int best = Math.abs(nearest - representative);
            if (distance < best || (distance == best && version > nearest)) {
                nearest = version;
            }
        }
        return List.of(nearest);
    }

    /** Whether {@code -Dpg.matrix=full} asks for every test on every selected version. */
    public static boolean fullMatrix() {
        String property = System.getProperty(MATRIX_PROPERTY, "").trim();
        if (property.isEmpty() || property.equals("representative")) {
            return false;
        }
        if (property.equals("full")) {
            return true;
        }
        throw new IllegalStateException("-D" + MATRIX_PROPERTY + "=" + property + " is neither 'representative' (the default: "
                + "tests that name a representative version run on it only) nor 'full' (every test on every selected version)");
    }

    /** The versions chosen with {@code -Dpg.versions}, default all supported ones. */
    public static List<Integer> selectedVersions() {
        String property = System.getProperty(VERSIONS_PROPERTY, "");
        if (property.isBlank()) {
            return PostgresInstallation.SUPPORTED_MAJORS;
        }
        try {
            List<Integer> versions = Arrays.stream(property.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Integer::valueOf).toList();
            for (Integer version : versions) {
                if (!PostgresInstallation.SUPPORTED_MAJORS.contains(version)) {
                    throw new IllegalArgumentException("unsupported version " + version);
                }
            }
            return versions;
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("-D" + VERSIONS_PROPERTY + "=" + property + " is not a comma-separated list of "
                    + PostgresInstallation.SUPPORTED_MAJORS, e);
        }
    }

    /** The shared server of {@code version} for this test run, started on first use. */
    public static PostgresCluster sharedCluster(ExtensionContext context, int version) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent("cluster-" + version, key -> PostgresCluster.start(version, Map.of()), PostgresCluster.class);
    }

    private static final class Invocation implements TestTemplateInvocationContext {
        private final int version;
        private final PostgresTest annotation;

        Invocation(int version, PostgresTest annotation) {
            this.version = version;
            this.annotation = annotation;
        }

        @Override
        public String getDisplayName(int invocationIndex) {
            return "PostgreSQL " + version;
        }

        @Override
        public List<Extension> getAdditionalExtensions() {
            return List.of(new DatabasePerInvocation(version, annotation));
        }
    }

    private static final class DatabasePerInvocation implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
        private final int version;
        private final PostgresTest annotation;

        DatabasePerInvocation(int version, PostgresTest annotation) {
            this.version = version;
            this.annotation = annotation;
        }

        @Override
        public void beforeEach(ExtensionContext context) {
            PostgresCluster cluster = sharedCluster(context, version);
            String name = "test_" + ProcessHandle.current().pid() + "_" + DATABASE_COUNTER.incrementAndGet();
            cluster.createDatabase(name);
            PostgresDatabase database = new PostgresDatabase(cluster, name);
            if (!annotation.logicalDecodingWorkMem().isEmpty()) {
                database.setDefault("logical_decoding_work_mem", annotation.logicalDecodingWorkMem());
            }
            context.getStore(NAMESPACE).put(PostgresDatabase.class, database);
        }

        @Override
        public void afterEach(ExtensionContext context) {
            PostgresDatabase database = context.getStore(NAMESPACE).remove(PostgresDatabase.class, PostgresDatabase.class);
            if (database != null && database.cluster().isRunning()) {
                database.cluster().dropDatabase(database.name());
            }
        }

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            Class<?> type = parameter.getParameter().getType();
            return type == PostgresDatabase.class || type == PostgresCluster.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            PostgresDatabase database = context.getStore(NAMESPACE).get(PostgresDatabase.class, PostgresDatabase.class);
            if (database == null) {
                throw new ParameterResolutionException("no test database was created for " + context.getDisplayName());
            }
            return parameter.getParameter().getType() == PostgresCluster.class ? database.cluster() : database;
        }
    }
}

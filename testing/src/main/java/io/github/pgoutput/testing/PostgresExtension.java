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
        List<Integer> versions = selectedVersions().stream()
                .filter(v -> v >= annotation.minVersion() && v <= annotation.maxVersion())
                .toList();
        if (versions.isEmpty()) {
            throw new IllegalStateException(method.getName() + " needs PostgreSQL " + annotation.minVersion() + "+ but -D"
                    + VERSIONS_PROPERTY + " selects only " + selectedVersions());
        }
        return versions.stream().map(version -> new Invocation(version, annotation));
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

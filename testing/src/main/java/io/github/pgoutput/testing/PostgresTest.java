package io.github.pgoutput.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test once per PostgreSQL major version selected by the system property {@code pg.versions}
 * (default {@code 15,16,17,18}), each time against a fresh {@link PostgresDatabase} on a server of that version.
 * Parameters of type {@link PostgresDatabase} and {@link PostgresCluster} are injected.
 *
 * <p>A slow test names a {@link #representative()} version: the ordinary build runs it on that version only, and
 * {@code -Dpg.matrix=full} ({@code .ci/nightly}) runs it on every selected version like any other test.
 *
 * <p>The servers are started once per test JVM and stopped and deleted when it finishes, also when tests fail.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@TestTemplate
@ExtendWith(PostgresExtension.class)
public @interface PostgresTest {

    /** The lowest major version this behaviour exists on; older selected versions are not run. */
    int minVersion() default 15;

    /** The highest major version this behaviour exists on. */
    int maxVersion() default Integer.MAX_VALUE;

    /**
     * The one major version the ordinary build runs this test on; {@code 0} (the default): every selected version.
     * Slow tests (a Connect worker, millions of rows) set it so that each runs once per build while the set of them
     * covers every supported version. When {@code -Dpg.versions} leaves it out, the selected version within
     * {@link #minVersion()}..{@link #maxVersion()} nearest to it runs instead (the higher one on a tie), so a narrowed
     * run still runs the test once. {@code -Dpg.matrix=full} ignores it.
     */
    int representative() default 0;

    /**
     * {@code logical_decoding_work_mem} for every session of the test database, walsenders included;
     * {@code 64kB} (the minimum) makes PostgreSQL stream transactions of a few hundred rows. Empty: server default.
     */
    String logicalDecodingWorkMem() default "";
}

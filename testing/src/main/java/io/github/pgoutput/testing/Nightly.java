package io.github.pgoutput.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Puts a test class or method in the nightly tier ({@code .ci/nightly}) instead of {@code mvn verify}: long
 * scenarios (a soak, worker kills at scale, million-row and small-heap variants, the failover family) whose
 * correctness-critical core the fast tier keeps in a shorter test. The JUnit tag is {@value #TAG}; docs/testing.md
 * lists what each tier holds and why.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(Nightly.TAG)
public @interface Nightly {

    /** The JUnit tag of the nightly tier, excluded by default in the parent POM's surefire and failsafe setup. */
    String TAG = "nightly";
}

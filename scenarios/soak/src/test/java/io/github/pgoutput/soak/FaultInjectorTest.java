package io.github.pgoutput.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class FaultInjectorTest {

    private static Map<FaultKind, Integer> owed(Object... kindsAndCounts) {
        Map<FaultKind, Integer> owed = new EnumMap<>(FaultKind.class);
        for (FaultKind kind : FaultKind.values()) {
            owed.put(kind, 0);
        }
        for (int i = 0; i < kindsAndCounts.length; i += 2) {
            owed.put((FaultKind) kindsAndCounts[i], (Integer) kindsAndCounts[i + 1]);
        }
        return owed;
    }

    @Test
    void theMostOwedKindIsTriedFirstSoThatAnOftenAvailableKindCannotStarveIt() {
        assertThat(FaultInjector.mostOwedFirst(owed(FaultKind.WORKER_KILL, 1, FaultKind.BROKER_KILL, 5, FaultKind.WALSENDER_TERMINATE, 2)))
                .containsExactly(FaultKind.BROKER_KILL, FaultKind.WALSENDER_TERMINATE, FaultKind.WORKER_KILL);
    }

    @Test
    void kindsOwedEquallyKeepTheirDeclarationOrderAndKindsNotOwedAreLeftOut() {
        assertThat(FaultInjector.mostOwedFirst(owed(FaultKind.BROKER_KILL, 3, FaultKind.WORKER_KILL, 3)))
                .containsExactly(FaultKind.WORKER_KILL, FaultKind.BROKER_KILL);
        assertThat(FaultInjector.mostOwedFirst(owed())).isEmpty();
    }
}

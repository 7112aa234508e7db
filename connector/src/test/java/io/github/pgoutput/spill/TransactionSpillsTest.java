package io.github.pgoutput.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionSpillsTest {

    @TempDir
    Path temp;

    private SpillContext context(String backend) {
        SourceConnections none = () -> {
            throw new SQLException("no database in this test");
        };
        return new SpillContext("slot", SpillSettings.defaults("slot").withDirectory(temp).withBackend(backend), none);
    }

    @Test
    void diskIsTheDefaultBackend() {
        assertThat(SpillSettings.defaults("slot").backend()).isEqualTo("disk");
        try (TransactionSpill spill = TransactionSpills.open(context("disk"))) {
            assertThat(spill).isInstanceOf(DiskSpill.class);
        }
    }

    /** A custom backend as a user would write one: it wraps the disk backend. */
    public static final class WrappingFactory implements TransactionSpillFactory {
        static SpillContext seen;

        @Override
        public TransactionSpill open(SpillContext context) {
            seen = context;
            return DiskSpill.open(context.slotName(), context.settings());
        }
    }

    @Test
    void opensACustomBackendNamedByItsFactoryClass() {
        SpillContext context = context(WrappingFactory.class.getName());

        try (TransactionSpill spill = TransactionSpills.open(context)) {
            assertThat(spill).isInstanceOf(DiskSpill.class);
            assertThat(WrappingFactory.seen).isSameAs(context);
        }
    }

    @Test
    void unknownBackendNameFailsListingTheBuiltInOnes() {
        assertThatThrownBy(() -> TransactionSpills.open(context("nosuch"))).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.backend 'nosuch'").hasMessageContaining("[database, disk]");
    }

    @Test
    void classThatIsNoFactoryFailsNamingTheInterface() {
        assertThatThrownBy(() -> TransactionSpills.open(context(String.class.getName()))).isInstanceOf(SpillException.class)
                .hasMessageContaining(TransactionSpillFactory.class.getName());
    }

    /** Set by the static initialisers below: proof that the class was initialised. */
    static final AtomicBoolean INITIALISED = new AtomicBoolean();

    /** Not a backend, with a static initialiser that has a side effect. */
    public static final class NotAFactoryWithSideEffect {
        static {
            INITIALISED.set(true);
        }
    }

    @Test
    void classThatIsNoFactoryIsRefusedWithoutRunningItsStaticInitialiser() {
        String name = NotAFactoryWithSideEffect.class.getName();

        assertThatThrownBy(() -> TransactionSpills.open(context(name))).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.backend").hasMessageContaining(name)
                .hasMessageContaining(TransactionSpillFactory.class.getName());
        assertThat(INITIALISED).as("static initialiser of " + name + " ran").isFalse();
    }

    /** A backend whose static initialiser throws. */
    public static final class FactoryFailingToInitialise implements TransactionSpillFactory {
        static {
            fail();
        }

        private static void fail() {
            throw new IllegalStateException("no licence file");
        }

        @Override
        public TransactionSpill open(SpillContext context) {
            throw new AssertionError("never created");
        }
    }

    @Test
    void factoryWhoseStaticInitialiserThrowsFailsNamingTheKeyTheClassAndTheCause() {
        String name = FactoryFailingToInitialise.class.getName();

        assertThatThrownBy(() -> TransactionSpills.open(context(name))).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.backend class " + name).hasMessageContaining("no licence file");
    }
}

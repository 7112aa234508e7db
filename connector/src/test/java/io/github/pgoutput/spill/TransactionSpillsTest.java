package io.github.pgoutput.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.SQLException;
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
            return DiskSpill.open(context.settings());
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
}

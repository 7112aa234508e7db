package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresExtension;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shared {@link TransactionSpillContract} for the {@code database} backend, once per selected PostgreSQL version
 * ({@code -Dpg.versions}), each test on a fresh database of the shared server of that version.
 */
@ParameterizedClass(name = "PostgreSQL {0}")
@MethodSource("versions")
@Timeout(60)
class DatabaseSpillContractIT extends TransactionSpillContract {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    @Parameter
    int version;

    private PostgresDatabase database;

    static List<Integer> versions() {
        return PostgresExtension.selectedVersions();
    }

    @RegisterExtension
    final FreshDatabase freshDatabase = new FreshDatabase();

    /** A database per test on the version's shared server, dropped afterwards. */
    final class FreshDatabase implements BeforeEachCallback, AfterEachCallback {
        @Override
        public void beforeEach(ExtensionContext context) {
            PostgresCluster cluster = PostgresExtension.sharedCluster(context, version);
            String name = "spill_contract_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
            cluster.createDatabase(name);
            database = new PostgresDatabase(cluster, name);
        }

        @Override
        public void afterEach(ExtensionContext context) {
            database.cluster().dropDatabase(database.name());
        }
    }

    @Override
    protected SpillSettings settings() {
        return SpillSettings.defaults("contract_slot").withBackend(SpillSettings.DATABASE_BACKEND).withMemoryBufferBytes(1024);
    }

    @Override
    protected TransactionSpill open(SpillSettings settings) {
        return TransactionSpills.open(new SpillContext("contract_slot", settings, database::connect));
    }

    private static String table() {
        return "\"" + SpillSettings.DEFAULT_DATABASE_SCHEMA + "\".contract_slot";
    }

    @Override
    protected void truncateStored(TransactionSpill spill, Xid xid) {
        database.execute("DELETE FROM " + table() + " WHERE xid = " + xid.value() + " AND seq = (SELECT max(seq) FROM "
                + table() + " WHERE xid = " + xid.value() + ")");
    }

    @Override
    protected void corruptStored(TransactionSpill spill, Xid xid) {
        // Flip a bit in the last row's payload: the first row is intact, so a reader that did not check every row
        // first would hand it out before noticing.
        database.execute("UPDATE " + table() + " SET payload = set_byte(payload, 0, get_byte(payload, 0) # 1) WHERE xid = "
                + xid.value() + " AND seq = (SELECT max(seq) FROM " + table() + " WHERE xid = " + xid.value() + ")");
    }

    @Override
    protected void removeStored(TransactionSpill spill, Xid xid) {
        database.execute("DELETE FROM " + table() + " WHERE xid = " + xid.value());
    }
}

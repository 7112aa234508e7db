package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** What an exported snapshot leaves behind once closed. */
class ExportedSnapshotIT {

    @PostgresTest
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aTemporarySlotIsGoneWhenCloseReturnsSoTheNameCanBeTakenAgainAtOnce(PostgresDatabase db) throws Exception {
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "again_slot", "pub");
        // Asked on a connection already open, so the question reaches the server within a millisecond of the close:
        // before the fix the walsender was usually still exiting then, holding the slot.
        try (Connection sql = db.connect();
             PreparedStatement slots = sql.prepareStatement("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'again_slot'")) {
            for (int run = 0; run < 200; run++) {
                ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
                exported.close();
                try (ResultSet rs = slots.executeQuery()) {
                    rs.next();
                    assertThat(rs.getInt(1)).as("slots named again_slot right after close, run %d", run).isZero();
                }
            }
        }
    }

    @PostgresTest
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aPermanentSlotStaysAfterClose(PostgresDatabase db) throws Exception {
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "kept_slot", "pub");
        ExportedSnapshot exported = ExportedSnapshot.create(settings, false, Duration.ofSeconds(30));
        exported.close();
        assertThat(db.queryValue("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'kept_slot' AND NOT temporary"))
                .isEqualTo("1");
    }
}

package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.testing.PostgresDatabase;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Small helpers shared by the live snapshot tests. */
final class SnapshotTestSupport {

    private SnapshotTestSupport() {
    }

    static ReplicationSettings settings(PostgresDatabase db, String slot, String publication) {
        return ReplicationSettings.builder(db.host(), db.port(), db.name(), db.user(), slot, publication)
                .statusInterval(Duration.ofMillis(200)).build();
    }

    static SnapshotReader start(ReplicationSettings settings, ExportedSnapshot exported, List<TableName> tables, SnapshotSettings snapshot) {
        return SnapshotReader.start(() -> PgConnections.openSql(settings), exported.snapshotName(), tables, settings.user(), snapshot);
    }

    /** Pulls every row until the reader is finished. */
    static List<SnapshotRow> readAll(SnapshotReader reader) throws InterruptedException {
        List<SnapshotRow> rows = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (!reader.finished()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("snapshot did not finish; " + rows.size() + " rows so far");
            }
            SnapshotRow row = reader.next(Duration.ofMillis(200));
            if (row != null) {
                rows.add(row);
            }
        }
        return rows;
    }
}

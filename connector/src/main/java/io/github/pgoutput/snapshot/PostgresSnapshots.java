package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.TableName;
import java.sql.SQLException;
import java.util.List;

/** {@link Snapshots} on a live server: each call reads the catalog and the slot afresh. */
final class PostgresSnapshots implements Snapshots {

    private final Scope scope;

    PostgresSnapshots(Scope scope) {
        this.scope = scope;
    }

    @Override
    public SnapshotPlan plan(StoredOffset stored) throws SQLException {
        return InitialSnapshot.plan(scope.replication(), scope.mode(), stored, scope.resumable());
    }

    @Override
    public InitialSnapshotRun initial(SnapshotPlan plan, boolean temporary, boolean takenAgain) throws SQLException {
        InitialSnapshot snapshot = InitialSnapshot.start(scope.replication(), plan, temporary, scope.captured(), scope.captureOrder(),
                scope.reading(), scope.slotCreationTimeout(), scope.resumable());
        // A resumed snapshot continues one whose rows stay in Kafka: no truncates before its rows.
        return new InitialSnapshotRun(snapshot, takenAgain && plan.resumeFrom() == null);
    }

    @Override
    public ResumedSnapshotChanges resumedChanges(String fingerprint, List<ResumableProgress.Resume> resumes) throws SQLException {
        ResumedRows rows = InitialSnapshot.resumedRows(scope.replication(), scope.captured(), scope.captureOrder(), scope.reading(),
                fingerprint, resumes);
        return new ResumedSnapshotChanges(resumes.get(resumes.size() - 1).readAt(), rows);
    }

    @Override
    public IncrementalSnapshot.Chunks incrementalChunks() {
        ChunkReader reader = new ChunkReader(scope.replication());
        return new PrefetchedChunks(new IncrementalSnapshot.Chunks() {
            @Override
            public List<TableName> capturedTables() throws SQLException {
                return reader.capturedTables(scope.captured(), scope.captureOrder());
            }

            @Override
            public ChunkReader.Chunk read(TableName table, List<String> after, int size, String condition) throws SQLException {
                return reader.read(table, after, size, condition);
            }

            @Override
            public void close() {
                reader.close();
            }
        });
    }
}

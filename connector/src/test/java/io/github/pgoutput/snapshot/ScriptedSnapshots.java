package io.github.pgoutput.snapshot;

import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@link Snapshots} for tests of the task without a server: the start-up decision from a function of the stored
 * offset, incremental snapshots over scripted chunks; an initial snapshot is asked for through {@link #initial}'s
 * script, which by default fails as a server would be needed. Resumed snapshots are not scripted.
 */
public final class ScriptedSnapshots implements Snapshots {

    /** The start-up decision for a stored offset. */
    @FunctionalInterface
    public interface Planner {
        SnapshotPlan plan(StoredOffset stored) throws SQLException;
    }

    /** What an initial snapshot asked for does. */
    @FunctionalInterface
    public interface Initial {
        InitialSnapshotRun start(SnapshotPlan plan, boolean temporary, boolean takenAgain) throws SQLException;
    }

    private final Planner planner;
    private final Supplier<IncrementalSnapshot.Chunks> chunks;
    private final Initial initial;

    public ScriptedSnapshots(Planner planner, Supplier<IncrementalSnapshot.Chunks> chunks, Initial initial) {
        this.planner = Objects.requireNonNull(planner, "planner");
        this.chunks = Objects.requireNonNull(chunks, "chunks");
        this.initial = Objects.requireNonNull(initial, "initial");
    }

    /** Incremental snapshots over {@code chunks}; no start-up decision and no initial snapshot. */
    public static ScriptedSnapshots incrementalOver(IncrementalSnapshot.Chunks chunks) {
        return new ScriptedSnapshots(stored -> {
            throw new IllegalStateException("not scripted: the start-up decision");
        }, () -> chunks, (plan, temporary, takenAgain) -> {
            throw new IllegalStateException("not scripted: an initial snapshot");
        });
    }

    @Override
    public SnapshotPlan plan(StoredOffset stored) throws SQLException {
        return planner.plan(stored);
    }

    @Override
    public InitialSnapshotRun initial(SnapshotPlan plan, boolean temporary, boolean takenAgain) throws SQLException {
        return initial.start(plan, temporary, takenAgain);
    }

    @Override
    public ResumedSnapshotChanges resumedChanges(String fingerprint, List<ResumableProgress.Resume> resumes) {
        throw new IllegalStateException("not scripted: a resumed snapshot, yet an offset names its resumptions: " + resumes);
    }

    @Override
    public IncrementalSnapshot.Chunks incrementalChunks() {
        return chunks.get();
    }
}

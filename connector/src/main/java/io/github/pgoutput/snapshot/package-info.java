/**
 * Snapshots of every kind, JDBC only and no Kafka (the {@code connect} package turns their rows into records), behind
 * one door, {@link io.github.pgoutput.snapshot.Snapshots}, which takes and returns plain values:
 * <ul>
 *   <li>{@link io.github.pgoutput.snapshot.Snapshots#plan}: the start-up decision of {@code snapshot.mode};</li>
 *   <li>{@link io.github.pgoutput.snapshot.Snapshots#initial}: the initial snapshot, resumable (exactly-once) or not,
 *       as an {@link io.github.pgoutput.snapshot.InitialSnapshotRun} of truncates and rows;</li>
 *   <li>{@link io.github.pgoutput.snapshot.Snapshots#resumedChanges}: after a resumed snapshot, which streamed changes
 *       its rows already hold ({@link io.github.pgoutput.snapshot.ResumedSnapshotChanges});</li>
 *   <li>{@link io.github.pgoutput.snapshot.Snapshots#incremental}: incremental snapshots while streaming
 *       ({@link io.github.pgoutput.snapshot.IncrementalSnapshot}), their signals (table, logical message, the Kafka
 *       topic's records as the connector hands them over) and newly captured tables.</li>
 * </ul>
 * The connector's ArchitectureTest keeps {@code connect} off the mechanisms behind the door.
 *
 * <p>Behind the door, an initial snapshot goes in this order:
 * <ol>
 *   <li>{@link io.github.pgoutput.snapshot.InitialSnapshot#plan} with {@code snapshot.mode} and the stored offset: it
 *       reads the slot and asks {@link io.github.pgoutput.snapshot.SnapshotPlanner#decide}, which returns what to do,
 *       or a {@code MODE_CONFLICT} error naming the mode to choose, or a {@code SLOT_NOT_OWNED} error when a snapshot
 *       would have to drop a slot not shown to be the connector's own, or {@code SLOT_ACTIVE} while a walsender still
 *       holds the connector's own slot.</li>
 *   <li>For a snapshot, {@link io.github.pgoutput.snapshot.InitialSnapshot#start} with the tables the connector
 *       captures: it drops the existing slot when the plan says so, creates a missing publication, creates the slot
 *       with an {@link io.github.pgoutput.snapshot.ExportedSnapshot} (temporary for {@code SNAPSHOT_ONLY}), starts the
 *       {@link io.github.pgoutput.snapshot.SnapshotReader} on the published tables
 *       ({@link io.github.pgoutput.snapshot.SnapshotTables#published}) and releases a permanent slot's export once it
 *       is imported. The caller then stores an offset that marks the snapshot as in progress, with the slot's
 *       {@link io.github.pgoutput.snapshot.InitialSnapshot#consistentPoint}, before emitting its first row: it is what
 *       allows a restarted task to drop that slot.</li>
 *   <li>{@link io.github.pgoutput.snapshot.InitialSnapshotRun#next} in {@code poll()} until
 *       {@link io.github.pgoutput.snapshot.InitialSnapshotRun#finished}: a truncate per table first when the snapshot
 *       is taken again, then the rows of the {@link io.github.pgoutput.snapshot.SnapshotReader}; each row carries its
 *       table (columns as in a Relation message) and text values as pgoutput sends them, so the streaming converters
 *       apply unchanged, and each item says where a resumable snapshot stands after it. The row marked {@code LAST}
 *       carries the offset "snapshot done, streaming from the consistent point". Then
 *       {@link io.github.pgoutput.snapshot.InitialSnapshotRun#close} (for {@code SNAPSHOT_ONLY} this drops the
 *       temporary slot).</li>
 *   <li>Stream with {@code ReplicationSession.open(settings, consistentPoint)}: every change committed after the
 *       consistent point arrives there, none before it.</li>
 * </ol>
 *
 * <p>An exactly-once snapshot ({@code resumable} in {@code plan} and {@code start}) reads one table after
 * another in the order of its {@link io.github.pgoutput.snapshot.TableKey}, a big table in
 * {@link io.github.pgoutput.snapshot.KeyRanges} read at once, so that each record's offset can name the rows still to
 * read: each range after the last of its rows in Kafka ({@link io.github.pgoutput.snapshot.ResumableProgress}). The planner then answers an interrupted
 * one with a plan whose {@link io.github.pgoutput.snapshot.SnapshotPlan#resumeFrom} keeps the slot; {@code start}
 * reads the rest from a new export, and streaming skips, through
 * {@link io.github.pgoutput.snapshot.ResumedRows}, the changes that rows read after a resumption already contain.
 */
package io.github.pgoutput.snapshot;

/**
 * The initial consistent snapshot: JDBC only, no Kafka (the {@code connect} package turns rows into records).
 *
 * <p>How a task uses it, in order:
 * <ol>
 *   <li>{@link io.github.pgoutput.snapshot.SnapshotPlanner#decide} with {@code snapshot.mode}, the stored offset and
 *       the slot's state; it returns what to do, or a {@code MODE_CONFLICT} error naming the mode to choose, or a
 *       {@code SLOT_NOT_OWNED} error when a snapshot would have to drop a slot not shown to be the connector's own.</li>
 *   <li>For a snapshot: drop the existing slot when the plan says so, then
 *       {@link io.github.pgoutput.snapshot.ExportedSnapshot#create} (temporary for {@code SNAPSHOT_ONLY}). Store an
 *       offset that marks the snapshot as in progress, with the slot's consistent point, before emitting its first
 *       row: it is what allows a restarted task to drop that slot.</li>
 *   <li>{@link io.github.pgoutput.snapshot.SnapshotReader#start} with the captured tables
 *       ({@link io.github.pgoutput.snapshot.SnapshotTables#published}); when it returns, close the
 *       {@code ExportedSnapshot} (the export is imported; keeping the walsender idle longer holds nothing useful).</li>
 *   <li>{@link io.github.pgoutput.snapshot.SnapshotReader#next} in {@code poll()} until
 *       {@link io.github.pgoutput.snapshot.SnapshotReader#finished}; each row carries its table (columns as in a
 *       Relation message) and text values as pgoutput sends them, so the streaming converters apply unchanged. The row
 *       marked {@code LAST} carries the offset "snapshot done, streaming from the consistent point".</li>
 *   <li>Stream with {@code ReplicationSession.open(settings, consistentPoint)}: every change committed after the
 *       consistent point arrives there, none before it.</li>
 * </ol>
 */
package io.github.pgoutput.snapshot;

/**
 * Unchanged TOAST values resolved without REPLICA IDENTITY FULL. pgoutput sends an UPDATE's unchanged out-of-line
 * value as {@code u}, without the value. Two sources give it back, each only where it can prove the value is the one
 * of that change:
 * <ul>
 *   <li>{@link ToastStore}: the last large value per (table, replica identity key, column) of every row this connector
 *       emitted (snapshot rows, inserts, updates), on disk, written and read in commit order, so its value at a
 *       change is the value of that change whenever it saw the key's history;</li>
 *   <li>{@link ReselectBatch}: for the keys the store does not hold, one query per table and batch that reads the
 *       row's current version and accepts it only when that version was written by the change's own transaction
 *       ({@code xmin}) and no later change of that transaction set the column.</li>
 * </ul>
 * Anything else stays the placeholder, and the record names the column ({@link ToastResolver}).
 *
 * <p>Pure logic over decoded messages plus the store's disk I/O: no Kafka, no JDBC statements (the reselect query is
 * {@code replication.CurrentRowReader}, reached through {@link CurrentRows}).
 */
package io.github.pgoutput.toast;

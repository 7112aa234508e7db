/**
 * Replication I/O over pgjdbc: pre-flight checks, publication and slot management (state, creation, drop, retained
 * WAL), the catalog's list of tables, protocol negotiation and the replication session that hands out raw pgoutput
 * frames and reports only caller-declared durable positions.
 *
 * <p>Entry points: {@link io.github.pgoutput.replication.PreflightChecks#check(ReplicationSettings)} for validation and
 * {@link io.github.pgoutput.replication.ReplicationSession#open} for streaming. Nothing here decodes messages (that is
 * {@code io.github.pgoutput.pgoutput}) or imports Kafka. Failures are {@link io.github.pgoutput.replication.ReplicationSetupException}
 * (permanent) or {@link io.github.pgoutput.replication.ReplicationConnectionLostException} (retriable), each naming the
 * {@link io.github.pgoutput.replication.Setting} to blame. Which SQLStates are transient is one table,
 * {@link io.github.pgoutput.replication.SqlStates}, which the connector's own error classifier reads too.
 */
package io.github.pgoutput.replication;

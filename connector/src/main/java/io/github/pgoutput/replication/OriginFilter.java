package io.github.pgoutput.replication;

/** pgoutput's {@code origin} option (PostgreSQL 16+): which transactions to send by their replication origin. */
public enum OriginFilter {
    /** Do not send the option; the server's default ({@code any}) applies. Works on every version. */
    SERVER_DEFAULT,
    /** {@code origin 'any'}: send every transaction, replicated ones included. */
    ANY,
    /** {@code origin 'none'}: drop transactions that carry a replication origin (they came from another node). */
    NONE
}

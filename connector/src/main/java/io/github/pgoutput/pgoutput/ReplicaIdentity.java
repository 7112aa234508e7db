package io.github.pgoutput.pgoutput;

/** A relation's {@code relreplident}, as sent in a Relation message. */
public enum ReplicaIdentity {
    /** {@code d}: the primary key. */
    DEFAULT('d'),
    /** {@code n}: nothing. */
    NOTHING('n'),
    /** {@code f}: all columns. */
    FULL('f'),
    /** {@code i}: the columns of a chosen unique index. */
    INDEX('i');

    private final char code;

    ReplicaIdentity(char code) {
        this.code = code;
    }

    public char code() {
        return code;
    }

    /** Returns the identity for a wire code, or {@code null} when the code is not one PostgreSQL defines. */
    public static ReplicaIdentity fromCode(char code) {
        for (ReplicaIdentity identity : values()) {
            if (identity.code == code) {
                return identity;
            }
        }
        return null;
    }
}

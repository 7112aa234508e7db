package io.github.pgoutput.pgoutput;

/**
 * One column of a Relation message. {@code partOfKey} is flag bit 1: the column belongs to the replica identity
 * (primary key or index). {@code typeModifier} is {@code atttypmod} (-1 when the type has none).
 */
public record RelationColumn(boolean partOfKey, String name, long typeOid, int typeModifier) {
}

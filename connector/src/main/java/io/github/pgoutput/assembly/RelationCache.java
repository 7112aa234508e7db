package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The Relation and Type definitions in force, built only from Relation and Type messages (the newest one for an id
 * wins). One per replication session: a reconnect starts empty, and PostgreSQL sends R again before first use.
 * Size grows with the number of published tables and user types, not with data.
 */
public final class RelationCache {

    private final Map<Long, Relation> relations = new HashMap<>();
    private final Map<Long, Type> types = new HashMap<>();

    public void apply(Relation relation) {
        relations.put(relation.relationId(), relation);
    }

    public void apply(Type type) {
        types.put(type.typeOid(), type);
    }

    public Optional<Relation> relation(long relationId) {
        return Optional.ofNullable(relations.get(relationId));
    }

    /** The user-defined type (enum, composite, domain, extension type) with this OID, if a Type message named it. */
    public Optional<Type> type(long typeOid) {
        return Optional.ofNullable(types.get(typeOid));
    }

    /**
     * Takes messages from {@code source}, applying each Relation and Type message to this cache, and returns the first
     * other one, or {@code null} as soon as the source returns {@code null}; what that other message may be is the
     * caller's to decide. The cursors ({@link HeldCursor}, {@link SpillCursor}, {@link WireCursor}) read through here,
     * so each change they hand out is resolved against the schema in force when it was written.
     *
     * @param messageOf the pgoutput message a source element carries
     */
    <T> T takeApplyingDefinitions(Supplier<T> source, Function<T, PgOutputMessage> messageOf) {
        while (true) {
            T next = source.get();
            if (next == null) {
                return null;
            }
            PgOutputMessage message = messageOf.apply(next);
            if (message instanceof Relation relation) {
                apply(relation);
            } else if (message instanceof Type type) {
                apply(type);
            } else {
                return next;
            }
        }
    }

    /** The relations a change refers to, in the change's order; empty for logical messages. */
    List<Relation> relationsOf(PgOutputMessage.StreamScoped change, Lsn walPosition) {
        if (change instanceof PgOutputMessage.Insert insert) {
            return List.of(require(insert.relationId(), change, walPosition));
        }
        if (change instanceof PgOutputMessage.Update update) {
            return List.of(require(update.relationId(), change, walPosition));
        }
        if (change instanceof PgOutputMessage.Delete delete) {
            return List.of(require(delete.relationId(), change, walPosition));
        }
        if (change instanceof PgOutputMessage.Truncate truncate) {
            List<Relation> all = new ArrayList<>(truncate.relationIds().size());
            for (long id : truncate.relationIds()) {
                all.add(require(id, change, walPosition));
            }
            return all;
        }
        return List.of();
    }

    private Relation require(long relationId, PgOutputMessage change, Lsn walPosition) {
        Relation relation = relations.get(relationId);
        if (relation == null) {
            throw new AssemblyException("'" + change.tag() + "' " + change.getClass().getSimpleName() + " at WAL position "
                    + walPosition + " refers to relation id " + relationId + ", but no Relation message for it arrived in"
                    + " this session; expected PostgreSQL to send R before the first change of a table");
        }
        return relation;
    }
}

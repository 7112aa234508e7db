package io.github.pgoutput.converters;

import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chooses the {@link ColumnConverter} for a PostgreSQL column type. {@code converters/TYPES.md} is the
 * user-facing table of what each type becomes.
 *
 * <p>Thread-safe. Converters are cached per {@link PgColumnType} (OID, type modifier and what is known about
 * the type); the cache grows with the number of distinct column types seen, which the database bounds.
 */
public final class PostgresTypeMapper {

    private final ConverterOptions options;
    private final Map<PgColumnType, ColumnConverter> cache = new ConcurrentHashMap<>();
    private final ScalarConverters scalars;

    public PostgresTypeMapper(ConverterOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.scalars = new ScalarConverters(options);
    }

    public ConverterOptions options() {
        return options;
    }

    /** The converter for {@code type}; never null: types it does not know are converted through their text form. */
    public ColumnConverter converterFor(PgColumnType type) {
        ColumnConverter cached = cache.get(type);
        if (cached != null) {
            return cached;
        }
        // Not computeIfAbsent: building an array or domain converter looks up its element/base recursively.
        ColumnConverter created = create(type);
        ColumnConverter raced = cache.putIfAbsent(type, created);
        return raced != null ? raced : created;
    }

    private ColumnConverter create(PgColumnType type) {
        PgColumnType.Kind kind = type.kind();
        if (kind instanceof PgColumnType.Enum anEnum) {
            return scalars.forEnum(type, anEnum.labels());
        }
        if (kind instanceof PgColumnType.Domain domain) {
            return new DomainConverter(type, converterFor(domain.baseType()));
        }
        if (kind instanceof PgColumnType.Array array) {
            PgColumnType element = array.elementType();
            return new ArrayConverter(type, converterFor(element), BuiltInTypes.arrayDelimiter(baseOf(element).oid()),
                    oidsOf(element));
        }
        if (kind instanceof PgColumnType.Base) {
            return scalars.forBase(type);
        }
        // Composite and Unknown: the text form is all that can be relied on.
        return scalars.textForm(type);
    }

    private static PgColumnType baseOf(PgColumnType type) {
        PgColumnType current = type;
        while (current.kind() instanceof PgColumnType.Domain domain) {
            current = domain.baseType();
        }
        return current;
    }

    /** A domain's own OID and those of its base chain: array_send of a domain array names the domain. */
    private static Set<Integer> oidsOf(PgColumnType type) {
        Set<Integer> oids = new HashSet<>();
        PgColumnType current = type;
        oids.add(current.oid());
        while (current.kind() instanceof PgColumnType.Domain domain) {
            current = domain.baseType();
            oids.add(current.oid());
        }
        return oids;
    }
}

package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.DatabaseKeys;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The least-privilege roles of docs/setup-postgresql.md, read from the page itself so that the tests run exactly the
 * SQL a user copies: each {@code <!-- role:NAME -->} marker is followed by an {@code sql} block (run as an
 * administrator) and a {@code properties} block (the connector keys that go with it). The page's names are the
 * example's: database {@code shop}, the tables' owner {@code shop_owner}, roles and publications starting with
 * {@code cdc_}; {@link Role#sql} puts a test's own names in their place.
 */
final class DocumentedRoles {

    static final Path PAGE = Path.of(System.getProperty("basedir", "."), "..", "docs", "setup-postgresql.md")
            .toAbsolutePath().normalize();

    private static final Pattern BLOCK = Pattern.compile(
            "<!-- role:([a-z]+) -->\\s*```sql\\n(.*?)```\\s*```properties\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern CDC_NAME = Pattern.compile("\\bcdc_[a-z_]+\\b");

    private DocumentedRoles() {
    }

    /**
     * One documented role.
     *
     * @param name       the marker's name
     * @param statements the SQL statements, in order, as the page writes them
     * @param properties the connector keys, as the page writes them
     */
    record Role(String name, List<String> statements, Map<String, String> properties) {

        /** The statements that grant something (GRANT, ALTER ROLE): each can be dropped to see that it is needed. */
        List<String> grants() {
            return statements.stream().filter(DocumentedRoles::isGrant).toList();
        }

        /** The role's name as the page writes it. */
        String roleName() {
            return properties.get(DatabaseKeys.DATABASE_USER_CONFIG);
        }

        /** {@code statement} with a test's own names: the database, the tables' owner, and a suffix on each cdc_ name. */
        static String sql(String statement, Names names) {
            String text = statement.replaceAll("\\bshop_owner\\b", names.owner()).replaceAll("\\bshop\\b", names.database());
            return CDC_NAME.matcher(text).replaceAll(m -> Matcher.quoteReplacement(m.group() + names.suffix()));
        }
    }

    /**
     * A test's own names for the page's.
     *
     * @param database the database in place of {@code shop}
     * @param owner    the tables' owner in place of {@code shop_owner}
     * @param suffix   appended to every {@code cdc_} name (roles are shared by all databases of a server)
     */
    record Names(String database, String owner, String suffix) {
    }

    static boolean isGrant(String statement) {
        String upper = statement.trim().toUpperCase(Locale.ROOT);
        return upper.startsWith("GRANT ") || upper.startsWith("ALTER ROLE ");
    }

    /** The roles of the page, by marker name, in the page's order. */
    static Map<String, Role> all() {
        String page;
        try {
            page = Files.readString(PAGE, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Role> roles = new LinkedHashMap<>();
        Matcher m = BLOCK.matcher(page);
        while (m.find()) {
            List<String> statements = new ArrayList<>();
            for (String statement : m.group(2).split(";\\s*\\n")) {
                if (!statement.isBlank()) {
                    statements.add(statement.trim().replaceAll(";$", ""));
                }
            }
            Map<String, String> properties = new LinkedHashMap<>();
            for (String line : m.group(3).split("\\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    properties.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                }
            }
            roles.put(m.group(1), new Role(m.group(1), List.copyOf(statements), properties));
        }
        return roles;
    }

    static Role role(String name) {
        Role role = all().get(name);
        if (role == null) {
            throw new IllegalStateException(PAGE + " has no block <!-- role:" + name + " -->");
        }
        return role;
    }

    /** A statement as a message would quote it: quotes dropped, blanks collapsed, lower case. */
    static String normalized(String sql) {
        return sql.replace("\"", "").replaceAll("\\s+", " ").trim().toLowerCase(Locale.ROOT);
    }
}

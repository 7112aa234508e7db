package io.github.pgoutput.spill;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * What the database spill needs of the connecting role, checked the way {@link DatabaseSpill#open} will need it, so
 * that validation predicts the start: CREATE on the database when the schema is missing (the spill creates it),
 * USAGE and CREATE on the schema when the slot's table is missing, and USAGE on the schema with SELECT, INSERT,
 * DELETE and TRUNCATE on a table that exists (or its ownership). Reads the catalog, changes nothing. Stateless.
 */
public final class DatabaseSpillPrivileges {

    private DatabaseSpillPrivileges() {
    }

    /**
     * @param connections the source database, as the spill would reach it
     * @param schema      {@code spill.database.schema}
     * @param slotName    the slot whose table the spill writes
     * @return what the role lacks and the statement that grants it, or null when it has all it needs
     */
    public static String problem(SourceConnections connections, String schema, String slotName) throws SQLException {
        DatabaseSpillTable table = new DatabaseSpillTable(schema, slotName);
        try (Connection sql = connections.open();
             PreparedStatement st = sql.prepareStatement("SELECT current_user, has_database_privilege(current_database(), 'CREATE'),"
                     + " (SELECT has_schema_privilege(n.oid, 'USAGE') AND has_schema_privilege(n.oid, 'CREATE') FROM pg_namespace n"
                     + "   WHERE n.nspname = ?),"
                     + " (SELECT has_schema_privilege(n.oid, 'USAGE') FROM pg_namespace n WHERE n.nspname = ?),"
                     // With several privileges has_table_privilege says whether any is held; the spill needs all four.
                     + " (SELECT has_table_privilege(c.oid, 'SELECT') AND has_table_privilege(c.oid, 'INSERT')"
                     + "   AND has_table_privilege(c.oid, 'DELETE') AND has_table_privilege(c.oid, 'TRUNCATE') FROM pg_class c"
                     + "   JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?), current_database()")) {
            st.setString(1, schema);
            st.setString(2, schema);
            st.setString(3, schema);
            st.setString(4, slotName);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                String user = DatabaseSpillTable.quote(rs.getString(1));
                boolean databaseCreate = rs.getBoolean(2);
                Boolean schemaCreate = (Boolean) rs.getObject(3);
                boolean schemaUsage = rs.getBoolean(4);
                Boolean tableRights = (Boolean) rs.getObject(5);
                String quotedSchema = DatabaseSpillTable.quote(schema);
                String database = DatabaseSpillTable.quote(rs.getString(6));
                if (schemaCreate == null) {
                    return databaseCreate ? null : "spill.backend=database creates schema " + quotedSchema + " (spill.database.schema),"
                            + " which does not exist, and the role lacks CREATE on the database: run GRANT CREATE ON DATABASE " + database
                            + " TO " + user + ", or create the schema for it (CREATE SCHEMA " + quotedSchema + " AUTHORIZATION " + user + ")";
                }
                if (tableRights == null) {
                    return schemaCreate ? null : "spill.backend=database creates the table " + table + " in schema " + quotedSchema
                            + " (spill.database.schema), and the role lacks USAGE and CREATE there: run GRANT USAGE, CREATE ON SCHEMA "
                            + quotedSchema + " TO " + user + ", or set spill.database.schema to a schema of its own";
                }
                if (!schemaUsage || !tableRights) {
                    return "spill.backend=database writes the existing table " + table + ", and the role lacks "
                            + (schemaUsage ? "" : "USAGE on schema " + quotedSchema + (tableRights ? "" : " and "))
                            + (tableRights ? "" : "SELECT, INSERT, DELETE and TRUNCATE on it") + ": run "
                            + (schemaUsage ? "" : "GRANT USAGE ON SCHEMA " + quotedSchema + " TO " + user + (tableRights ? "" : "; "))
                            + (tableRights ? "" : "GRANT SELECT, INSERT, DELETE, TRUNCATE ON " + table + " TO " + user);
                }
                return null;
            }
        }
    }
}

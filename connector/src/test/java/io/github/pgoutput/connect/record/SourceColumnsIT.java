package io.github.pgoutput.connect.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.pgoutput.connect.shaping.SourceColumn;
import io.github.pgoutput.connect.shaping.SourceColumns;
import io.github.pgoutput.converters.PgColumnType;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TypeCatalog;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

/**
 * The column descriptions {@code column.propagate.source.type}, the masks and custom converters see agree with what
 * pgjdbc's {@code DatabaseMetaData.getColumns} reports on a live server (where Debezium's snapshot reads them): the
 * type name, the size, the decimal digits and the JDBC type of a column of each type of the parity workload. The
 * exceptions are Debezium's: {@code numeric} without a precision, which getColumns sizes 0 without digits and
 * Debezium's streamed records (and ours) 131089 with scale 0; the JDBC type of a domain (its base type's) and of
 * {@code xml} (OTHER), which Debezium's type registry decides.
 */
class SourceColumnsIT {

    @PostgresTest
    @Timeout(60)
    void columnsAreDescribedAsPgjdbcsMetadataDescribesThem(PostgresDatabase db) throws Exception {
        db.execute("CREATE EXTENSION citext", "CREATE TYPE mood AS ENUM ('sad', 'ok')",
                "CREATE DOMAIN positive_amount AS numeric(10,2) CHECK (VALUE > 0)",
                "CREATE TABLE described (id bigserial PRIMARY KEY, c_serial serial, c_bool bool, c_int2 int2, c_int4 int4,"
                        + " c_oid oid, c_float4 float4, c_float8 float8, c_numeric_ps numeric(12,3), c_money money,"
                        + " c_text text, c_varchar varchar(20), c_char char(5), c_qchar \"char\", c_name name, c_bytea bytea,"
                        + " c_json json, c_jsonb jsonb, c_xml xml, c_uuid uuid, c_date date, c_time0 time(0), c_time3 time(3),"
                        + " c_time time, c_timetz timetz, c_ts0 timestamp(0), c_ts3 timestamp(3), c_ts timestamp,"
                        + " c_tstz6 timestamptz(6), c_interval interval, c_inet inet, c_macaddr macaddr, c_bit8 bit(8),"
                        + " c_varbit varbit(16), c_point point, c_int4range int4range, c_mood mood, c_amount positive_amount,"
                        + " c_citext citext, a_int4 int4[], a_numeric numeric(8,2)[], a_text text[], a_varchar varchar(10)[])");
        ReplicationSettings settings = ReplicationSettings.builder(db.host(), db.port(), db.name(), db.user(), "unused",
                "unused_pub").publication(PublicationMode.DISABLED, List.of()).build();
        List<RelationColumn> columns = new ArrayList<>();
        for (List<String> row : db.query("SELECT attname, atttypid, atttypmod FROM pg_attribute WHERE attrelid ="
                + " 'described'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum")) {
            columns.add(new RelationColumn(false, row.get(0), Long.parseLong(row.get(1)), Integer.parseInt(row.get(2))));
        }
        Relation relation = new Relation(Xid.INVALID, 1, "public", "described", ReplicaIdentity.DEFAULT, columns);
        List<PgColumnType> types = new ColumnTypes(TypeCatalog.of(settings)).of(relation);
        Map<String, String> defaults = new HashMap<>();
        for (List<String> row : db.query("SELECT a.attname, pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d JOIN"
                + " pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum WHERE d.adrelid = 'described'::regclass")) {
            defaults.put(row.get(0), row.get(1));
        }

        int compared = 0;
        try (Connection sql = db.connect(); ResultSet metadata = sql.getMetaData().getColumns(null, "public", "described", null)) {
            while (metadata.next()) {
                String name = metadata.getString("COLUMN_NAME");
                int index = columns.indexOf(columns.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow());
                SourceColumn described = SourceColumns.describe("public", "described", name, types.get(index),
                        metadata.getInt("NULLABLE") == DatabaseMetaData.columnNullable, defaults.get(name), null);
                assertThat(described.typeName()).as(name).isEqualTo(metadata.getString("TYPE_NAME"));
                if (name.equals("c_amount")) {
                    // getColumns reports a domain as DISTINCT; Debezium (and this description) take its base type's.
                    assertThat(described.jdbcType()).isEqualTo(Types.NUMERIC);
                } else if (name.equals("c_xml")) {
                    // getColumns says SQLXML; Debezium's type registry, which reads xml as no core type, OTHER.
                    assertThat(described.jdbcType()).isEqualTo(Types.OTHER);
                } else {
                    assertThat(described.jdbcType()).as(name).isEqualTo(metadata.getInt("DATA_TYPE"));
                }
                if (name.equals("c_numeric") || metadata.getInt("DATA_TYPE") == Types.NUMERIC
                        && metadata.getObject("DECIMAL_DIGITS") == null) {
                    continue;
                }
                assertThat(described.length()).as(name).isEqualTo(metadata.getInt("COLUMN_SIZE"));
                assertThat(described.scale()).as(name).isEqualTo(metadata.getInt("DECIMAL_DIGITS"));
                compared++;
            }
        }
        assertThat(compared).isEqualTo(columns.size());
    }
}

package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;

/**
 * The other live tests take the text and send forms from the types' output and send functions. This one checks,
 * through a real pgoutput slot, that pgoutput's {@code 't'} and {@code 'b'} column values are exactly those
 * forms, and that both convert to the same Connect value.
 */
@Timeout(120)
class PgoutputFormsLiveTest {

    private static final Map<String, String> COLUMNS = new LinkedHashMap<>();

    static {
        COLUMNS.put("int2", "-32768");
        COLUMNS.put("int4", "2147483647");
        COLUMNS.put("int8", "-9223372036854775808");
        COLUMNS.put("oid", "4294967295");
        COLUMNS.put("float4", "'-0'");
        COLUMNS.put("float8", "'NaN'");
        COLUMNS.put("bool", "true");
        COLUMNS.put("numeric", "-1.500");
        COLUMNS.put("numeric(5,2)", "1.5");
        COLUMNS.put("money", "'-1234.56'");
        COLUMNS.put("text", "'é😀 \"q\" \\'");
        COLUMNS.put("varchar(9)", "'abc'");
        COLUMNS.put("char(4)", "'ab'");
        COLUMNS.put("name", "'n'");
        COLUMNS.put("\"char\"", "'c'");
        COLUMNS.put("bytea", "'\\x00ff'");
        COLUMNS.put("json", "'{\"a\" : 1}'");
        COLUMNS.put("jsonb", "'{\"b\": [], \"a\": 1}'");
        COLUMNS.put("xml", "'<a>é</a>'");
        COLUMNS.put("uuid", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'");
        COLUMNS.put("date", "'0001-02-29 BC'");
        COLUMNS.put("time", "'24:00:00'");
        COLUMNS.put("timetz", "'01:02:03.4-05:30'");
        COLUMNS.put("timestamp", "'-infinity'");
        COLUMNS.put("timestamptz", "'2024-01-02 03:04:05.123456+00'");
        COLUMNS.put("interval", "'-1 year +2 days -00:00:01.5'");
        COLUMNS.put("inet", "'::ffff:1.2.3.4/100'");
        COLUMNS.put("cidr", "'2001:db8::/32'");
        COLUMNS.put("macaddr", "'08:00:2b:01:02:03'");
        COLUMNS.put("macaddr8", "'08:00:2b:01:02:03:04:05'");
        COLUMNS.put("bit(3)", "B'101'");
        COLUMNS.put("varbit", "B'1'");
        COLUMNS.put("mood", "'very sad'");
        COLUMNS.put("price", "12.3");
        COLUMNS.put("int4[]", "'{{1,NULL},{3,4}}'");
        COLUMNS.put("text[]", "ARRAY['a b', NULL, 'q\"']");
        COLUMNS.put("mood[]", "'{happy,\"very sad\"}'");
        COLUMNS.put("timestamptz[]", "'{infinity}'");
        COLUMNS.put("point", "'(1,2)'");
        COLUMNS.put("date", "'infinity'");
        COLUMNS.put("time(3)", "'12:00:00.123'");
        COLUMNS.put("timetz", "'12:00:00.5-03'");
        COLUMNS.put("timestamp(3)", "'2024-01-02 03:04:05.678'");
        COLUMNS.put("bit(1)", "B'1'");
        COLUMNS.put("box", "'((0,0),(1,1))'");
        COLUMNS.put("lseg", "'[(0,0),(1.5,-1)]'");
        COLUMNS.put("path", "'((0,0),(1,1),(2,0))'");
        COLUMNS.put("polygon", "'((0,0),(1,1),(1,0))'");
        COLUMNS.put("circle", "'<(1,2),3>'");
        COLUMNS.put("line", "'{1,-1,0.5}'");
    }

    @PostgresTest
    void pgoutputSendsTheOutputAndSendFunctionFormsAndBothConvertAlike(PostgresDatabase database) throws Exception {
        PostgresTypeMapper mapper = new PostgresTypeMapper(ConverterOptions.DEFAULTS);
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TYPE mood AS ENUM ('happy', 'very sad')");
            statement.execute("CREATE DOMAIN price AS numeric(10,2)");
            StringBuilder ddl = new StringBuilder("CREATE TABLE forms (");
            StringBuilder values = new StringBuilder();
            int i = 0;
            for (Map.Entry<String, String> column : COLUMNS.entrySet()) {
                ddl.append(i == 0 ? "" : ", ").append("c").append(i).append(' ').append(column.getKey());
                values.append(i == 0 ? "" : ", ").append('(').append(column.getValue()).append(")::").append(column.getKey());
                i++;
            }
            statement.execute(ddl.append(')').toString());
            statement.execute("CREATE PUBLICATION forms_pub FOR TABLE forms");
            statement.execute("SELECT pg_create_logical_replication_slot('forms_slot', 'pgoutput')");
            statement.execute("INSERT INTO forms VALUES (" + values + ")");

            List<byte[]> textTuple = insertedTuple(statement, "false");
            List<byte[]> binaryTuple = insertedTuple(statement, "true");
            assertThat(textTuple).hasSize(COLUMNS.size());

            int column = 0;
            for (String sqlType : COLUMNS.keySet()) {
                String name = "c" + column;
                PgColumnType type = CatalogTypes.resolve(connection, attribute(statement, name, "atttypid"),
                        attribute(statement, name, "atttypmod"));
                String[] functions = functions(statement, type.oid());
                String text;
                byte[] send;
                try (ResultSet row = statement.executeQuery("SELECT " + functions[0] + "(" + name + ")::text, "
                        + functions[1] + "(" + name + ") FROM forms")) {
                    row.next();
                    text = row.getString(1);
                    send = row.getBytes(2);
                }
                assertThat(new String(textTuple.get(column), StandardCharsets.UTF_8)).as(sqlType + " text").isEqualTo(text);
                assertThat(binaryTuple.get(column)).as(sqlType + " binary").isEqualTo(send);

                ColumnConverter converter = mapper.converterFor(type);
                Object fromText = converter.fromText(text);
                assertThat(ConversionChecks.comparable(converter.fromBinary(send))).as(sqlType)
                        .isEqualTo(ConversionChecks.comparable(fromText));
                column++;
            }
        }
    }

    private static int attribute(Statement statement, String column, String field) throws SQLException {
        try (ResultSet row = statement.executeQuery("SELECT " + field + "::int8 FROM pg_attribute WHERE attrelid = 'forms'::regclass"
                + " AND attname = '" + column + "'")) {
            row.next();
            return (int) row.getLong(1);
        }
    }

    private static String[] functions(Statement statement, int oid) throws SQLException {
        try (ResultSet row = statement.executeQuery("SELECT typoutput::regproc::text, typsend::regproc::text FROM pg_type WHERE oid = "
                + Integer.toUnsignedString(oid))) {
            row.next();
            return new String[] {row.getString(1), row.getString(2)};
        }
    }

    /** The column values of the one Insert in the slot, decoded from pgoutput's TupleData ('t' or 'b' each). */
    private static List<byte[]> insertedTuple(Statement statement, String binary) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT data FROM pg_logical_slot_peek_binary_changes('forms_slot', NULL, NULL,"
                + " 'proto_version', '1', 'publication_names', 'forms_pub', 'binary', '" + binary + "')")) {
            while (rows.next()) {
                ByteBuffer message = ByteBuffer.wrap(rows.getBytes(1));
                if (message.get() != 'I') {
                    continue;
                }
                message.getInt(); // relid
                assertThat((char) message.get()).isEqualTo('N');
                int columns = message.getShort();
                List<byte[]> values = new ArrayList<>();
                for (int i = 0; i < columns; i++) {
                    char kind = (char) message.get();
                    assertThat(kind).as("column " + i + " kind").isEqualTo(binary.equals("true") ? 'b' : 't');
                    byte[] value = new byte[message.getInt()];
                    message.get(value);
                    values.add(value);
                }
                return values;
            }
        }
        throw new AssertionError("no Insert message in the slot");
    }
}

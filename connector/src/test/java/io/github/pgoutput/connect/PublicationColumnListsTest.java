package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.ConfigProblem;
import io.github.pgoutput.connect.config.MinimalConfig;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.record.MessageKeyColumns;
import io.github.pgoutput.connect.shaping.ColumnSelection;
import io.github.pgoutput.connect.shaping.RegexList;
import io.github.pgoutput.replication.TableColumns;
import io.github.pgoutput.replication.TableName;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PublicationColumnListsTest {

    private static final TableName ORDERS = new TableName("public", "orders");

    private static Map<TableName, TableColumns> orders(char identity, List<String> identityColumns) {
        return Map.of(ORDERS, new TableColumns(ORDERS, List.of("id", "card", "note", "total"), identity, identityColumns,
                List.of("id")));
    }

    private static ColumnSelection excluding(String expressions) {
        return ColumnSelection.excluding(RegexList.parse(expressions));
    }

    @Test
    void aTableGetsTheColumnsTheKeysKeep() {
        assertThat(PublicationColumnLists.of(excluding("public\\.orders\\.card"), MessageKeyColumns.NONE,
                orders('d', List.of("id")))).containsExactly(Map.entry(ORDERS, List.of("id", "note", "total")));
    }

    @Test
    void theKeyAndTheReplicaIdentityStayInTheListWhenTheKeysLeaveThemOut() {
        assertThat(PublicationColumnLists.of(ColumnSelection.including(RegexList.parse("public\\.orders\\.total")),
                MessageKeyColumns.NONE, orders('i', List.of("note")))).containsExactly(Map.entry(ORDERS,
                List.of("id", "note", "total")));
        assertThat(PublicationColumnLists.of(ColumnSelection.including(RegexList.parse("public\\.orders\\.total")),
                MessageKeyColumns.parse("public.orders:card"), orders('d', List.of("id"))))
                .as("message.key.columns names the key").containsExactly(Map.entry(ORDERS, List.of("id", "card", "total")));
    }

    @Test
    void noListUnderReplicaIdentityFullOrWhenNothingOrEverythingIsLeftOut() {
        assertThat(PublicationColumnLists.of(excluding("public\\.orders\\.card"), MessageKeyColumns.NONE,
                orders('f', List.of("id", "card", "note", "total")))).isEmpty();
        assertThat(PublicationColumnLists.of(excluding("public\\.orders\\..*"), MessageKeyColumns.NONE,
                orders('d', List.of("id")))).as("nothing kept").isEmpty();
        assertThat(PublicationColumnLists.of(excluding("public\\.other\\..*"), MessageKeyColumns.NONE,
                orders('d', List.of("id")))).as("nothing left out").isEmpty();
        assertThat(PublicationColumnLists.of(excluding("public\\.orders\\.id"), MessageKeyColumns.NONE,
                orders('d', List.of("id")))).as("only the key left out, which stays").isEmpty();
        assertThat(PublicationColumnLists.of(ColumnSelection.ALL, MessageKeyColumns.NONE, orders('d', List.of("id"))))
                .isEmpty();
    }

    @Test
    void anExistingListWithoutAKeptColumnIsAProblemOnTheColumnKey() {
        Map<String, String> props = MinimalConfig.props();
        props.put("column.exclude.list", "public\\.orders\\.card");
        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(props);

        ConfigProblem problem = PublicationColumnLists.staleListProblem(config, Map.of(ORDERS, List.of("id", "total")),
                orders('d', List.of("id")));

        assertThat(problem.key()).isEqualTo("column.exclude.list");
        assertThat(problem.message()).contains("table public.orders lists [id, total], without [note]")
                .contains("ALTER PUBLICATION");
        assertThat(PublicationColumnLists.staleListProblem(config, Map.of(ORDERS, List.of("id", "note", "total")),
                orders('d', List.of("id")))).isNull();
    }
}

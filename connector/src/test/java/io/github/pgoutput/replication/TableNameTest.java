package io.github.pgoutput.replication;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableNameTest {

    @Test
    void aBareNameIsInSchemaPublic() {
        assertThat(TableName.parse("orders")).isEqualTo(new TableName("public", "orders"));
    }

    @Test
    void splitsAtTheFirstDotAndKeepsCase() {
        assertThat(TableName.parse("Sales.Order.Lines")).isEqualTo(new TableName("Sales", "Order.Lines"));
    }

    @Test
    void quotesEachPartAndDoublesEmbeddedQuotes() {
        assertThat(new TableName("we\"ird", "t; DROP TABLE x").quoted()).isEqualTo("\"we\"\"ird\".\"t; DROP TABLE x\"");
    }

    @Test
    void refusesEmptyParts() {
        assertThatThrownBy(() -> TableName.parse("public."))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.PUBLICATION_TABLES));
    }
}

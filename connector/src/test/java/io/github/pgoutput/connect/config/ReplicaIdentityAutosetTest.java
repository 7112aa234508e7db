package io.github.pgoutput.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.replication.ReplicaIdentity;
import io.github.pgoutput.replication.TableName;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** replica.identity.autoset.values in Debezium's format: parsing, validation and which identity each table gets. */
class ReplicaIdentityAutosetTest {

    private static final TableName ORDERS = new TableName("public", "orders");
    private static final TableName ITEMS = new TableName("inventory", "items");
    private static final TableName LINES = new TableName("inventory", "lines");

    @Test
    void readsDebeziumsEntries() {
        List<ReplicaIdentityAutoset.Entry> entries = ReplicaIdentityAutoset.parse(
                "public.orders:FULL, inventory\\.items:index items_pk ,inventory.l.*:DEFAULT,x.y:NOTHING");

        assertThat(entries).extracting(ReplicaIdentityAutoset.Entry::identity).containsExactly(
                ReplicaIdentity.of(ReplicaIdentity.Kind.FULL), ReplicaIdentity.usingIndex("items_pk"),
                ReplicaIdentity.of(ReplicaIdentity.Kind.DEFAULT), ReplicaIdentity.of(ReplicaIdentity.Kind.NOTHING));
    }

    @Test
    void givesEachCapturedTableTheIdentityOfTheEntryThatMatchesItsWholeNameIgnoringCase() {
        List<ReplicaIdentityAutoset.Entry> entries = ReplicaIdentityAutoset.parse("PUBLIC.ORDERS:FULL,inventory\\.l.*:DEFAULT");

        Map<TableName, ReplicaIdentity> wanted = ReplicaIdentityAutoset.wanted(entries, List.of(ORDERS, ITEMS, LINES));

        assertThat(wanted).containsOnlyKeys(ORDERS, LINES);
        assertThat(wanted.get(ORDERS).kind()).isEqualTo(ReplicaIdentity.Kind.FULL);
    }

    @Test
    void refusesATableTwoEntriesMatch() {
        List<ReplicaIdentityAutoset.Entry> entries = ReplicaIdentityAutoset.parse("inventory\\..*:FULL,inventory.items:DEFAULT");

        assertThatThrownBy(() -> ReplicaIdentityAutoset.wanted(entries, List.of(ITEMS)))
                .hasMessageContaining("all match table inventory.items");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"public.orders", "public.orders:EVERYTHING", "public.orders:INDEX", "public orders:FULL",
        "public.(orders:FULL"})
    void validationRefusesAnEntryThatIsNotTableColonIdentityOnTheKey(String value) {
        Map<String, String> props = MinimalConfig.props();
        props.put("replica.identity.autoset.values", value);

        assertThat(CrossKeyRules.validate(props).configValues()).filteredOn(v -> !v.errorMessages().isEmpty())
                .extracting(ConfigValue::name).containsExactly("replica.identity.autoset.values");
    }

    @Test
    void unsetOrEmptyChangesNoTable() {
        Map<String, String> props = MinimalConfig.props();
        props.put("replica.identity.autoset.values", "");

        assertThat(new PgOutputSourceConnectorConfig(props).replicaIdentityAutosetValues()).isEmpty();
    }
}

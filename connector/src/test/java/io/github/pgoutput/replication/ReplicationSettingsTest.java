package io.github.pgoutput.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.connect.config.MinimalConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicationSettingsTest {

    private static ReplicationSettings.Builder settings() {
        return ReplicationSettings.builder("localhost", 5432, "db", "u", "slot_1", "pub");
    }

    // Slot names and protocol versions are checked once, by the connector configuration (slot.name,
    // protocol.version): PgOutputSourceConnectorConfigTest.refusesSlotNamesPgjdbcWouldPasteUnquoted and
    // refusesUnknownProtocolVersions.

    @Test
    void acceptsA63CharacterSlotName() {
        String name = "s".repeat(63);
        assertThat(settings().slotName(name).build().slotName()).isEqualTo(name);
    }

    @Test
    void refusesPublicationNamesWithSingleQuotesOrOver63Bytes() {
        assertThatThrownBy(() -> settings().publicationName("it's").build())
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.PUBLICATION_NAME));
        assertThatThrownBy(() -> settings().publicationName("é".repeat(32)).build())
                .isInstanceOf(ReplicationSetupException.class).hasMessageContaining("longer than 63 bytes");
    }

    @Test
    void filteredPublicationNeedsTablesAndOtherModesRefuseThem() {
        assertThatThrownBy(() -> settings().publication(PublicationMode.FILTERED, List.of()).build())
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.PUBLICATION_TABLES));
        assertThatThrownBy(() -> settings().publication(PublicationMode.ALL_TABLES, List.of(TableName.parse("t"))).build())
                .isInstanceOf(ReplicationSetupException.class).hasMessageContaining("use FILTERED");
    }

    @Test
    void neverPrintsThePassword() {
        assertThat(settings().password("s3cret").build().toString()).doesNotContain("s3cret").contains("slot_1");
    }
}

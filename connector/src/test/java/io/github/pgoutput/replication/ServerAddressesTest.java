package io.github.pgoutput.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.replication.ServerAddresses.Address;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerAddressesTest {

    @Test
    void oneHostTakesTheDefaultPort() {
        assertThat(ServerAddresses.parse("db.example.com", 5433)).containsExactly(new Address("db.example.com", 5433));
    }

    @Test
    void aListGivesEachHostItsOwnPortOrTheDefault() {
        assertThat(ServerAddresses.parse("pg-a:6432, pg-b ,[::1]:7000,[fe80::2]", 5432)).containsExactly(
                new Address("pg-a", 6432), new Address("pg-b", 5432), new Address("::1", 7000), new Address("fe80::2", 5432));
    }

    @Test
    void aBareIpv6AddressIsOneHostAsBefore() {
        assertThat(ServerAddresses.parse("::1", 5432)).containsExactly(new Address("::1", 5432));
        assertThat(ServerAddresses.forUrl(ServerAddresses.parse("::1", 5432))).isEqualTo("[::1]:5432");
    }

    @Test
    void theUrlListsEveryServerWithItsPort() {
        assertThat(ServerAddresses.forUrl(ServerAddresses.parse("pg-a,pg-b:6432,[::1]", 5432)))
                .isEqualTo("pg-a:5432,pg-b:6432,[::1]:5432");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "pg-a,,pg-b|empty entry",
        "pg-a,|empty entry",
        "pg-a:x|'x', which is not a number",
        "pg-a:0|outside 1-65535",
        "pg-a:70000|outside 1-65535",
        ":5432|a port but no host",
        "[::1|does not close it",
        "[::1]x|expected ':port'",
        "[]:5432|empty address",
        "pg-a,pg-a:5432|the same server twice",
    })
    void malformedListsSayWhatIsWrong(String hostname, String expected) {
        assertThatThrownBy(() -> ServerAddresses.parse(hostname, 5432)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(expected);
    }

    @Test
    void blankNamesNoHost() {
        assertThatThrownBy(() -> ServerAddresses.parse(" ", 5432)).hasMessageContaining("names no host");
    }
}

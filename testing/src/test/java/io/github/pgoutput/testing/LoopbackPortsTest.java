package io.github.pgoutput.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class LoopbackPortsTest {

    @Test
    void handsOutPortsBelowTheRangeTheKernelPicksOutgoingPortsFrom() throws Exception {
        String[] ephemeral = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+");
        int[] range = LoopbackPorts.range();

        assertThat(range[1]).isEqualTo(Integer.parseInt(ephemeral[0]));
        assertThat(Arrays.stream(LoopbackPorts.take(20)).boxed().toList())
                .allSatisfy(port -> assertThat(port).isBetween(range[0], range[1] - 1));
    }

    @Test
    void neverHandsOutTheSamePortTwiceAndEachIsFreeToBind() throws Exception {
        int[] ports = LoopbackPorts.take(200);

        assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(200);
        for (int port : List.of(ports[0], ports[199])) {
            try (ServerSocket server = new ServerSocket()) {
                server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                assertThat(server.getLocalPort()).isEqualTo(port);
            }
        }
    }
}

package io.github.pgoutput.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker that cannot bind its ports says so: the failure carries the tail of the broker's log (the run folder that
 * holds the log is deleted when the run stops) and tells the launcher that a port was in use, so that a start on
 * ports chosen automatically can be tried again on others.
 */
class KafkaProcessesIT {

    @TempDir
    Path workDir;

    @Test
    @Timeout(180)
    void aBrokerWhoseControllerPortIsTakenFailsWithItsLogTailAndSaysThePortWasInUse() throws Exception {
        String classPath = Files.readString(Path.of("target/kafka.classpath")).strip();
        ChildProcesses children = new ChildProcesses();
        // Bound but not listening: a connect() to it is refused, as a probe before the start would see it, yet the
        // broker cannot bind it.
        try (Socket taken = new Socket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int brokerPort = freePort();
            assertThatThrownBy(() -> KafkaProcesses.startBroker(classPath, brokerPort, taken.getLocalPort(), Map.of(),
                    workDir, children))
                    .isInstanceOfSatisfying(KafkaProcesses.StartFailure.class, failure -> {
                        assertThat(failure.portInUse()).as("port in use; the failure: %s", failure.getMessage()).isTrue();
                        assertThat(failure.getMessage()).contains("the Kafka broker exited")
                                .contains(workDir.resolve("broker.log").toString())
                                .contains("Address already in use");
                    });
        } finally {
            children.stopAll();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}

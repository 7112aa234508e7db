package io.github.pgoutput.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.github.pgoutput.testing.LoopbackPorts;

/**
 * What a scenario needs to start its own broker and Connect worker processes: the Kafka class path and the plugin
 * folder a build of this project leaves behind, and free loopback ports for the broker, its controller and the
 * worker's REST API.
 *
 * @param classPath      the Kafka class path the {@code testing} module's build writes
 * @param pluginFolder   the plugin folder {@code packaging} builds (the worker's plugin.path)
 */
record ScenarioProcesses(String classPath, Path pluginFolder, int brokerPort, int controllerPort, int restPort) {

    /**
     * @throws IllegalStateException when the project was not built, saying how to build it
     */
    static ScenarioProcesses of(Path projectRoot) throws IOException {
        Path classPathFile = projectRoot.resolve("testing/target/kafka.classpath");
        Path plugins = projectRoot.resolve("packaging/target/plugin");
        if (!Files.isRegularFile(classPathFile) || !Files.isDirectory(plugins.resolve("kafka-connect-pgoutput"))) {
            throw new IllegalStateException("no " + classPathFile + " or no plugin folder under " + plugins
                    + "; build first: mvn -q -pl scenarios/soak -am package -DskipTests");
        }
        return new ScenarioProcesses(Files.readString(classPathFile).strip(), plugins, LoopbackPorts.take(), LoopbackPorts.take(),
                LoopbackPorts.take());
    }

    String bootstrap() {
        return "127.0.0.1:" + brokerPort;
    }

    String restUrl() {
        return "http://127.0.0.1:" + restPort;
    }
}

package io.github.pgoutput.localrun;

import java.io.IOException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgoutput.testing.kafka.ConnectRest;

/**
 * The connector of a local run: {@code config/pgoutput-source.json} with the database coordinates and spill directory
 * of this run patched in, registered over the worker's REST API.
 */
final class ConnectorRegistration {

    static final String NAME = "shop";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConnectorRegistration() {
    }

    /** The patched connector config; {@code spill.directory} is set to {@code spillDir}. */
    static ObjectNode config(Path configFile, LocalPostgres postgres, Path spillDir) throws IOException {
        ObjectNode config = (ObjectNode) JSON.readTree(configFile.toFile());
        config.put("database.hostname", postgres.host);
        config.put("database.port", String.valueOf(postgres.port));
        config.put("database.user", postgres.user);
        if (postgres.password.isPresent()) {
            config.put("database.password", postgres.password.get());
        } else {
            config.remove("database.password");
        }
        config.put("database.dbname", postgres.database);
        config.put("spill.directory", spillDir.toString());
        return config;
    }

    /** Registers {@code config} as connector {@value #NAME}; returns when it and its task run. */
    static void register(String rest, ObjectNode config) throws InterruptedException {
        new ConnectRest(rest).register(NAME, config);
    }
}

package io.github.pgoutput.bench;

import java.nio.file.Path;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.github.pgoutput.localrun.LocalPostgres;

/**
 * The two connectors compared, each configured for the same table, publication and topic naming, with the settings
 * that differ between their defaults made equal: no transaction metadata records (Debezium's default; ours defaults
 * to true), max.batch.size/max.queue.size left at both defaults (2048/8192), tombstones at both defaults (the
 * workloads delete nothing), snapshot only for W5.
 */
enum Contender {
    OURS("ours"),
    DEBEZIUM("dbz");

    private static final ObjectMapper JSON = new ObjectMapper();

    final String prefix;

    Contender(String prefix) {
        this.prefix = prefix;
    }

    /** Records in the table topic once the leg is complete: one per row for both (neither snapshot writes a truncate). */
    long expectedRecords(Workload workload, int rows) {
        return rows;
    }

    ObjectNode config(LocalPostgres pg, Workload workload, String name, Path spillDir) {
        ObjectNode config = JSON.createObjectNode();
        config.put("tasks.max", "1");
        config.put("database.hostname", pg.host);
        config.put("database.port", String.valueOf(pg.port));
        config.put("database.user", pg.user);
        config.put("database.dbname", pg.database);
        config.put("slot.name", name);
        config.put("publication.name", Workload.PUBLICATION);
        config.put("publication.autocreate.mode", "disabled");
        config.put("table.include.list", "public\\.bench");
        config.put("topic.prefix", name);
        config.put("snapshot.mode", workload.snapshot() ? "initial" : "no_data");
        config.put("provide.transaction.metadata", "false");
        switch (this) {
            case OURS -> {
                config.put("connector.class", "io.github.pgoutput.connect.PgOutputSourceConnector");
                config.put("spill.directory", spillDir.toString());
            }
            case DEBEZIUM -> {
                config.put("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
                config.put("plugin.name", "pgoutput");
            }
        }
        return config;
    }
}

package io.github.pgoutput.connect.simulation;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The connector configuration of a run, and the changes a restart may bring within what the README allows:
 * table.include.list, tombstones.on.delete, provide.transaction.metadata, and prepared.transaction.mode fail to
 * stage (never back). Validation demands provide.transaction.metadata=true with stage, so a stage configuration
 * has it, a switch to stage turns it on in the same change (as the user has to), and it is not toggled under stage.
 * Fixed for the whole run: protocol, streaming, messages, batch sizes. Immutable.
 */
record SimulationConfig(int protocol, String streaming, boolean messages, boolean includeT2, boolean tombstones,
                        boolean metadata, boolean stage, int heartbeatMs, int batch, int queue, long holdBytes) {

    enum Change { INCLUDE_T2, TOMBSTONES, METADATA, STAGE }

    static SimulationConfig draw(SplittableRandom random) {
        int protocol = 1 + random.nextInt(4);
        String streaming = protocol == 1 ? "off" : switch (random.nextInt(protocol == 4 ? 4 : 3)) {
            case 0 -> "off";
            case 3 -> "parallel";
            default -> "on";
        };
        int batch = 1 + random.nextInt(12);
        boolean messages = random.nextInt(3) > 0;
        boolean includeT2 = random.nextBoolean();
        boolean tombstones = random.nextBoolean();
        boolean metadata = random.nextBoolean();
        boolean stage = protocol >= 3 && random.nextInt(3) == 0;
        return new SimulationConfig(protocol, streaming, messages, includeT2, tombstones, metadata || stage, stage,
                random.nextInt(3) == 0 ? 1_000 + random.nextInt(4_000) : 0, batch, batch + 1 + random.nextInt(30),
                random.nextInt(3) == 0 ? 0 : 1 << 16);
    }

    /** The configuration after {@code change}; {@code STAGE} only from fail and with protocol 3 or later. */
    SimulationConfig with(Change change) {
        return switch (change) {
            case INCLUDE_T2 -> new SimulationConfig(protocol, streaming, messages, !includeT2, tombstones, metadata, stage, heartbeatMs, batch, queue, holdBytes);
            case TOMBSTONES -> new SimulationConfig(protocol, streaming, messages, includeT2, !tombstones, metadata, stage, heartbeatMs, batch, queue, holdBytes);
            case METADATA -> allows(change)
                    ? new SimulationConfig(protocol, streaming, messages, includeT2, tombstones, !metadata, stage, heartbeatMs, batch, queue, holdBytes)
                    : this;
            case STAGE -> allows(change)
                    ? new SimulationConfig(protocol, streaming, messages, includeT2, tombstones, true, true, heartbeatMs, batch, queue, holdBytes)
                    : this;
        };
    }

    boolean allows(Change change) {
        return switch (change) {
            case STAGE -> protocol >= 3 && !stage;
            case METADATA -> !stage;
            default -> true;
        };
    }

    Map<String, String> props(Path spillDirectory) {
        Map<String, String> props = new HashMap<>();
        props.put("name", "sim");
        props.put("database.hostname", "simulated");
        props.put("database.user", "sim");
        props.put("database.dbname", "simdb");
        props.put("slot.name", SimulatedPostgres.SLOT);
        props.put("publication.name", "sim_pub");
        props.put("topic.prefix", "sim");
        props.put("snapshot.mode", "no_data");
        props.put("protocol.version", Integer.toString(protocol));
        props.put("streaming", streaming);
        props.put("messages.enabled", Boolean.toString(messages));
        props.put("table.include.list", includeT2 ? "public\\.t0,public\\.t1,public\\.t2" : "public\\.t0,public\\.t1");
        props.put("tombstones.on.delete", Boolean.toString(tombstones));
        props.put("provide.transaction.metadata", Boolean.toString(metadata));
        props.put("prepared.transaction.mode", stage ? "stage" : "fail");
        props.put("heartbeat.interval.ms", Integer.toString(heartbeatMs));
        props.put("max.batch.size", Integer.toString(batch));
        props.put("max.queue.size", Integer.toString(queue));
        props.put("spill.directory", spillDirectory.toString());
        props.put("spill.memory.buffer.bytes", Long.toString(holdBytes));
        return props;
    }

    String describe() {
        return "protocol.version=" + protocol + " streaming=" + streaming + " messages.enabled=" + messages
                + " table.include.list=t0,t1" + (includeT2 ? ",t2" : "") + " tombstones.on.delete=" + tombstones
                + " provide.transaction.metadata=" + metadata + " prepared.transaction.mode=" + (stage ? "stage" : "fail")
                + " heartbeat.interval.ms=" + heartbeatMs + " max.batch.size=" + batch + " max.queue.size=" + queue
                + " spill.memory.buffer.bytes=" + holdBytes;
    }
}

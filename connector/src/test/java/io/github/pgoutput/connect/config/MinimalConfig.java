package io.github.pgoutput.connect.config;

import java.util.HashMap;
import java.util.Map;

/** The smallest connector configuration that passes validation without a database: the keys that have no default. */
public final class MinimalConfig {

    private MinimalConfig() {
    }

    /** A new, mutable map each call, so a test can add to it. */
    public static Map<String, String> props() {
        Map<String, String> props = new HashMap<>();
        props.put("database.hostname", "db.example.com");
        props.put("database.user", "replicator");
        props.put("database.dbname", "shop");
        props.put("slot.name", "shop_slot");
        props.put("publication.name", "shop_pub");
        props.put("topic.prefix", "shop");
        return props;
    }
}

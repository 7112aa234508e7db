package io.github.pgoutput.connect.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/**
 * Connect finds a stored offset by the serialized bytes of its key, [connector name, source partition]: a partition
 * map whose iteration order changes from one JVM to the next makes a restarted worker miss the offset. The soak
 * (issue 7) found that {@code Map.copyOf} did exactly that (its order depends on a per-JVM random salt): after a
 * kill -9 of the worker, about every second restart found no offset, dropped the slot and took the snapshot again,
 * and prepared transactions in between lost their lifecycle records.
 */
class OffsetKeyStabilityTest {

    @Test
    void offsetKeyIsStoredWithDatabaseBeforeSlot() {
        assertThat(storedKey()).isEqualTo("[\"shop\",{\"database\":\"shop\",\"slot\":\"shop_slot\"}]");
    }

    @Test
    void offsetKeyIsTheSameBytesInEveryJvm() throws IOException, InterruptedException {
        Set<String> keys = new HashSet<>();
        for (int jvm = 0; jvm < 5; jvm++) {
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), OffsetKeyStabilityTest.class.getName())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(child.waitFor()).as(output).isZero();
            keys.add(output);
        }
        assertThat(keys).as("the stored key in 5 JVMs (with a per-JVM order, all 5 agree with a chance of 1 in 16)").containsExactly(storedKey());
    }

    /** Prints the stored key, for {@link #offsetKeyIsTheSameBytesInEveryJvm()}. */
    public static void main(String[] args) {
        System.out.println(storedKey());
    }

    /** The key bytes as Connect's offset store writes them (JsonConverter, schemas off), as text. */
    private static String storedKey() {
        try (JsonConverter converter = new JsonConverter()) {
            converter.configure(Map.of("schemas.enable", "false", "converter.type", "key"));
            List<Object> key = new ArrayList<>(List.of("shop", SourceOffsets.partition("shop", "shop_slot")));
            return new String(converter.fromConnectData("", null, key), StandardCharsets.UTF_8);
        }
    }
}

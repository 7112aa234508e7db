package io.github.pgoutput.pgoutput;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Real pgoutput payloads kept as hex text in {@code frames/*.hex} test resources, each file next to a note of the
 * server version and SQL that produced it. Line format: {@code <name> <wal position> <hex, spaces allowed>}.
 */
final class GoldenFrames {

    /** The annotated dumps of docs/pgoutput-protocol.md §7 (PostgreSQL 15.18, 16.10, 17.6, 18.0). */
    static final GoldenFrames SPEC = load("spec-section-7.hex");
    /** Every message kind of a proto_version 1 session, captured from PostgreSQL 15.18. */
    static final GoldenFrames PG15 = load("pg15-message-kinds.hex");

    record Frame(String name, Lsn walPosition, byte[] payload) {
        ByteBuffer buffer() {
            return ByteBuffer.wrap(payload.clone());
        }
    }

    private final Map<String, Frame> frames;

    private GoldenFrames(Map<String, Frame> frames) {
        this.frames = frames;
    }

    Frame frame(String name) {
        Frame frame = frames.get(name);
        if (frame == null) {
            throw new IllegalArgumentException("no golden frame named " + name + "; have " + frames.keySet());
        }
        return frame;
    }

    List<Frame> all() {
        return List.copyOf(frames.values());
    }

    private static GoldenFrames load(String file) {
        try (InputStream in = GoldenFrames.class.getResourceAsStream("frames/" + file)) {
            if (in == null) {
                throw new IllegalStateException("test resource frames/" + file + " is missing");
            }
            Map<String, Frame> frames = new LinkedHashMap<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                String[] parts = trimmed.split("\\s+", 3);
                byte[] payload = HexFormat.of().parseHex(parts[2].replaceAll("\\s+", ""));
                if (frames.put(parts[0], new Frame(parts[0], Lsn.parse(parts[1]), payload)) != null) {
                    throw new IllegalStateException("duplicate frame name " + parts[0] + " in " + file);
                }
            }
            return new GoldenFrames(frames);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.github.pgoutput.parity;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The parity workload ({@code workload.sql} on the test class path) split into its two sections: {@code -- @setup}
 * (schema and the rows the snapshot reads) and {@code -- @stream} (the changes made while the connectors stream).
 * A statement ends at a line that ends with {@code ;}; lines that start with {@code --} are comments.
 */
public record ParityWorkload(String text, List<String> setup, List<String> stream) {

    public static final String RESOURCE = "workload.sql";

    /** Reads {@link #RESOURCE} from the class path. */
    public static ParityWorkload load() {
        try (InputStream in = ParityWorkload.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the test class path");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /**
     * Splits {@code text} into the statements of its sections.
     *
     * @throws IllegalArgumentException for a statement outside a section or one left without its closing {@code ;}
     */
    public static ParityWorkload parse(String text) {
        List<String> setup = new ArrayList<>();
        List<String> stream = new ArrayList<>();
        List<String> current = null;
        StringBuilder statement = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.equals("-- @setup")) {
                current = setup;
                continue;
            }
            if (trimmed.equals("-- @stream")) {
                current = stream;
                continue;
            }
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            if (current == null) {
                throw new IllegalArgumentException("statement before the first section marker: " + trimmed);
            }
            statement.append(statement.length() == 0 ? "" : "\n").append(line);
            if (trimmed.endsWith(";")) {
                String sql = statement.toString().strip();
                current.add(sql.substring(0, sql.length() - 1));
                statement.setLength(0);
            }
        }
        if (statement.length() > 0) {
            throw new IllegalArgumentException("statement without a closing ';': " + statement);
        }
        return new ParityWorkload(text, List.copyOf(setup), List.copyOf(stream));
    }
}

package io.github.pgoutput.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server of {@code bench/pg-throwaway.sh}: a {@link PostgresCluster} for shell scripts, which live as long as
 * this process's standard input stays open.
 *
 * <pre>
 *   java -cp ... io.github.pgoutput.testing.ThrowawayPostgres --bin /usr/lib/postgresql/15/bin \
 *       --setting wal_level=logical --setting "listen_addresses=''" ...
 * </pre>
 *
 * Prints {@code port=N} and {@code dir=D} (the directory holding the Unix socket, the data directory and the server
 * log), then {@code ready}; reads its standard input until end of file (the script closes it, or exits, even when
 * killed), then stops the server and deletes its files. The settings are postgresql.conf lines and are the only
 * ones the server gets, so benchmarks measure the server their scripts describe.
 */
public final class ThrowawayPostgres {

    private ThrowawayPostgres() {
    }

    public static void main(String[] args) throws IOException {
        Path bin = null;
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--bin" -> bin = Path.of(required(value, "--bin"));
                case "--setting" -> {
                    String setting = required(value, "--setting");
                    int equals = setting.indexOf('=');
                    if (equals <= 0) {
                        throw new IllegalArgumentException("--setting takes name=value, not '" + setting + "'");
                    }
                    settings.put(setting.substring(0, equals).strip(), setting.substring(equals + 1).strip());
                }
                default -> throw new IllegalArgumentException("unknown argument '" + args[i]
                        + "'; usage: --bin DIR [--setting name=value]...");
            }
            i++;
        }
        PostgresInstallation installation = bin == null ? PostgresInstallation.of(15) : PostgresInstallation.inDirectory(bin);
        try (PostgresCluster cluster = PostgresCluster.start(new PostgresCluster.Setup(installation, null, settings, true))) {
            System.out.println("port=" + cluster.port());
            System.out.println("dir=" + cluster.baseDirectory());
            System.out.println("ready");
            System.out.flush();
            InputStream in = System.in;
            while (in.read() >= 0) {
                // the script keeps the pipe open while it needs the server
            }
        }
    }

    private static String required(String value, String flag) {
        if (value == null) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return value;
    }
}

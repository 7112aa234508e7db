package io.github.pgoutput.localrun;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Command-line options of {@code bin/pgoutput-local}. A PostgreSQL server is "given" when any of {@code --pg-host}
 * or the {@code PGHOST} variable is set; the other {@code PG*} variables and flags fill in port, user, password and
 * database.
 *
 * @param projectRoot   the repository root: {@code config/} and the built plugin folder live under it
 * @param demo          run the demo workload after the connector is running
 * @param durationSeconds stop by itself after this many seconds; empty: run until Ctrl-C
 * @param plain         print the view's figures as plain lines (non-TTY or {@code --once}) instead of redrawing
 * @param pgHost        a given server's host; empty: start a local one
 * @param kafkaPort     the broker's port; 0: free ports for the broker and its controller, chosen at start
 * @param connectPort   the worker's REST port; 0: a free port, chosen at start
 */
record Options(Path projectRoot, boolean demo, Optional<Long> durationSeconds, boolean plain,
               Optional<String> pgHost, int pgPort, String pgUser, Optional<String> pgPassword, String pgDatabase,
               int kafkaPort, int controllerPort, int connectPort) {

    static final String USAGE = """
            usage: bin/pgoutput-local [--demo] [--duration SECONDS] [--once]
                       [--pg-host HOST] [--pg-port PORT] [--pg-user USER]
                       [--pg-password PASSWORD] [--pg-database DB]
                       [--kafka-port 9092] [--connect-port 8083]
              Without --pg-host (or PGHOST) a throwaway PostgreSQL is started; PGPORT,
              PGUSER, PGPASSWORD and PGDATABASE are read as psql reads them. --once
              prints plain lines instead of a redrawn view. The broker's controller
              listens on the port after --kafka-port. Port 0: any free ports, printed.
              Ctrl-C stops everything this command started.""";

    static Options parse(Path projectRoot, String[] args, Map<String, String> env, boolean terminal) {
        boolean demo = false;
        boolean plain = !terminal;
        Optional<Long> duration = Optional.empty();
        Optional<String> host = Optional.ofNullable(env.get("PGHOST")).filter(s -> !s.isBlank());
        int port = Integer.parseInt(env.getOrDefault("PGPORT", "5432"));
        String user = env.getOrDefault("PGUSER", "postgres");
        Optional<String> password = Optional.ofNullable(env.get("PGPASSWORD"));
        String database = env.getOrDefault("PGDATABASE", "shop");
        int kafkaPort = 9092;
        int connectPort = 8083;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--help", "-h" -> throw new IllegalArgumentException(USAGE);
                case "--demo" -> demo = true;
                case "--once" -> plain = true;
                case "--duration" -> duration = Optional.of(Long.parseLong(value(args, ++i, arg)));
                case "--pg-host" -> host = Optional.of(value(args, ++i, arg));
                case "--pg-port" -> port = Integer.parseInt(value(args, ++i, arg));
                case "--pg-user" -> user = value(args, ++i, arg);
                case "--pg-password" -> password = Optional.of(value(args, ++i, arg));
                case "--pg-database" -> database = value(args, ++i, arg);
                case "--kafka-port" -> kafkaPort = Integer.parseInt(value(args, ++i, arg));
                case "--connect-port" -> connectPort = Integer.parseInt(value(args, ++i, arg));
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'\n" + USAGE);
            }
        }
        return new Options(projectRoot, demo, duration, plain, host, port, user, password, database, kafkaPort,
                kafkaPort == 0 ? 0 : kafkaPort + 1, connectPort);
    }

    private static String value(String[] args, int index, String flag) {
        if (index >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value\n" + USAGE);
        }
        return args[index];
    }
}

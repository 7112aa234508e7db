package io.github.pgoutput.localrun;

import java.util.ArrayList;
import java.util.List;

/**
 * The commands a newcomer runs next to the local run, printed exactly (real ports, a real topic), so each can be
 * pasted as is into a second terminal: {@code psql} to change rows, Kafka's console consumer to read a topic, and the
 * connector's status. No I/O.
 *
 * @param psql      the psql command line of the run's database
 * @param consumer  the console consumer command line for one topic
 * @param status    the curl command line of the connector's status
 * @param noPsql    true when no {@code psql} is on the PATH (the hint says which package brings it)
 * @param inClone   true when the run was started from the clone, so its relative paths work as printed
 */
record TryIt(String psql, String consumer, String status, boolean noPsql, boolean inClone) {

    static final String CONSOLE_CONSUMER = "org.apache.kafka.tools.consumer.ConsoleConsumer";
    static final String KAFKA_CLASS_PATH = "local-run/target/kafka.classpath";

    /**
     * @param clone the clone's directory; when the run was not started from it ({@code inClone} false), the consumer
     *              command starts with a {@code cd} there, which keeps its class path argument short
     */
    static TryIt of(LocalPostgres postgres, String bootstrap, String topic, String restUrl, String connector,
                    String clone, boolean noPsql, boolean inClone) {
        String psql = "psql -h " + postgres.host + " -p " + postgres.port + " -U " + postgres.user + " "
                + postgres.database;
        // The launcher's slf4j binding is on that class path; at its default level it prints the consumer's settings.
        String consumer = (inClone ? "" : "cd " + (clone.contains(" ") ? '"' + clone + '"' : clone) + " && ")
                + "java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp \"$(cat " + KAFKA_CLASS_PATH + ")\" "
                + CONSOLE_CONSUMER + " --from-beginning --bootstrap-server " + bootstrap + " --topic " + topic;
        String status = "curl -s " + restUrl + "/connectors/" + connector + "/status";
        return new TryIt(psql, consumer, status, noPsql, inClone);
    }

    /** What the run prints once the connector runs: a heading, the three commands, each wrapped to {@code width}. */
    List<String> startLines(int width) {
        List<String> lines = new ArrayList<>(TerminalLines.prose(inClone
                ? "Try it from a second terminal in this folder (Ctrl-C here stops everything):"
                : "Try it from a second terminal (Ctrl-C here stops everything):", width));
        lines.addAll(commandLines("  ", width));
        return lines;
    }

    /** The three commands wrapped to {@code width}, unindented: the view indents them under its title. */
    List<String> viewLines(int width) {
        return commandLines("", width);
    }

    /**
     * The notes after the demo, wrapped to {@code width}: it is done, streaming goes on, a change to make with psql,
     * how to stop. The first starts with {@code demo: done}.
     */
    List<String> afterDemo(int width) {
        List<String> lines = new ArrayList<>(TerminalLines.prose(
                "demo: done. The connector keeps streaming; change rows and watch them here:", width));
        lines.addAll(TerminalLines.command(psql + " -c \"UPDATE orders SET status = 'shipped'\"", "  ", width));
        lines.addAll(TerminalLines.prose("Ctrl-C stops everything this run started.", width));
        return lines;
    }

    private List<String> commandLines(String indent, int width) {
        List<String> lines = new ArrayList<>(TerminalLines.command(psql, indent, width));
        if (noPsql) {
            lines.addAll(TerminalLines.prose(indent + "  (no psql here: apt-get install postgresql-client)", width));
        }
        lines.addAll(TerminalLines.command(consumer, indent, width));
        lines.addAll(TerminalLines.command(status, indent, width));
        return lines;
    }
}

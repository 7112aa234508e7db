package io.github.pgoutput.parity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares the records that {@code DebeziumParityIT} runs saved ({@code <dir>/<mode>/{debezium,ours}.jsonl}) again,
 * without servers, for work on the comparison or the allow-list:
 * <pre>
 * java -cp ... io.github.pgoutput.parity.CompareSavedRecords [--known FILE] DIR [DIR...]
 * </pre>
 * writes the report of the first {@code DIR} next to it, and a suggested allow-list accepting the differences of
 * every {@code DIR} (several runs catch differences that come and go). Connector failures of the saved runs are not
 * known here.
 */
public final class CompareSavedRecords {

    private CompareSavedRecords() {
    }

    public static void main(String[] args) throws IOException {
        List<String> arguments = new ArrayList<>(List.of(args));
        KnownDifferences known = KnownDifferences.none();
        if (arguments.size() > 1 && arguments.get(0).equals("--known")) {
            known = KnownDifferences.parse(Files.readString(Paths.get(arguments.get(1))));
            arguments = arguments.subList(2, arguments.size());
        }
        if (arguments.isEmpty()) {
            arguments = List.of("parity/target/parity");
        }
        Map<String, List<Difference>> everything = new LinkedHashMap<>();
        ParityReport first = null;
        for (String argument : arguments) {
            Path dir = Paths.get(argument);
            List<ParityReport.ModeOutcome> outcomes = new ArrayList<>();
            for (ParityMode mode : ParityMode.all()) {
                Path debezium = dir.resolve(mode.name()).resolve("debezium.jsonl");
                Path ours = dir.resolve(mode.name()).resolve("ours.jsonl");
                if (!Files.exists(debezium) || !Files.exists(ours)) {
                    continue;
                }
                RecordComparison.Result result = RecordComparison.compare(read(debezium), "dbz_" + mode.name(), read(ours),
                        "our_" + mode.name());
                ParityReport.ModeOutcome outcome = new ParityReport.ModeOutcome(mode, result, Map.of(), Map.of());
                outcomes.add(outcome);
                everything.computeIfAbsent(mode.name(), m -> new ArrayList<>()).addAll(ParityReport.all(outcome));
            }
            ParityReport report = new ParityReport(outcomes, known);
            System.out.println(dir + ": " + report.summary());
            if (first == null) {
                first = report;
                Files.writeString(dir.resolveSibling("parity-report.md"), report.markdown());
                System.out.println("Parity report: " + dir.resolveSibling("parity-report.md").toAbsolutePath());
            }
        }
        Path suggested = Paths.get(arguments.get(0)).resolveSibling("known-differences.suggested.txt");
        Files.writeString(suggested, KnownDifferences.suggest(everything));
        System.out.println("Suggested allow-list: " + suggested.toAbsolutePath());
    }

    private static List<CapturedRecord> read(Path file) throws IOException {
        return Files.readAllLines(file).stream().filter(l -> !l.isBlank()).map(CapturedRecord::fromJsonLine).toList();
    }
}

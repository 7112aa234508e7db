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
 * Compares the records a {@code DebeziumParityIT} run saved ({@code <dir>/<mode>/{debezium,ours}.jsonl}) again,
 * without servers: {@code java ... CompareSavedRecords parity/target/parity parity/src/test/resources/known-differences.txt}
 * writes the report and the suggested allow-list next to {@code <dir>}. For working on the comparison or the
 * allow-list; connector failures of the saved run are not known here.
 */
public final class CompareSavedRecords {

    private CompareSavedRecords() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Paths.get(args.length > 0 ? args[0] : "parity/target/parity");
        KnownDifferences known = args.length > 1 ? KnownDifferences.parse(Files.readString(Paths.get(args[1])))
                : KnownDifferences.none();
        List<ParityReport.ModeOutcome> outcomes = new ArrayList<>();
        Map<String, List<Difference>> everything = new LinkedHashMap<>();
        for (ParityMode mode : ParityMode.all()) {
            Path debezium = dir.resolve(mode.name()).resolve("debezium.jsonl");
            Path ours = dir.resolve(mode.name()).resolve("ours.jsonl");
            if (!Files.exists(debezium) || !Files.exists(ours)) {
                continue;
            }
            RecordComparison.Result result = RecordComparison.compare(read(debezium), "dbz_" + mode.name(), read(ours),
                    "our_" + mode.name());
            ParityReport.ModeOutcome outcome = new ParityReport.ModeOutcome(mode, result, Map.of());
            outcomes.add(outcome);
            everything.put(mode.name(), ParityReport.all(outcome));
        }
        ParityReport report = new ParityReport(outcomes, known);
        Files.writeString(dir.resolveSibling("parity-report.md"), report.markdown());
        Files.writeString(dir.resolveSibling("known-differences.suggested.txt"), KnownDifferences.suggest(everything));
        System.out.println(report.summary());
        System.out.println("Parity report: " + dir.resolveSibling("parity-report.md").toAbsolutePath());
    }

    private static List<CapturedRecord> read(Path file) throws IOException {
        return Files.readAllLines(file).stream().filter(l -> !l.isBlank()).map(CapturedRecord::fromJsonLine).toList();
    }
}

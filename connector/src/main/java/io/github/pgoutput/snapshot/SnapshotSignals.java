package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a signal does to where an incremental snapshot stands, and the log line that says so. Table names in a signal
 * are Debezium's: regular expressions over {@code schema.table}, matched against the captured tables (a name that is
 * not a valid expression is taken literally). Stateless.
 */
public final class SnapshotSignals {

    private static final Logger log = LoggerFactory.getLogger(SnapshotSignals.class);

    private SnapshotSignals() {
    }

    /**
     * @param from     where the signal came from, for the log
     * @param captured the captured tables, in capture order (listed only for {@code execute-snapshot})
     */
    static IncrementalSnapshotState apply(IncrementalSnapshotState state, Signal signal, String from, Supplier<List<TableName>> captured) {
        if (signal instanceof Signal.ExecuteSnapshot execute) {
            List<IncrementalSnapshotState.Table> tables = tablesOf(execute, from, captured.get());
            if (tables.isEmpty()) {
                return state;
            }
            log.info("Signal '{}' from {}: incremental snapshot of {}{}", signal.id(), from,
                    tables.stream().map(t -> t.name() + (t.condition() == null ? "" : " where " + t.condition())).toList(),
                    state.active() ? " (queued after the tables under way)" : "");
            return state.with(tables);
        }
        if (signal instanceof Signal.StopSnapshot stop) {
            List<Pattern> patterns = stop.dataCollections().stream().map(SnapshotSignals::pattern).toList();
            IncrementalSnapshotState stopped = state.without(t -> patterns.isEmpty()
                    || patterns.stream().anyMatch(p -> p.matcher(t.toString()).matches()));
            log.info("Signal '{}' from {}: stop-snapshot of {}; {} table(s) left to read", signal.id(), from,
                    patterns.isEmpty() ? "all tables" : stop.dataCollections(), stopped.tables().size());
            return stopped;
        }
        if (signal instanceof Signal.PauseSnapshot) {
            log.info("Signal '{}' from {}: incremental snapshot paused{}", signal.id(), from, state.active() ? "" : " (none is under way)");
            return state.paused(true);
        }
        if (signal instanceof Signal.ResumeSnapshot) {
            log.info("Signal '{}' from {}: incremental snapshot resumed", signal.id(), from);
            return state.paused(false);
        }
        if (signal instanceof Signal.Log l) {
            log.info("Signal '{}' from {}: {}", signal.id(), from, l.message());
        }
        return state;
    }

    /** The captured tables {@code execute}'s data collections match, in capture order, with their conditions. */
    private static List<IncrementalSnapshotState.Table> tablesOf(Signal.ExecuteSnapshot execute, String from, List<TableName> captured) {
        List<IncrementalSnapshotState.Table> tables = new ArrayList<>();
        for (String collection : execute.dataCollections()) {
            Pattern pattern = pattern(collection);
            List<TableName> matched = captured.stream().filter(t -> pattern.matcher(t.toString()).matches()
                    || collection.equals(t.toString())).toList();
            if (matched.isEmpty()) {
                log.warn("Signal '{}' from {}: data collection '{}' matches no captured table (captured: {}); nothing to snapshot for it",
                        execute.id(), from, collection, captured);
            }
            for (TableName t : matched) {
                String condition = execute.conditions().get(collection);
                if (condition == null) {
                    condition = execute.conditions().get(t.toString());
                }
                tables.add(new IncrementalSnapshotState.Table(t, condition));
            }
        }
        return tables;
    }

    /** {@code name} as a regular expression, or literally when it is not one. */
    private static Pattern pattern(String name) {
        try {
            return Pattern.compile(name);
        } catch (PatternSyntaxException e) {
            return Pattern.compile(Pattern.quote(name));
        }
    }
}

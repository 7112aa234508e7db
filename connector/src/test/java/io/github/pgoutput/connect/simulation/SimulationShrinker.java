package io.github.pgoutput.connect.simulation;

import java.util.ArrayList;
import java.util.List;

/**
 * Makes a failing script smaller while it still fails with the same kind of violation: greedily drops faults, then
 * history items (whole transactions or standalone records), one at a time, until no single drop keeps it failing.
 * The result is the reproduction printed for a seed; it is deterministic like the runs it makes.
 */
final class SimulationShrinker {

    private SimulationShrinker() {
    }

    static SimulationRun.Result shrink(SimulationRun.Result failing, int maxRuns) {
        SimulationRun.Result best = failing;
        String kind = failing.kind();
        int runs = 0;
        boolean progress = true;
        while (progress && runs < maxRuns) {
            progress = false;
            List<SimulationScript.Fault> faults = best.script().faults();
            for (int i = faults.size() - 1; i >= 0 && runs < maxRuns; i--) {
                List<SimulationScript.Fault> fewer = new ArrayList<>(faults);
                fewer.remove(i);
                SimulationRun.Result tried = SimulationRun.run(best.script().withFaults(fewer));
                runs++;
                if (tried.failed() && tried.kind().equals(kind)) {
                    best = tried;
                    faults = best.script().faults();
                    progress = true;
                }
            }
            List<Integer> ids = best.script().history().presentIds();
            for (int i = ids.size() - 1; i >= 0 && runs < maxRuns; i--) {
                SimulationRun.Result tried = SimulationRun.run(best.script().withHistory(best.script().history().without(ids.get(i))));
                runs++;
                if (tried.failed() && tried.kind().equals(kind)) {
                    best = tried;
                    progress = true;
                }
            }
        }
        return best;
    }
}

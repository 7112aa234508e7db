package io.github.pgoutput.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class ChildProcessesTest {

    /** Field 6 of /proc/PID/stat: the session id (the command name in field 2 may hold spaces, hence after ')'). */
    private static long sessionOf(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3]);
    }

    private static void awaitCommand(long pid, String command) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!Files.readAllLines(Path.of("/proc/" + pid + "/comm")).get(0).strip().equals(command)) {
            assertThat(System.nanoTime()).as("process %d runs %s within 10 s", pid, command).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void eachProcessRunsInASessionOfItsOwnSoCtrlCInTheTerminalDoesNotReachIt(@TempDir Path dir) throws Exception {
        ChildProcesses children = new ChildProcesses();
        try {
            Process sleeper = children.start("sleeper", List.of("sleep", "30"), dir.resolve("sleeper.log"));
            // setsid(1) calls setsid() and then execs the command in place: until the exec, /proc shows the
            // session setsid was started in. Once the process runs the command, its session is final.
            awaitCommand(sleeper.pid(), "sleep");

            assertThat(sessionOf(sleeper.pid())).as("its own session, led by the started process itself").isEqualTo(sleeper.pid());
            assertThat(sessionOf(sleeper.pid())).isNotEqualTo(sessionOf(ProcessHandle.current().pid()));
        } finally {
            children.stopAll();
        }
    }

    @Test
    void stopsWhatWasStartedLastFirstAndStartsNothingOnceStopping(@TempDir Path dir) throws Exception {
        ChildProcesses children = new ChildProcesses();
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        Process[] started = new Process[2];
        children.onStop(() -> seen.add("stopping PostgreSQL; broker alive " + started[0].isAlive()));
        started[0] = children.start("broker", List.of("sleep", "30"), dir.resolve("broker.log"));
        children.onStop(() -> seen.add("stopping the broker; broker alive " + started[0].isAlive() + ", worker alive "
                + started[1].isAlive()));
        started[1] = children.start("worker", List.of("sleep", "30"), dir.resolve("worker.log"));

        children.stopAll();

        assertThat(seen).containsExactly("stopping the broker; broker alive true, worker alive false",
                "stopping PostgreSQL; broker alive false");
        assertThatThrownBy(() -> children.start("late", List.of("sleep", "30"), dir.resolve("late.log")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("everything is being stopped");
    }
}

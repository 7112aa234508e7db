package io.github.pgoutput.assembly;

import static io.github.pgoutput.assembly.Script.begin;
import static io.github.pgoutput.assembly.Script.commit;
import static io.github.pgoutput.assembly.Script.insert;
import static io.github.pgoutput.assembly.Script.relation;
import static io.github.pgoutput.assembly.Script.streamAbort;
import static io.github.pgoutput.assembly.Script.streamCommit;
import static io.github.pgoutput.assembly.Script.streamStart;
import static io.github.pgoutput.assembly.Script.streamStop;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.spill.DiskSpill;
import io.github.pgoutput.spill.SpillSettings;
import io.github.pgoutput.testing.SeededProperty;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Random valid interleavings of streamed, ordinary, aborted and savepoint-using transactions, with the source
 * pausing at random points: the assembler delivers exactly the committed changes, in commit order.
 */
class AssemblyPropertiesTest {

    enum Op { INSERT, SAVEPOINT, RELEASE, ROLLBACK_TO, BLOCK_BREAK, PAUSE }

    record Plan(boolean streamed, boolean commits, List<Op> ops) {
    }

    record Expected(long xid, List<String> values) {
    }

    /** Operations drawn with weights out of 14: INSERT 6; SAVEPOINT, ROLLBACK_TO and BLOCK_BREAK 2 each; RELEASE and PAUSE 1. */
    private static final List<Op> OP_WEIGHTS = List.of(Op.INSERT, Op.INSERT, Op.INSERT, Op.INSERT, Op.INSERT, Op.INSERT,
            Op.SAVEPOINT, Op.SAVEPOINT, Op.RELEASE, Op.ROLLBACK_TO, Op.ROLLBACK_TO, Op.BLOCK_BREAK, Op.BLOCK_BREAK, Op.PAUSE);

    /** 1 to 8 transactions, each streamed or not, committing three times in four, with 0 to 25 operations. */
    private static List<Plan> plans(Random random) {
        int count = 1 + random.nextInt(8);
        List<Plan> plans = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int size = random.nextInt(26);
            List<Op> ops = new ArrayList<>(size);
            for (int j = 0; j < size; j++) {
                ops.add(OP_WEIGHTS.get(random.nextInt(OP_WEIGHTS.size())));
            }
            plans.add(new Plan(random.nextBoolean(), random.nextInt(4) > 0, ops));
        }
        return plans;
    }

    /** 0 to 40 picks in 0..1000: which open transaction sends its next unit. */
    private static List<Integer> schedule(Random random) {
        int size = random.nextInt(41);
        List<Integer> schedule = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            schedule.add(random.nextInt(1001));
        }
        return schedule;
    }

    @Test
    void deliversExactlyTheCommittedChangesInCommitOrder() {
        SeededProperty.check(300, random -> assertDeliversExactlyTheCommittedChanges(plans(random), schedule(random)));
    }

    @Test
    void deliversExactlyTheCommittedChangesOfEmptyAndSingleChangeTransactions() throws IOException {
        for (boolean streamed : new boolean[] {false, true}) {
            for (boolean commits : new boolean[] {false, true}) {
                assertDeliversExactlyTheCommittedChanges(List.of(new Plan(streamed, commits, List.of())), List.of());
                assertDeliversExactlyTheCommittedChanges(List.of(new Plan(streamed, commits, List.of(Op.INSERT))), List.of());
                assertDeliversExactlyTheCommittedChanges(List.of(new Plan(streamed, commits, List.of(Op.ROLLBACK_TO, Op.PAUSE,
                        Op.RELEASE, Op.BLOCK_BREAK))), List.of(0));
            }
        }
    }

    private static void assertDeliversExactlyTheCommittedChanges(List<Plan> plans, List<Integer> schedule) throws IOException {
        Map<Long, Deque<List<PgOutputMessage>>> units = new LinkedHashMap<>();
        Map<Long, List<String>> survivors = new LinkedHashMap<>();
        long xid = 1000;
        long[] subXids = {5000};
        for (Plan plan : plans) {
            xid++;
            units.put(xid, new ArrayDeque<>());
            survivors.put(xid, plan.streamed() ? streamed(xid, plan, subXids, units.get(xid)) : ordinary(xid, plan, units.get(xid)));
        }
        Script script = new Script();
        List<Expected> expected = new ArrayList<>();
        List<Long> open = new ArrayList<>(units.keySet());
        open.removeIf(candidate -> units.get(candidate).isEmpty());
        long lsn = 0x10000;
        int step = 0;
        while (!open.isEmpty()) {
            int pick = schedule.isEmpty() ? 0 : Math.floorMod(schedule.get(step++ % schedule.size()), open.size());
            long next = open.get(pick);
            List<PgOutputMessage> unit = units.get(next).poll();
            lsn += 0x100L * unit.size();
            for (PgOutputMessage message : unit) {
                if (message == null) {
                    script.pause();
                } else if (message instanceof PgOutputMessage.Commit) {
                    script.add(commit(lsn, lsn + 0x10));
                } else if (message instanceof PgOutputMessage.StreamCommit) {
                    script.add(streamCommit(next, lsn, lsn + 0x10));
                } else if (message instanceof PgOutputMessage.Begin) {
                    script.add(begin(next, lsn));
                } else {
                    script.add(message);
                }
                if (message instanceof PgOutputMessage.Commit || message instanceof PgOutputMessage.StreamCommit) {
                    expected.add(new Expected(next, survivors.get(next)));
                }
            }
            if (units.get(next).isEmpty()) {
                open.remove(pick);
            }
        }

        assertThat(run(script)).containsExactlyElementsOf(expected);
    }

    /** Builds the units of a non-streamed transaction (one unit, or none if it aborts); returns what it commits. */
    private static List<String> ordinary(long xid, Plan plan, Deque<List<PgOutputMessage>> units) {
        List<String> values = new ArrayList<>();
        Savepoints savepoints = new Savepoints(xid, new long[] {xid * 1000});
        List<PgOutputMessage> unit = new ArrayList<>();
        unit.add(begin(xid, 0));
        unit.add(relation(0, 1, "t", "id"));
        List<long[]> owned = new ArrayList<>();
        int n = 0;
        for (Op op : plan.ops()) {
            switch (op) {
                case INSERT -> owned.add(new long[] {savepoints.current(), n++});
                case SAVEPOINT -> savepoints.open();
                case RELEASE -> savepoints.release();
                case ROLLBACK_TO -> {
                    Set<Long> aborted = new HashSet<>(savepoints.rollBack());
                    owned.removeIf(change -> aborted.contains(change[0]));
                }
                case PAUSE -> unit.add(null);
                default -> {
                }
            }
        }
        for (long[] change : owned) {
            String value = xid + "-" + change[1];
            values.add(value);
            unit.add(insert(0, 1, value));
        }
        unit.add(commit(0, 0));
        if (plan.commits()) {
            units.add(unit);
        }
        return values;
    }

    /** Builds the blocks, aborts and the final Stream Commit or Abort of a streamed transaction. */
    private static List<String> streamed(long xid, Plan plan, long[] subXids, Deque<List<PgOutputMessage>> units) {
        Savepoints savepoints = new Savepoints(xid, subXids);
        List<long[]> owned = new ArrayList<>();
        List<PgOutputMessage> block = null;
        boolean first = true;
        int n = 0;
        for (Op op : plan.ops()) {
            if (op == Op.INSERT) {
                if (block == null) {
                    block = new ArrayList<>(List.of(streamStart(xid, first)));
                    if (first) {
                        block.add(relation(xid, 1, "t", "id"));
                    }
                    first = false;
                }
                long owner = savepoints.current();
                owned.add(new long[] {owner, n});
                block.add(insert(owner, 1, xid + "-" + n++));
            } else if (op == Op.PAUSE && block != null) {
                block.add(null);
            } else if (op == Op.BLOCK_BREAK || op == Op.ROLLBACK_TO) {
                if (block != null) {
                    block.add(streamStop());
                    units.add(block);
                    block = null;
                }
                if (op == Op.ROLLBACK_TO && savepoints.depth() > 0) {
                    List<Long> aborted = savepoints.rollBack();
                    List<PgOutputMessage> aborts = new ArrayList<>();
                    aborted.forEach(sub -> aborts.add(streamAbort(xid, sub)));
                    units.add(aborts);
                    Set<Long> gone = new HashSet<>(aborted);
                    owned.removeIf(change -> gone.contains(change[0]));
                }
            } else if (op == Op.SAVEPOINT) {
                savepoints.open();
            } else if (op == Op.RELEASE) {
                savepoints.release();
            }
        }
        if (block != null) {
            block.add(streamStop());
            units.add(block);
        }
        if (first) {
            units.addFirst(List.of(streamStart(xid, true), streamStop()));
        }
        units.add(List.of(plan.commits() ? streamCommit(xid, 0, 0) : streamAbort(xid, xid)));
        return plan.commits() ? owned.stream().map(change -> xid + "-" + change[1]).toList() : List.of();
    }

    /** The open savepoints of a transaction, each with the subtransactions released into it. */
    private static final class Savepoints {
        private final long top;
        private final long[] nextSubXid;
        private final Deque<List<Long>> stack = new ArrayDeque<>();

        Savepoints(long top, long[] nextSubXid) {
            this.top = top;
            this.nextSubXid = nextSubXid;
        }

        long current() {
            return stack.isEmpty() ? top : stack.peek().get(0);
        }

        int depth() {
            return stack.size();
        }

        void open() {
            stack.push(new ArrayList<>(List.of(++nextSubXid[0])));
        }

        void release() {
            if (!stack.isEmpty()) {
                List<Long> released = stack.pop();
                if (!stack.isEmpty()) {
                    stack.peek().addAll(released);
                }
            }
        }

        /** Rolls back to the innermost savepoint: its subtransactions, children first; the savepoint gets a new xid. */
        List<Long> rollBack() {
            if (stack.isEmpty()) {
                return List.of();
            }
            List<Long> aborted = new ArrayList<>(stack.pop());
            java.util.Collections.reverse(aborted);
            stack.push(new ArrayList<>(List.of(++nextSubXid[0])));
            return aborted;
        }
    }

    private static List<Expected> run(Script script) throws IOException {
        Path directory = Files.createTempDirectory("assembly-properties");
        try (DiskSpill spill = DiskSpill.open("prop", SpillSettings.defaults("prop").withDirectory(directory).withMemoryBufferBytes(100))) {
            TransactionAssembler assembler = new TransactionAssembler(script.source(), spill, script.decoder(), PreparedTransactionMode.FAIL,
                    1L << 20);
            List<Expected> delivered = new ArrayList<>();
            Delivery current = null;
            List<String> values = null;
            while (true) {
                if (current == null) {
                    current = assembler.nextDelivery();
                    if (current == null) {
                        if (script.isEmpty()) {
                            break;
                        }
                        continue;
                    }
                    values = new ArrayList<>();
                    delivered.add(new Expected(current.xid().value(), values));
                }
                ChangeEvent event = current.changes().next();
                if (event != null) {
                    values.add(Script.valueOf(event.message()));
                } else if (current.changes().atEnd()) {
                    current = null;
                } else {
                    assertThat(script.isEmpty()).as("the cursor waits only while the source is paused").isFalse();
                }
            }
            assertThat(assembler.openStreamedTransactions()).isZero();
            assertThat(spill.usage().transactions()).isZero();
            return delivered;
        } finally {
            try (var files = Files.list(directory)) {
                assertThat(files).isEmpty();
            }
            Files.delete(directory);
        }
    }
}

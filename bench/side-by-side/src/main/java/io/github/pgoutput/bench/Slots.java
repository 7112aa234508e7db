package io.github.pgoutput.bench;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/** Replication slots of the legs: waiting for one to be streamed from, and dropping it once nobody streams from it. */
final class Slots {

    private Slots() {
    }

    static void awaitActive(Statement statement, String slot, int seconds) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!"1".equals(Limits.single(statement,
                "SELECT count(*) FROM pg_replication_slots WHERE active AND slot_name = '" + slot + "'"))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("slot " + slot + " not active within " + seconds + " s");
            }
            Thread.sleep(100);
        }
    }

    /** Drops {@code slot} once it is inactive (the worker's walsender may take a moment to exit); absent is fine. */
    static void drop(Statement statement, String slot) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            String state = Limits.single(statement,
                    "SELECT active::int FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
            if (state.isEmpty()) {
                return;
            }
            if ("0".equals(state)) {
                statement.execute("SELECT pg_drop_replication_slot('" + slot + "')");
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("slot " + slot + " still active 60 s after its client stopped");
            }
            Thread.sleep(200);
        }
    }
}

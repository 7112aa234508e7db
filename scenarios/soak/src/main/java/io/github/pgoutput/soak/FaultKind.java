package io.github.pgoutput.soak;

/** The faults the soak injects, with how each is done. */
enum FaultKind {
    WORKER_KILL("kill -9 of the Connect worker JVM while the connector streams, restarted in the background after 0-2 s"),
    WALSENDER_TERMINATE("pg_terminate_backend of the walsender serving the connector's slot"),
    POSTGRES_RESTART_FAST("pg_ctl restart -m fast"),
    POSTGRES_RESTART_IMMEDIATE("pg_ctl restart -m immediate (crash recovery on start)"),
    BROKER_KILL("kill -9 of the broker JVM while the connector streams, restarted on the same log directory after 0-2 s"),
    SPILL_UNWRITABLE("spill directory unwritable for 2-8 s");

    final String description;

    FaultKind(String description) {
        this.description = description;
    }
}

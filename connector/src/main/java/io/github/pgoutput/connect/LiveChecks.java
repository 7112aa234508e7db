package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ConfigProblem;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import java.util.List;

/**
 * Checks of a configuration against the live database (server reachable, {@code wal_level}, REPLICATION privilege,
 * publication, slot owner, plugin and active pid), run by {@link PgOutputSourceConnector#validate} after the static
 * checks, also when those found errors (then on the keys that passed them, the others at their defaults). The implementation lives with the replication code; until one is given to the connector it
 * performs only the static checks.
 *
 * <p>Implementations may block on I/O for at most a few seconds, must not change the database, and report expected
 * failures (unreachable server, wrong password, missing privilege) as problems rather than exceptions. They are
 * called from Connect's REST threads, possibly concurrently, so they must be thread-safe.
 */
@FunctionalInterface
public interface LiveChecks {

    /**
     * @param config the configuration's keys that passed their static checks, the others at their defaults
     * @return the problems found, each attached to the key a user has to change; empty when all is well
     */
    List<ConfigProblem> check(PgOutputSourceConnectorConfig config);
}

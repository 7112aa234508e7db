package io.github.pgoutput.assembly;

/** Where the assembler pulls decoded messages from, in wire order. Non-blocking; used by one thread. */
@FunctionalInterface
public interface MessageSource {

    /**
     * Returns the next message, or {@code null} when none is available yet (ask again later).
     *
     * @throws RuntimeException if the connection failed; the assembler is then failed too
     */
    WireMessage next();
}

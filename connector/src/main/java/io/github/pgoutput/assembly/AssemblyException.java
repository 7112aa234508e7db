package io.github.pgoutput.assembly;

/**
 * The message stream broke a rule of the protocol, or the assembler cannot go on (spill failure, earlier error).
 * The message names what was seen, its WAL position, and what was expected. After one of these the assembler stays
 * failed: the connector must reconnect from its last confirmed position with a new assembler.
 */
public class AssemblyException extends RuntimeException {

    public AssemblyException(String message) {
        super(message);
    }

    public AssemblyException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A message that may not come where it came: names it and its WAL position, then what was expected instead. */
    static AssemblyException unexpected(WireMessage wire, String expectation) {
        return new AssemblyException("unexpected " + wire.describe() + " " + expectation);
    }
}

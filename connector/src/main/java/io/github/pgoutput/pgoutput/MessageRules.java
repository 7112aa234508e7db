package io.github.pgoutput.pgoutput;

/**
 * Which message types may appear, given the negotiated settings and whether a stream block is open. Checked on the
 * type byte, before any field is read, so a message that cannot be valid here is reported as such rather than as a
 * layout problem further in.
 */
final class MessageRules {

    private MessageRules() {
    }

    /** The protocol documentation's name for a message type, or {@code null} for a byte that is no pgoutput type. */
    static String nameOf(char tag) {
        return switch (tag) {
            case 'B' -> "Begin";
            case 'C' -> "Commit";
            case 'O' -> "Origin";
            case 'R' -> "Relation";
            case 'Y' -> "Type";
            case 'I' -> "Insert";
            case 'U' -> "Update";
            case 'D' -> "Delete";
            case 'T' -> "Truncate";
            case 'M' -> "Message";
            case 'S' -> "Stream Start";
            case 'E' -> "Stream Stop";
            case 'c' -> "Stream Commit";
            case 'A' -> "Stream Abort";
            case 'b' -> "Begin Prepare";
            case 'P' -> "Prepare";
            case 'K' -> "Commit Prepared";
            case 'r' -> "Rollback Prepared";
            case 'p' -> "Stream Prepare";
            default -> null;
        };
    }

    static void check(char tag, boolean insideStreamBlock, DecoderSettings settings, PayloadReader in) {
        String name = nameOf(tag);
        if (name == null) {
            throw in.failureAt(0, unknownTypeProblem(tag));
        }
        boolean streamingMessage = tag == 'S' || tag == 'E' || tag == 'c' || tag == 'A' || tag == 'p';
        if (streamingMessage && !settings.streamingEnabled()) {
            throw in.failureAt(0, name + " is only sent when streaming is on, but this session negotiated streaming OFF"
                    + " (protocol version " + settings.protocolVersion() + "); the decoder settings do not match the"
                    + " START_REPLICATION options");
        }
        boolean twoPhaseMessage = tag == 'b' || tag == 'P' || tag == 'K' || tag == 'r' || tag == 'p';
        if (twoPhaseMessage && !settings.twoPhaseMessagesSupported()) {
            throw in.failureAt(0, name + " is a two-phase commit message, which needs protocol version 3, but this session"
                    + " negotiated protocol version " + settings.protocolVersion() + ". The replication slot has two_phase"
                    + " enabled, and such a slot sends two-phase messages even to clients that did not ask for them."
                    + " Either connect with protocol version 3 and two-phase transactions delivered in stage mode, or use a"
                    + " slot created without two_phase");
        }
        if (insideStreamBlock) {
            if (tag == 'S') {
                throw in.failureAt(0, "nested Stream Start: a stream block is already open, expected Stream Stop first"
                        + " (stream blocks never nest; a Stream Stop was lost or messages are out of order)");
            }
            if (tag == 'B' || tag == 'C' || tag == 'c' || tag == 'A' || twoPhaseMessage) {
                throw in.failureAt(0, name + " cannot appear inside a stream block (between Stream Start and Stream Stop);"
                        + " only Origin, Relation, Type, Insert, Update, Delete, Truncate and Message can. A Stream Stop was"
                        + " lost or messages are out of order");
            }
        } else if (tag == 'E') {
            throw in.failureAt(0, "Stream Stop without an open stream block; expected a Stream Start before it"
                    + " (a Stream Start was lost or messages are out of order)");
        }
    }

    private static String unknownTypeProblem(char tag) {
        String expected = "expected one of B C O R Y I U D T M S E c A b P K r p";
        if (tag == 'w' || tag == 'k') {
            return "unknown message type; this looks like a CopyData '" + tag + "' replication header, which is not part"
                    + " of the pgoutput payload (pass the bytes after the 25-byte 'w' header); " + expected;
        }
        return "unknown message type; " + expected;
    }
}

package io.github.pgoutput.pgoutput;

/** The value of pgoutput's {@code streaming} option for the session being decoded. */
public enum StreamingMode {
    /** Streaming not requested: large transactions arrive whole, as Begin … Commit. */
    OFF,
    /** {@code streaming 'on'} (protocol 2 or higher): large in-progress transactions arrive in stream blocks. */
    ON,
    /**
     * {@code streaming 'parallel'} (protocol 4 or higher): like {@link #ON}, and every Stream Abort also carries
     * the abort LSN and abort time.
     */
    PARALLEL
}

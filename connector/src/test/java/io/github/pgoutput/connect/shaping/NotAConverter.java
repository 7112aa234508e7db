package io.github.pgoutput.connect.shaping;

/** A class that is no custom converter, for the tests of the error on {@code <name>.type}. */
public class NotAConverter {
}

package io.github.pgoutput.benchmarks;

import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.pgoutput.StreamingMode;

/**
 * Prints {@code <messages> <payload bytes>} for each named capture, after checking that every frame decodes.
 * Used by bench/decoder-benchmark.sh to turn JMH's captures/s into messages/s and MB/s.
 */
public final class CaptureStats {

    private CaptureStats() {
    }

    public static void main(String[] args) {
        for (String name : args) {
            CapturedStream stream = CapturedStream.load(name);
            PgOutputDecoder decoder = new PgOutputDecoder(new DecoderSettings(1, StreamingMode.OFF));
            for (int i = 0; i < stream.messageCount(); i++) {
                decoder.decode(stream.frame(i), Lsn.INVALID);
            }
            System.out.println(name + " " + stream.messageCount() + " " + stream.payloadBytes());
        }
    }
}

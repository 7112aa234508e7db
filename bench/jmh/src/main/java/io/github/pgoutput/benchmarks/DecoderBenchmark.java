package io.github.pgoutput.benchmarks;

import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.pgoutput.StreamingMode;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decodes a whole captured stream per operation on one thread, so ops/s × messages in the capture = messages/s.
 * bench/decoder-benchmark.sh runs it and turns the score into messages/s and MB/s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DecoderBenchmark {

    @Param({"insert-heavy", "toast-updates"})
    public String capture;

    private ByteBuffer[] frames;
    private PgOutputDecoder decoder;

    @Setup
    public void load() {
        CapturedStream stream = CapturedStream.load(capture);
        frames = new ByteBuffer[stream.messageCount()];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = stream.frame(i);
        }
        // The captures were taken with proto_version 1 and no streaming.
        decoder = new PgOutputDecoder(new DecoderSettings(1, StreamingMode.OFF));
    }

    @Benchmark
    public void decodeWholeCapture(Blackhole blackhole) {
        for (ByteBuffer frame : frames) {
            blackhole.consume(decoder.decode(frame, Lsn.INVALID));
        }
    }
}

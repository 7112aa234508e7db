package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;

/**
 * Memory does not grow with table size: a table of 2.5 million rows (~420 MB) is snapshotted in a JVM with a 256 MiB
 * heap, and the row count and checksum match what PostgreSQL computes. Slow: one representative version in the ordinary build.
 */
@Nightly
class LargeTableSnapshotIT {

    private static final int ROWS = 2_500_000;

    @PostgresTest(representative = 16)
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void snapshotsTwoAndAHalfMillionRowsWithA256MibHeap(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE big (id bigint PRIMARY KEY, v text, n numeric, ts timestamptz, flag boolean)",
                "INSERT INTO big SELECT g, repeat(md5(g::text), 3) || E'\\t\\\\', g / 7.0, timestamptz '2026-01-01' + g * interval '1 s',"
                        + " g % 2 = 0 FROM generate_series(1, " + ROWS + ") g",
                "ANALYZE big");
        // The same checksum as LargeSnapshotRun, over each column's output-function text.
        String expected = db.queryValue("SELECT count(*) || ' ' || sum(('x' || substr(md5(concat_ws('|', id, v, n, ts, flag)), 1, 15))::bit(60)::bigint::numeric)"
                + " FROM big");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
                LargeSnapshotRun.class.getName(), db.host(), Integer.toString(db.port()), db.name(), db.user(), "public.big")
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(9, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        Matcher result = Pattern.compile("RESULT count=(\\d+) checksum=(\\d+) seconds=([0-9.]+) readSeconds=([0-9.]+) peakHeapBytes=(\\d+)").matcher(output);
        assertThat(result.find()).as(output).isTrue();
        assertThat(result.group(1) + " " + result.group(2)).isEqualTo(expected);
        assertThat(Long.parseLong(result.group(1))).isEqualTo(ROWS);
        assertThat(Long.parseLong(result.group(5))).isLessThan(256L << 20);
        assertThat(output).as("progress is logged per table").contains("Snapshot of public.big finished");
        System.out.println(result.group());
    }
}

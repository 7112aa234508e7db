package io.github.pgoutput.connect.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.pgoutput.pgoutput.Lsn;
import org.junit.jupiter.api.Test;

class ConfirmationLagWatchTest {

    private final AtomicLong clock = new AtomicLong();
    private final ConfirmationLagWatch watch = new ConfirmationLagWatch("s1", Duration.ofMinutes(5), clock::get);

    private void advanceSeconds(long seconds) {
        clock.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
    }

    @Test
    void warnsWhenTheConfirmedLsnStaysBehindEmittedDataLongerThanTheThreshold() {
        assertThat(watch.observe(Lsn.of(0x100), Lsn.of(0x200))).isEmpty();
        advanceSeconds(299);
        assertThat(watch.observe(Lsn.of(0x100), Lsn.of(0x300))).isEmpty();
        advanceSeconds(1);
        assertThat(watch.observe(Lsn.of(0x100), Lsn.of(0x300))).hasValueSatisfying(message -> assertThat(message)
                .contains("s1", "0/100", "0/300", "300 s"));
    }

    @Test
    void repeatsTheWarningAtMostOncePerThreshold() {
        watch.observe(Lsn.of(0x100), Lsn.of(0x200));
        advanceSeconds(300);
        assertThat(watch.observe(Lsn.of(0x100), Lsn.of(0x200))).isPresent();
        advanceSeconds(299);
        assertThat(watch.observe(Lsn.of(0x100), Lsn.of(0x200))).isEmpty();
        advanceSeconds(1);
        assertThat(watch.observe(Lsn.of(0x100), Lsn.of(0x200))).hasValueSatisfying(m -> assertThat(m).contains("600 s"));
    }

    @Test
    void restartsTheWatchWhenTheConfirmedLsnAdvances() {
        watch.observe(Lsn.of(0x100), Lsn.of(0x200));
        advanceSeconds(200);
        assertThat(watch.observe(Lsn.of(0x180), Lsn.of(0x300))).isEmpty();
        advanceSeconds(200);
        assertThat(watch.observe(Lsn.of(0x180), Lsn.of(0x300))).as("only 200 s since it moved").isEmpty();
        advanceSeconds(100);
        assertThat(watch.observe(Lsn.of(0x180), Lsn.of(0x300))).isPresent();
    }

    @Test
    void staysQuietWhileNothingEmittedIsUnconfirmed() {
        watch.observe(Lsn.of(0x200), Lsn.of(0x200));
        advanceSeconds(3600);
        assertThat(watch.observe(Lsn.of(0x200), Lsn.of(0x200))).isEmpty();
        assertThat(watch.observe(Lsn.of(0x300), Lsn.INVALID)).isEmpty();
        advanceSeconds(3600);
        assertThat(watch.observe(Lsn.of(0x300), Lsn.INVALID)).isEmpty();
    }

    @Test
    void aStallThatEndsAndStartsAgainIsTimedFromItsNewStart() {
        watch.observe(Lsn.of(0x100), Lsn.of(0x200));
        advanceSeconds(250);
        watch.observe(Lsn.of(0x200), Lsn.of(0x200));
        advanceSeconds(10);
        assertThat(watch.observe(Lsn.of(0x200), Lsn.of(0x300))).isEmpty();
        advanceSeconds(299);
        assertThat(watch.observe(Lsn.of(0x200), Lsn.of(0x300))).isEmpty();
        advanceSeconds(1);
        assertThat(watch.observe(Lsn.of(0x200), Lsn.of(0x300))).isPresent();
    }
}

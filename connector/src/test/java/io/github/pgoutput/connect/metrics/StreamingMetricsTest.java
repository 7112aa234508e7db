package io.github.pgoutput.connect.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import io.github.pgoutput.pgoutput.Lsn;
import org.junit.jupiter.api.Test;

class StreamingMetricsTest {

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Test
    void registersUnderTheDocumentedNameAndUnregistersOnce() throws Exception {
        StreamingMetrics metrics = new StreamingMetrics("shop, eu", 0);
        ObjectName name = new ObjectName("io.github.pgoutput:type=streaming,connector=\"shop, eu\",task=0");
        assertThat(metrics.name()).isEqualTo(name);
        metrics.register();
        assertThat(server.isRegistered(name)).isTrue();
        assertThat(server.getAttribute(name, "CommittedDeliveries")).isEqualTo(0L);
        metrics.unregister();
        metrics.unregister();
        assertThat(server.isRegistered(name)).isFalse();
    }

    @Test
    void aLeftoverRegistrationIsReplaced() {
        StreamingMetrics old = new StreamingMetrics("leftover", 0);
        old.register();
        StreamingMetrics fresh = new StreamingMetrics("leftover", 0);
        fresh.register();
        fresh.recordsEmitted(3);
        try {
            assertThat(server.getAttribute(fresh.name(), "RecordsEmitted")).isEqualTo(3L);
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            fresh.unregister();
        }
    }

    @Test
    void unknownValuesReadAsEmptyOrMinusOne() {
        StreamingMetrics metrics = new StreamingMetrics("idle", 0);
        assertThat(metrics.getReceivedLsn()).isEmpty();
        assertThat(metrics.getFlushedLsn()).isEmpty();
        assertThat(metrics.getServerWalEndLsn()).isEmpty();
        assertThat(metrics.getRetainedWalBytes()).isEqualTo(-1);
        assertThat(metrics.getMillisBehindSource()).isEqualTo(-1);
        assertThat(metrics.getFailoverSlot()).isFalse();
        assertThat(metrics.getSynchronizedStandbySlots()).isEmpty();
        assertThat(metrics.getPhysicalStandbys()).isEqualTo(-1);
    }

    @Test
    void failoverReadinessReadsAsTheServerShowedIt() throws Exception {
        StreamingMetrics metrics = new StreamingMetrics("failover", 0);
        metrics.failoverReadiness(true, "sb1, sb2", 2);
        metrics.register();
        try {
            assertThat(server.getAttribute(metrics.name(), "FailoverSlot")).isEqualTo(true);
            assertThat(server.getAttribute(metrics.name(), "SynchronizedStandbySlots")).isEqualTo("sb1, sb2");
            assertThat(server.getAttribute(metrics.name(), "PhysicalStandbys")).isEqualTo(2);
        } finally {
            metrics.unregister();
        }
    }

    @Test
    void lsnsReadInPostgresTextForm() {
        StreamingMetrics metrics = new StreamingMetrics("lsns", 0);
        metrics.session(Lsn.parse("16/B374D848"), Lsn.parse("16/B374D000"), Lsn.parse("17/0"));
        assertThat(metrics.getReceivedLsn()).isEqualTo("16/B374D848");
        assertThat(metrics.getFlushedLsn()).isEqualTo("16/B374D000");
        assertThat(metrics.getServerWalEndLsn()).isEqualTo("17/0");
    }

    @Test
    void recordRateCoversTheTimeSinceThePreviousRead() throws InterruptedException {
        StreamingMetrics metrics = new StreamingMetrics("rate", 0);
        metrics.getRecordsPerSecond();
        metrics.recordsEmitted(500);
        Thread.sleep(1_050);
        double rate = metrics.getRecordsPerSecond();
        assertThat(rate).isBetween(1.0, 500.0);
        assertThat(metrics.getRecordsPerSecond()).as("read again within a second: the same figure").isEqualTo(rate);
    }
}

package io.github.pgoutput.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link TransactionSpill} contract, run once per backend: extend it, say how to open the backend and how to
 * damage its stored data, and every rule of the SPI is checked. A custom backend can reuse it from this module's
 * test jar. A backend that needs a live server gets one per test from a class-level extension, and runs once per
 * server version as a parameterized class ({@code DatabaseSpillContractIT} shows how).
 */
public abstract class TransactionSpillContract {

    protected static final Xid TOP = Xid.of(761);
    protected static final Xid OTHER = Xid.of(900);

    private final List<TransactionSpill> opened = new ArrayList<>();

    /** Settings for the backend under test; the contract changes only the buffer size and the limits. */
    protected abstract SpillSettings settings();

    protected abstract TransactionSpill open(SpillSettings settings);

    /** Removes the last stored bytes (or last stored message) of {@code xid} from the store. */
    protected abstract void truncateStored(TransactionSpill spill, Xid xid) throws Exception;

    /** Changes one byte of a stored payload of {@code xid} without changing its length. */
    protected abstract void corruptStored(TransactionSpill spill, Xid xid) throws Exception;

    /** Deletes everything stored for {@code xid} behind the spill's back. */
    protected abstract void removeStored(TransactionSpill spill, Xid xid) throws Exception;

    private TransactionSpill spill(SpillSettings settings) {
        TransactionSpill spill = open(settings);
        spill.clear();
        opened.add(spill);
        return spill;
    }

    private TransactionSpill spill() {
        return spill(settings());
    }

    /** No front buffer: every append reaches the store, so the damage hooks see it. */
    private TransactionSpill unbufferedSpill() {
        return spill(settings().withMemoryBufferBytes(0));
    }

    @AfterEach
    void closeSpills() {
        opened.forEach(TransactionSpill::close);
    }

    protected static ByteBuffer payload(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    protected static List<String> readAll(TransactionSpill spill, Xid xid) {
        List<String> all = new ArrayList<>();
        try (SpillReader reader = spill.read(xid)) {
            SpilledMessage message;
            while ((message = reader.next()) != null) {
                ByteBuffer payload = message.payload();
                byte[] bytes = new byte[payload.remaining()];
                payload.duplicate().get(bytes);
                all.add(new String(bytes, StandardCharsets.UTF_8) + "@" + message.walPosition());
            }
        }
        return all;
    }

    private static void append(TransactionSpill spill, Xid xid, Xid sub, String text, long lsn) {
        spill.append(xid, sub, Lsn.of(lsn), payload(text));
    }

    @Test
    void readsBackEveryMessageInAppendOrderWithItsWalPosition() {
        TransactionSpill spill = spill();
        char[] large = new char[3 * settings().memoryBufferBytes() + 17];
        Arrays.fill(large, 'x');
        append(spill, TOP, TOP, "a", 0x10);
        append(spill, TOP, TOP, "", 0x20);
        append(spill, TOP, TOP, new String(large), 0x30);
        append(spill, TOP, TOP, "b", 0x40);

        assertThat(readAll(spill, TOP)).containsExactly("a@0/10", "@0/20", new String(large) + "@0/30", "b@0/40");
    }

    @Test
    void leavesTheAppendedBufferUnchanged() {
        TransactionSpill spill = spill();
        ByteBuffer payload = ByteBuffer.wrap("xxabcxx".getBytes(StandardCharsets.UTF_8), 2, 3);

        spill.append(TOP, TOP, Lsn.of(1), payload);

        assertThat(payload.position()).isEqualTo(2);
        assertThat(payload.limit()).isEqualTo(5);
        assertThat(readAll(spill, TOP)).containsExactly("abc@0/1");
    }

    @Test
    void readsAnXidWithoutAppendsAsEmpty() {
        assertThat(readAll(spill(), TOP)).isEmpty();
    }

    @Test
    void keepsInterleavedTransactionsApart() {
        TransactionSpill spill = spill();
        append(spill, TOP, TOP, "t1", 1);
        append(spill, OTHER, OTHER, "o1", 2);
        append(spill, TOP, Xid.of(762), "t2", 3);
        append(spill, OTHER, OTHER, "o2", 4);

        assertThat(readAll(spill, TOP)).containsExactly("t1@0/1", "t2@0/3");
        assertThat(readAll(spill, OTHER)).containsExactly("o1@0/2", "o2@0/4");
    }

    @Test
    void discardForgetsOnlyThatTransaction() {
        TransactionSpill spill = spill();
        append(spill, TOP, TOP, "t1", 1);
        append(spill, OTHER, OTHER, "o1", 2);

        spill.discard(TOP);
        spill.discard(Xid.of(12345));

        assertThat(readAll(spill, TOP)).isEmpty();
        assertThat(readAll(spill, OTHER)).containsExactly("o1@0/2");
        assertThat(spill.usage().transactions()).isEqualTo(1);
    }

    @Test
    void discardingASubtransactionRemovesItsFirstMessageAndEverythingAfter() {
        TransactionSpill spill = spill();
        append(spill, TOP, TOP, "a", 1);
        append(spill, TOP, Xid.of(762), "b", 2);
        append(spill, TOP, Xid.of(763), "c", 3);
        append(spill, TOP, Xid.of(762), "d", 4);

        spill.discardSubtransaction(TOP, Xid.of(762));

        assertThat(readAll(spill, TOP)).containsExactly("a@0/1");
    }

    @Test
    void messagesAppendedAfterASubtransactionDiscardSurvive() {
        TransactionSpill spill = spill();
        append(spill, TOP, TOP, "a", 1);
        append(spill, TOP, Xid.of(762), "b", 2);
        spill.discardSubtransaction(TOP, Xid.of(762));
        append(spill, TOP, Xid.of(763), "c", 3);
        append(spill, TOP, TOP, "d", 4);

        assertThat(readAll(spill, TOP)).containsExactly("a@0/1", "c@0/3", "d@0/4");
    }

    @Test
    void discardingASubtransactionThatAppendedNothingChangesNothing() {
        TransactionSpill spill = spill();
        append(spill, TOP, TOP, "a", 1);
        append(spill, TOP, Xid.of(762), "b", 2);

        spill.discardSubtransaction(TOP, Xid.of(799));
        spill.discardSubtransaction(OTHER, Xid.of(901));

        assertThat(readAll(spill, TOP)).containsExactly("a@0/1", "b@0/2");
    }

    @Test
    void nestedDiscardsChildFirstLeaveWhatCameBeforeTheParent() {
        TransactionSpill spill = spill();
        append(spill, TOP, TOP, "a", 1);
        append(spill, TOP, Xid.of(762), "in-parent", 2);
        append(spill, TOP, Xid.of(763), "in-child", 3);

        spill.discardSubtransaction(TOP, Xid.of(763));
        spill.discardSubtransaction(TOP, Xid.of(762));

        assertThat(readAll(spill, TOP)).containsExactly("a@0/1");
    }

    @Test
    void transactionWhoseEveryMessageWasCutOffReadsAsEmpty() {
        TransactionSpill spill = spill();
        append(spill, TOP, Xid.of(762), "b", 1);

        spill.discardSubtransaction(TOP, Xid.of(762));

        assertThat(readAll(spill, TOP)).isEmpty();
        append(spill, TOP, TOP, "c", 2);
        assertThat(readAll(spill, TOP)).containsExactly("c@0/2");
    }

    @Test
    void discardingTheTopXidAsASubtransactionDiscardsTheWholeTransaction() {
        TransactionSpill spill = spill();
        append(spill, TOP, TOP, "a", 1);

        spill.discardSubtransaction(TOP, TOP);

        assertThat(readAll(spill, TOP)).isEmpty();
        assertThat(spill.usage().transactions()).isZero();
    }

    @Test
    void discardsASubtransactionWhoseMessagesAreSplitBetweenStoreAndFrontBuffer() {
        TransactionSpill spill = spill(settings().withMemoryBufferBytes(100));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            append(spill, TOP, TOP, "keep-" + i, i);
            expected.add("keep-" + i + "@" + Lsn.of(i));
        }
        for (int i = 50; i < 100; i++) {
            append(spill, TOP, Xid.of(762), "drop-" + i, i);
        }

        spill.discardSubtransaction(TOP, Xid.of(762));
        append(spill, TOP, TOP, "after", 200);
        expected.add("after@0/C8");

        assertThat(readAll(spill, TOP)).containsExactlyElementsOf(expected);
    }

    @Test
    void clearForgetsEverythingIncludingWhatAnEarlierInstanceLeftBehind() {
        TransactionSpill earlier = open(settings());
        append(earlier, TOP, TOP, "left over", 1);
        readAll(earlier, TOP);

        TransactionSpill spill = spill();

        assertThat(readAll(spill, TOP)).isEmpty();
        assertThat(spill.usage()).isEqualTo(new SpillUsage(0, 0, 0));
        earlier.close();
    }

    @Test
    void usageCountsTransactionsAndBytes() {
        TransactionSpill spill = spill();
        append(spill, TOP, TOP, "0123456789", 1);
        append(spill, OTHER, OTHER, "0123456789", 2);

        SpillUsage usage = spill.usage();

        assertThat(usage.transactions()).isEqualTo(2);
        assertThat(usage.bytes()).isGreaterThanOrEqualTo(20);
    }

    @Test
    void frontBuffersOfManyOpenTransactionsStayWithinTheConfiguredBytes() {
        SpillSettings settings = settings().withMemoryBufferBytes(4096);
        TransactionSpill spill = spill(settings);

        for (int i = 0; i < 5_000; i++) {
            append(spill, Xid.of(1000 + i % 250), Xid.of(1000 + i % 250), "change number " + i, i);
            assertThat(spill.usage().bufferedBytes()).isLessThanOrEqualTo(4096);
        }
        assertThat(readAll(spill, Xid.of(1249))).hasSize(20);
    }

    @Test
    void refusesATransactionBiggerThanTheTransactionLimitAndKeepsWhatCameBefore() {
        TransactionSpill spill = spill(settings().withLimits(200, SpillSettings.UNLIMITED));
        append(spill, TOP, TOP, "small", 1);

        assertThatThrownBy(() -> append(spill, TOP, TOP, "x".repeat(300), 2)).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.max.transaction.bytes=200").hasMessageContaining(TOP.toString());
        assertThat(readAll(spill, TOP)).containsExactly("small@0/1");
    }

    @Test
    void refusesAppendsBeyondTheTotalLimit() {
        TransactionSpill spill = spill(settings().withLimits(SpillSettings.UNLIMITED, 300));
        append(spill, TOP, TOP, "x".repeat(150), 1);

        assertThatThrownBy(() -> append(spill, OTHER, OTHER, "y".repeat(150), 2)).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.max.total.bytes=300");
        spill.discard(TOP);
        append(spill, OTHER, OTHER, "y".repeat(150), 3);
        assertThat(readAll(spill, OTHER)).hasSize(1);
    }

    @Test
    void readFailsBeforeReturningAnythingWhenStoredDataWasTruncated() throws Exception {
        TransactionSpill spill = unbufferedSpill();
        append(spill, TOP, TOP, "a", 1);
        append(spill, TOP, TOP, "b", 2);
        truncateStored(spill, TOP);

        assertThatThrownBy(() -> spill.read(TOP)).isInstanceOf(SpillException.class).hasMessageContaining("761");
    }

    @Test
    void readFailsBeforeReturningAnythingWhenStoredDataWasCorrupted() throws Exception {
        TransactionSpill spill = unbufferedSpill();
        append(spill, TOP, TOP, "first", 1);
        append(spill, TOP, TOP, "second", 2);
        corruptStored(spill, TOP);

        assertThatThrownBy(() -> spill.read(TOP)).isInstanceOf(SpillException.class);
    }

    @Test
    void readFailsWhenStoredDataIsMissing() throws Exception {
        TransactionSpill spill = unbufferedSpill();
        append(spill, TOP, TOP, "a", 1);
        removeStored(spill, TOP);

        assertThatThrownBy(() -> spill.read(TOP)).isInstanceOf(SpillException.class).hasMessageContaining("761");
    }
}

package io.github.pgoutput.connect.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Begin;
import io.github.pgoutput.pgoutput.PgOutputMessage.BeginPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Commit;
import io.github.pgoutput.pgoutput.PgOutputMessage.CommitPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.Delete;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Origin;
import io.github.pgoutput.pgoutput.PgOutputMessage.Prepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.RollbackPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamAbort;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamCommit;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamStart;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamStop;
import io.github.pgoutput.pgoutput.PgOutputMessage.Truncate;
import io.github.pgoutput.pgoutput.PgOutputMessage.Type;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import io.github.pgoutput.pgoutput.PgTimestamps;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.WalFrame;
import org.junit.jupiter.api.Test;

/**
 * The simulation's frame encoder writes what the real decoder reads back as the same message, for every message type
 * each protocol version allows, inside and outside stream blocks: the simulation's bytes are only as good as this.
 */
class SimulationFramesTest {

    private static final long SEED = Long.getLong("simulation.frames.seed", 20261130L);

    @Test
    void everyMessageTheProtocolAllowsDecodesBackToItself() {
        List<DecoderSettings> settings = List.of(new DecoderSettings(1, StreamingMode.OFF), new DecoderSettings(2, StreamingMode.OFF),
                new DecoderSettings(2, StreamingMode.ON), new DecoderSettings(3, StreamingMode.ON),
                new DecoderSettings(4, StreamingMode.ON), new DecoderSettings(4, StreamingMode.PARALLEL));
        SplittableRandom random = new SplittableRandom(SEED);
        int checked = 0;
        for (DecoderSettings setting : settings) {
            PgOutputDecoder decoder = new PgOutputDecoder(setting);
            for (int i = 0; i < 3_000; i++) {
                boolean inside = setting.streamingEnabled() && random.nextBoolean();
                PgOutputMessage message = randomMessage(random, setting, inside);
                if (message == null) {
                    continue;
                }
                WalFrame frame = SimulationFrames.frame(message, inside, setting, Lsn.of(1 + random.nextInt(1 << 20)));
                ByteBuffer payload = frame.payload();
                assertThat(payload.arrayOffset()).isEqualTo(25);
                PgOutputMessage decoded = decoder.decode(payload, frame.headerLsn(), inside);
                assertThat(decoded).as("seed %d, %s, inside block %s", SEED, setting, inside).isEqualTo(message);
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(10_000);
    }

    @Test
    void streamAbortCarriesAbortInfoExactlyWithProtocol4Parallel() {
        StreamAbort withInfo = new StreamAbort(Xid.of(7), Xid.of(8), Optional.of(Lsn.of(99)), Optional.of(PgTimestamps.toInstant(5)));
        assertThat(SimulationFrames.encode(withInfo, false, new DecoderSettings(4, StreamingMode.PARALLEL))).hasSize(25);
        assertThat(SimulationFrames.encode(withInfo, false, new DecoderSettings(4, StreamingMode.ON))).hasSize(9);
        assertThat(SimulationFrames.encode(withInfo, false, new DecoderSettings(2, StreamingMode.ON))).hasSize(9);
    }

    /** A random message valid for {@code settings} at this point (inside or outside a block); null if none fits. */
    private static PgOutputMessage randomMessage(SplittableRandom random, DecoderSettings settings, boolean inside) {
        Xid scoped = inside ? xid(random) : Xid.INVALID;
        if (inside) {
            return switch (random.nextInt(9)) {
                case 0 -> relation(random, scoped);
                case 1 -> new Type(scoped, 16384 + random.nextInt(1000), "public", "mood" + random.nextInt(9));
                case 2 -> new Insert(scoped, rel(random), tuple(random));
                case 3 -> update(random, scoped);
                case 4 -> delete(random, scoped);
                case 5 -> new Truncate(scoped, random.nextInt(4), List.of((long) rel(random), (long) rel(random)));
                case 6 -> new LogicalMessage(scoped, true, lsn(random), "pfx", Bytes.utf8("m" + random.nextInt()));
                case 7 -> new Origin(Lsn.INVALID, "orig" + random.nextInt(3));
                default -> new StreamStop(); // decoded inside the block it closes
            };
        }
        List<Integer> kinds = new ArrayList<>();
        for (int k = 0; k <= 10; k++) {
            kinds.add(k);
        }
        if (settings.streamingEnabled()) {
            kinds.addAll(List.of(11, 12, 13));
        }
        if (settings.twoPhaseMessagesSupported()) {
            kinds.addAll(List.of(16, 17, 18, 19));
            if (settings.streamingEnabled()) {
                kinds.add(15); // Stream Prepare needs both (MessageRules)
            }
        }
        return switch (kinds.get(random.nextInt(kinds.size()))) {
            case 0 -> new Begin(lsn(random), time(random), xid(random));
            case 1 -> new Commit(0, lsn(random), lsn(random), time(random));
            case 2 -> new Origin(lsn(random), "origin-" + random.nextInt(100));
            case 3 -> relation(random, Xid.INVALID);
            case 4 -> new Type(Xid.INVALID, 16384 + random.nextInt(1000), "", "t" + random.nextInt(9));
            case 5 -> new Insert(Xid.INVALID, rel(random), tuple(random));
            case 6 -> update(random, Xid.INVALID);
            case 7 -> delete(random, Xid.INVALID);
            case 8 -> new Truncate(Xid.INVALID, random.nextInt(4), List.of((long) rel(random)));
            case 9 -> new LogicalMessage(Xid.INVALID, random.nextBoolean(), lsn(random), "p", Bytes.copyOf(new byte[] {0, 10, -1}));
            case 10 -> new LogicalMessage(Xid.INVALID, false, lsn(random), "", Bytes.utf8(""));
            case 11 -> new StreamStart(xid(random), random.nextBoolean());
            case 12 -> new StreamCommit(xid(random), 0, lsn(random), lsn(random), time(random));
            case 13 -> settings.streamAbortCarriesAbortInfo()
                    ? new StreamAbort(xid(random), xid(random), Optional.of(lsn(random)), Optional.of(time(random)))
                    : new StreamAbort(xid(random), xid(random), Optional.empty(), Optional.empty());
            case 15 -> new StreamPrepare(0, lsn(random), lsn(random), time(random), xid(random), "g" + random.nextInt(50));
            case 16 -> new BeginPrepare(lsn(random), lsn(random), time(random), xid(random), "gid-" + random.nextInt(50));
            case 17 -> new Prepare(0, lsn(random), lsn(random), time(random), xid(random), "gid-" + random.nextInt(50));
            case 18 -> new CommitPrepared(0, lsn(random), lsn(random), time(random), xid(random), "gid-" + random.nextInt(50));
            default -> new RollbackPrepared(0, lsn(random), lsn(random), time(random), time(random), xid(random), "g");
        };
    }

    private static Relation relation(SplittableRandom random, Xid xid) {
        List<RelationColumn> columns = new ArrayList<>();
        int count = 1 + random.nextInt(4);
        for (int i = 0; i < count; i++) {
            columns.add(new RelationColumn(i == 0, "c" + i, new long[] {20, 23, 25}[random.nextInt(3)], random.nextBoolean() ? -1 : 12));
        }
        ReplicaIdentity identity = ReplicaIdentity.values()[random.nextInt(ReplicaIdentity.values().length)];
        return new Relation(xid, rel(random), random.nextBoolean() ? "public" : "", "t" + random.nextInt(10), identity, columns);
    }

    private static Update update(SplittableRandom random, Xid xid) {
        Optional<OldTuple> old = switch (random.nextInt(3)) {
            case 0 -> Optional.empty();
            case 1 -> Optional.of(new OldTuple(OldTuple.Kind.KEY, tuple(random)));
            default -> Optional.of(new OldTuple(OldTuple.Kind.FULL, tuple(random)));
        };
        return new Update(xid, rel(random), old, tuple(random));
    }

    private static Delete delete(SplittableRandom random, Xid xid) {
        return new Delete(xid, rel(random), new OldTuple(random.nextBoolean() ? OldTuple.Kind.KEY : OldTuple.Kind.FULL, tuple(random)));
    }

    private static TupleData tuple(SplittableRandom random) {
        List<ColumnValue> values = new ArrayList<>();
        int count = random.nextInt(5);
        for (int i = 0; i < count; i++) {
            values.add(switch (random.nextInt(4)) {
                case 0 -> ColumnValue.Null.INSTANCE;
                case 1 -> ColumnValue.UnchangedToast.INSTANCE;
                case 2 -> new ColumnValue.Text(Bytes.utf8("v" + random.nextInt(1000)));
                default -> new ColumnValue.Binary(Bytes.copyOf(new byte[] {(byte) random.nextInt(256), 0}));
            });
        }
        return new TupleData(values);
    }

    private static int rel(SplittableRandom random) {
        return 16384 + random.nextInt(100);
    }

    private static Xid xid(SplittableRandom random) {
        return Xid.of(1 + random.nextLong(0xFFFFFFFEL));
    }

    private static Lsn lsn(SplittableRandom random) {
        return Lsn.of(random.nextLong());
    }

    private static Instant time(SplittableRandom random) {
        return PgTimestamps.toInstant(random.nextLong(1L << 52) - (1L << 51));
    }
}

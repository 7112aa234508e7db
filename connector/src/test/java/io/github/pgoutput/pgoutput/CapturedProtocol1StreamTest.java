package io.github.pgoutput.pgoutput;

import static io.github.pgoutput.pgoutput.SpecFramesDecodingTest.nul;
import static io.github.pgoutput.pgoutput.SpecFramesDecodingTest.text;
import static io.github.pgoutput.pgoutput.SpecFramesDecodingTest.tuple;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.pgoutput.PgOutputMessage.Begin;
import io.github.pgoutput.pgoutput.PgOutputMessage.Commit;
import io.github.pgoutput.pgoutput.PgOutputMessage.Delete;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.Truncate;
import io.github.pgoutput.pgoutput.PgOutputMessage.Type;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A protocol-1 session captured from PostgreSQL 15.18 (SQL in {@code frames/pg15-message-kinds.hex}). */
class CapturedProtocol1StreamTest {

    private final PgOutputDecoder decoder = new PgOutputDecoder(new DecoderSettings(1, StreamingMode.OFF));

    @Test
    void decodesEveryFrameOfTheSessionInOrder() {
        List<Character> tags = GoldenFrames.PG15.all().stream()
                .map(frame -> decoder.decode(frame.buffer(), frame.walPosition()).tag())
                .toList();

        assertThat(tags).containsExactly('B', 'Y', 'R', 'I', 'C', 'B', 'U', 'C', 'B', 'D', 'C', 'B', 'R', 'I', 'C',
                'B', 'U', 'C', 'B', 'D', 'C', 'B', 'M', 'I', 'C', 'B', 'Y', 'R', 'R', 'T', 'C');
    }

    @Test
    void decodesBeginAndCommitOfOneTransaction() {
        assertThat(decode("begin-729")).isEqualTo(new Begin(Lsn.parse("0/15099C0"),
                PgTimestamps.toInstant(0x000304701cc65eb8L), Xid.of(729)));
        assertThat(decode("commit-729")).isEqualTo(new Commit(0, Lsn.parse("0/15099C0"), Lsn.parse("0/15099F0"),
                PgTimestamps.toInstant(0x000304701cc65eb8L)));
    }

    @Test
    void decodesTypeMessageForAUserDefinedEnum() {
        assertThat(decode("type-mood")).isEqualTo(new Type(Xid.INVALID, 16385, "public", "mood"));
    }

    @Test
    void decodesRelationWhoseColumnsUseAUserType() {
        assertThat(decode("relation-kinds")).isEqualTo(new Relation(Xid.INVALID, 16389, "public", "t_kinds",
                ReplicaIdentity.DEFAULT, List.of(
                        new RelationColumn(true, "id", 23, -1),
                        new RelationColumn(false, "m", 16385, -1),
                        new RelationColumn(false, "note", 25, -1))));
    }

    @Test
    void keepsTextValuesAsTheirUtf8Bytes() {
        Insert insert = (Insert) decode("insert-utf8");

        assertThat(insert).isEqualTo(new Insert(Xid.INVALID, 16389, tuple(text("1"), text("happy"), text("héllo"))));
        assertThat(((ColumnValue.Text) insert.newTuple().get(2)).value().length()).isEqualTo(6);
    }

    @Test
    void decodesUpdateThatChangedTheKeyWithTheOldKeyAndANullColumn() {
        assertThat(decode("update-key")).isEqualTo(new Update(Xid.INVALID, 16389,
                Optional.of(new OldTuple(OldTuple.Kind.KEY, tuple(text("1"), nul(), nul()))),
                tuple(text("2"), text("happy"), nul())));
    }

    @Test
    void decodesDeleteByKey() {
        assertThat(decode("delete-key")).isEqualTo(
                new Delete(Xid.INVALID, 16389, new OldTuple(OldTuple.Kind.KEY, tuple(text("2"), nul(), nul()))));
    }

    @Test
    void decodesReplicaIdentityFullRelationWithEveryColumnFlaggedAsKey() {
        assertThat(decode("relation-full")).isEqualTo(new Relation(Xid.INVALID, 16396, "public", "t_full",
                ReplicaIdentity.FULL, List.of(new RelationColumn(true, "id", 23, -1), new RelationColumn(true, "v", 25, -1))));
    }

    @Test
    void decodesUpdateAndDeleteWithTheWholeOldRowUnderReplicaIdentityFull() {
        assertThat(decode("update-full")).isEqualTo(new Update(Xid.INVALID, 16396,
                Optional.of(new OldTuple(OldTuple.Kind.FULL, tuple(text("7"), text("seven")))),
                tuple(text("7"), text("eight"))));
        assertThat(decode("delete-full")).isEqualTo(
                new Delete(Xid.INVALID, 16396, new OldTuple(OldTuple.Kind.FULL, tuple(text("7"), text("eight")))));
    }

    @Test
    void decodesTransactionalLogicalMessage() {
        assertThat(decode("message-tx")).isEqualTo(
                new LogicalMessage(Xid.INVALID, true, Lsn.parse("0/1509CE8"), "txpfx", Bytes.utf8("hello-tx")));
    }

    @Test
    void decodesTruncateOfTwoTablesWithoutOptions() {
        Truncate truncate = (Truncate) decode("truncate-two");

        assertThat(truncate).isEqualTo(new Truncate(Xid.INVALID, 0, List.of(16389L, 16396L)));
        assertThat(truncate.cascade()).isFalse();
        assertThat(truncate.restartIdentity()).isFalse();
    }

    private PgOutputMessage decode(String name) {
        GoldenFrames.Frame frame = GoldenFrames.PG15.frame(name);
        return decoder.decode(frame.buffer(), frame.walPosition());
    }
}

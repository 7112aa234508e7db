package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ResumableProgress.KeyRange;
import io.github.pgoutput.snapshot.ResumableProgress.Position;
import org.junit.jupiter.api.Test;

/** The text forms of a resumable snapshot's position and resumptions, as stored in source offsets. */
class ResumableProgressTest {

    @Test
    void aPositionRoundTripsWhateverItsKeyValuesHold() {
        Position position = Position.after(3, List.of("a:b,c@d|e%f;g!h~i", "", "é \\ ' \" +", "42"));

        String text = ResumableProgress.encode(position);

        assertThat(text).startsWith("3:").doesNotContain("|").doesNotContain("@").doesNotContain(";");
        assertThat(text.substring(2, text.indexOf('!')).split(",", -1)).hasSize(4);
        assertThat(ResumableProgress.decodePosition(text)).isEqualTo(position);
    }

    @Test
    void aPositionOfKeyRangesReadAtOnceRoundTripsWithItsOpenBounds() {
        Position position = new Position(1, List.of(new KeyRange(List.of("10", "a"), List.of("500", "b")),
                new KeyRange(List.of("500", "b"), List.of("900", "")), new KeyRange(List.of("~"), List.of())));

        String text = ResumableProgress.encode(position);

        assertThat(text).isEqualTo("1:10,a!500,b;500,b!900,;%7E!~");
        assertThat(ResumableProgress.decodePosition(text)).isEqualTo(position);
    }

    @Test
    void aKeyOfOneEmptyTextIsNotAnOpenBound() {
        Position afterEmpty = Position.after(0, List.of(""));

        assertThat(ResumableProgress.decodePosition(ResumableProgress.encode(afterEmpty))).isEqualTo(afterEmpty)
                .isNotEqualTo(Position.startOf(0));
        assertThat(afterEmpty.atTableStart()).isFalse();
    }

    @Test
    void aPositionBeforeATablesFirstRowCoversTheWholeTable() {
        Position start = Position.startOf(2);
        assertThat(ResumableProgress.encode(start)).isEqualTo("2:~!~");
        assertThat(ResumableProgress.decodePosition("2:~!~")).isEqualTo(start);
        assertThat(start.atTableStart()).isTrue();
        assertThat(new Position(2, List.of(new KeyRange(List.of(), List.of("5")), new KeyRange(List.of("5"), List.of()))).atTableStart())
                .as("ranges split at 5, none read yet").isTrue();
        assertThat(new Position(2, List.of(new KeyRange(List.of(), List.of("5")), new KeyRange(List.of("7"), List.of()))).atTableStart())
                .as("the second range read up to 7").isFalse();
        assertThat(new Position(2, List.of(new KeyRange(List.of("1"), List.of("5")), new KeyRange(List.of("5"), List.of()))).atTableStart())
                .as("the first range read up to 1").isFalse();
        assertThat(new Position(2, List.of(new KeyRange(List.of(), List.of("5")))).atTableStart()).as("the keys after 5 were read").isFalse();
    }

    @Test
    void aPositionInATableReadInRowHashOrderCarriesTheOrdersFingerprint() {
        String hash = "0123456789abcdef".repeat(4);
        Position hashed = new Position(5, List.of(new KeyRange(List.of(hash), List.of())), "h1-0123456789abcdef");

        String text = ResumableProgress.encode(hashed);

        assertThat(text).isEqualTo("5#h1-0123456789abcdef:" + hash + "!~");
        assertThat(ResumableProgress.decodePosition(text)).isEqualTo(hashed).isNotEqualTo(Position.after(5, List.of(hash)));
        assertThat(ResumableProgress.decodeResumes(ResumableProgress.encode(List.of(new ResumableProgress.Resume(hashed,
                Lsn.parse("0/5"))))).get(0).after().rowOrder()).isEqualTo("h1-0123456789abcdef");
        assertThatThrownBy(() -> new Position(5, List.of(KeyRange.ALL), "h1:x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ResumableProgress.decodePosition("5#h1-0:" + hash)).as("a row order always has ranges")
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSingleKeyFormOfEarlierReleasesIsStillRead() {
        assertThat(ResumableProgress.decodePosition("0:")).isEqualTo(Position.startOf(0));
        assertThat(ResumableProgress.decodePosition("4:k%2C1,7")).isEqualTo(Position.after(4, List.of("k,1", "7")));
    }

    @Test
    void resumptionsRoundTripInOrder() {
        List<ResumableProgress.Resume> resumes = List.of(
                new ResumableProgress.Resume(Position.after(1, List.of("k|1@x")), Lsn.parse("0/16B3748")),
                new ResumableProgress.Resume(new Position(2, List.of(new KeyRange(List.of("7", "y"), List.of("9", "z")),
                        new KeyRange(List.of("9", "z"), List.of()))), Lsn.parse("1/0")));

        String text = ResumableProgress.encode(resumes);

        assertThat(ResumableProgress.decodeResumes(text)).isEqualTo(resumes);
        assertThat(ResumableProgress.encode(List.of())).isEmpty();
        assertThat(ResumableProgress.decodeResumes("")).isEmpty();
    }

    @Test
    void malformedTextIsRefusedWithWhatWasExpected() {
        assertThatThrownBy(() -> ResumableProgress.decodePosition("x:1")).hasMessageContaining("table:key");
        assertThatThrownBy(() -> ResumableProgress.decodePosition("12")).hasMessageContaining("table:key");
        assertThatThrownBy(() -> ResumableProgress.decodePosition("1:a!b!c")).hasMessageContaining("after!upTo");
        assertThatThrownBy(() -> ResumableProgress.decodePosition("1:a!b;c")).hasMessageContaining("after!upTo");
        assertThatThrownBy(() -> ResumableProgress.decodeResumes("1:a")).hasMessageContaining("position@lsn");
        assertThatThrownBy(() -> new Position(0, List.of())).hasMessageContaining("at least one range");
    }

    @Test
    void theFingerprintChangesWithTheTablesAndTheirOrder() {
        TableName a = new TableName("public", "a");
        TableName b = new TableName("public", "b");
        assertThat(ResumableProgress.fingerprint(List.of(a, b))).isEqualTo(ResumableProgress.fingerprint(List.of(a, b)))
                .isNotEqualTo(ResumableProgress.fingerprint(List.of(b, a)))
                .isNotEqualTo(ResumableProgress.fingerprint(List.of(a)))
                .startsWith("2-");
        assertThat(ResumableProgress.fingerprint(List.of(new TableName("public.x", "y"))))
                .isNotEqualTo(ResumableProgress.fingerprint(List.of(new TableName("public", "x.y"))));
    }
}

package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.TableName;
import org.junit.jupiter.api.Test;

/** The text forms of a resumable snapshot's position and resumptions, as stored in source offsets. */
class ResumableProgressTest {

    @Test
    void aPositionRoundTripsWhateverItsKeyValuesHold() {
        ResumableProgress.Position position = new ResumableProgress.Position(3, List.of("a:b,c@d|e%f", "", "é \\ ' \" +", "42"));

        String text = ResumableProgress.encode(position);

        assertThat(text).startsWith("3:").doesNotContain("|").doesNotContain("@");
        assertThat(text.substring(2).split(",", -1)).hasSize(4);
        assertThat(ResumableProgress.decodePosition(text)).isEqualTo(position);
    }

    @Test
    void aPositionBeforeATablesFirstRowHasNoKey() {
        ResumableProgress.Position start = new ResumableProgress.Position(0, List.of());
        assertThat(ResumableProgress.encode(start)).isEqualTo("0:");
        assertThat(ResumableProgress.decodePosition("0:")).isEqualTo(start);
    }

    @Test
    void resumptionsRoundTripInOrder() {
        List<ResumableProgress.Resume> resumes = List.of(
                new ResumableProgress.Resume(new ResumableProgress.Position(1, List.of("k|1@x")), Lsn.parse("0/16B3748")),
                new ResumableProgress.Resume(new ResumableProgress.Position(2, List.of("7", "y")), Lsn.parse("1/0")));

        String text = ResumableProgress.encode(resumes);

        assertThat(ResumableProgress.decodeResumes(text)).isEqualTo(resumes);
        assertThat(ResumableProgress.encode(List.of())).isEmpty();
        assertThat(ResumableProgress.decodeResumes("")).isEmpty();
    }

    @Test
    void malformedTextIsRefusedWithWhatWasExpected() {
        assertThatThrownBy(() -> ResumableProgress.decodePosition("x:1")).hasMessageContaining("table:key");
        assertThatThrownBy(() -> ResumableProgress.decodePosition("12")).hasMessageContaining("table:key");
        assertThatThrownBy(() -> ResumableProgress.decodeResumes("1:a")).hasMessageContaining("position@lsn");
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

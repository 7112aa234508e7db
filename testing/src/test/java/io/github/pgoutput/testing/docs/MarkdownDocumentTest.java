package io.github.pgoutput.testing.docs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MarkdownDocumentTest {

    @Test
    void anchorsFollowGitHubsRules() {
        assertThat(MarkdownDocument.anchorOf("Quick start")).isEqualTo("quick-start");
        assertThat(MarkdownDocument.anchorOf("Column keys (Debezium's data shaping)"))
                .isEqualTo("column-keys-debeziums-data-shaping");
        assertThat(MarkdownDocument.anchorOf("Direct encoding: JSON bytes without the converter (opt in)"))
                .isEqualTo("direct-encoding-json-bytes-without-the-converter-opt-in");
        assertThat(MarkdownDocument.anchorOf("2.2 XLogData `w` (server to client)"))
                .isEqualTo("22-xlogdata-w-server-to-client");
        assertThat(MarkdownDocument.anchorOf("Two-phase slots and `two_phase_at` (PostgreSQL 17 loses data)"))
                .isEqualTo("two-phase-slots-and-two_phase_at-postgresql-17-loses-data");
        assertThat(MarkdownDocument.anchorOf("Keepalive — 17.6")).isEqualTo("keepalive--176");
        assertThat(MarkdownDocument.anchorOf("See [the guide](docs/README.md) **now**")).isEqualTo("see-the-guide-now");
    }

    @Test
    void repeatedHeadingsGetNumberedAnchors() {
        MarkdownDocument document = MarkdownDocument.parse("# Notes\n\n## Notes\n\n### Notes\n");

        assertThat(document.anchors()).containsExactlyInAnyOrder("notes", "notes-1", "notes-2");
    }

    @Test
    void headingsInsideFencedCodeProduceNoAnchor() {
        MarkdownDocument document = MarkdownDocument.parse("# Title\n\n```sh\n# a shell comment\n```\n~~~\n# another\n~~~\n");

        assertThat(document.anchors()).containsExactly("title");
    }

    @Test
    void htmlAnchorsCount() {
        assertThat(MarkdownDocument.parse("<a name=\"old-name\"></a>\n## New name\n").anchors())
                .containsExactlyInAnyOrder("old-name", "new-name");
    }

    @Test
    void linksAreFoundWithTheirLinesAlsoWhenTheirTextSpansLines() {
        MarkdownDocument document = MarkdownDocument.parse("""
                Intro with [a link](docs/a.md#part) and ![a chart](chart.svg "title").

                See [Exactly-once and
                transaction boundaries](#exactly-once-and-transaction-boundaries), and [`code` text](<b c.md>).

                [ref]: CONTRIBUTING.md
                """);

        assertThat(document.links()).containsExactly(
                new MarkdownDocument.Link("docs/a.md#part", 1),
                new MarkdownDocument.Link("chart.svg", 1),
                new MarkdownDocument.Link("#exactly-once-and-transaction-boundaries", 3),
                new MarkdownDocument.Link("b c.md", 4),
                new MarkdownDocument.Link("CONTRIBUTING.md", 6));
    }

    @Test
    void codeHoldsNoLinks() {
        MarkdownDocument document = MarkdownDocument.parse("""
                Write `[text](missing.md)` to link.

                ```
                [text](missing-too.md)
                ```
                """);

        assertThat(document.links()).isEmpty();
    }
}

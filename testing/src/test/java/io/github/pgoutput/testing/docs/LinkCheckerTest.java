package io.github.pgoutput.testing.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LinkCheckerTest {

    @TempDir
    Path root;

    @Test
    void acceptsLinksToExistingFilesFoldersAndHeadings() throws IOException {
        write("README.md", """
                # Project

                [Guide](docs/guide.md), [its setup](docs/guide.md#set-up-postgresql), [the scripts](bench/),
                [above](#project), [external](https://example.com/missing.md), [mail](mailto:a@example.com).
                """);
        write("docs/guide.md", "# Guide\n\n## Set up PostgreSQL\n\nBack to [the README](../README.md#project).\n");
        write("bench/run.sh", "");

        assertThat(brokenLinks()).isEmpty();
    }

    @Test
    void reportsALinkToAFileThatDoesNotExist() throws IOException {
        write("README.md", "# Project\n\nSee [the guide](docs/missing.md).\n");

        assertThat(brokenLinks()).containsExactly(
                "README.md:3: (docs/missing.md) names docs/missing.md, which does not exist");
    }

    @Test
    void reportsAnAnchorThatNoHeadingOfTheTargetProduces() throws IOException {
        write("README.md", "# Project\n\n[Moved](docs/guide.md#records) and [here](#nothing-here).\n");
        write("docs/guide.md", "# Guide\n\n## Record format\n");

        assertThat(brokenLinks()).containsExactly(
                "README.md:3: (docs/guide.md#records) names the anchor #records, which no heading of docs/guide.md "
                        + "produces",
                "README.md:3: (#nothing-here) names the anchor #nothing-here, which no heading of README.md produces");
    }

    @Test
    void reportsALinkLeavingTheRepository() throws IOException {
        write("docs/guide.md", "# Guide\n\n[Outside](../../elsewhere.md)\n");

        assertThat(brokenLinks()).containsExactly("docs/guide.md:3: (../../elsewhere.md) points outside the repository");
    }

    @Test
    void readsMarkdownOutsideBuildOutputAndHiddenFolders() throws IOException {
        write("README.md", "# A\n");
        write("docs/guide.md", "# B\n");
        write("target/copy.md", "[broken](nowhere.md)\n");
        write(".git/notes.md", "[broken](nowhere.md)\n");
        write("connector/target/classes/doc.md", "[broken](nowhere.md)\n");

        assertThat(new LinkChecker(root).markdownFiles()).containsExactly(
                root.resolve("README.md"), root.resolve("docs/guide.md"));
    }

    private List<String> brokenLinks() {
        LinkChecker checker = new LinkChecker(root);
        return checker.brokenLinks(checker.markdownFiles());
    }

    private void write(String relative, String content) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }
}

package io.github.pgoutput.testing.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Every relative link of the repository's Markdown (README, CONTRIBUTING, the guide in docs/, the notes next to code)
 * names a file that exists and, with an anchor, a heading that exists: a section that moved shows up here, not as a
 * dead link on GitHub.
 */
class DocumentationLinksTest {

    private static final Path ROOT = repositoryRoot();

    /**
     * The build passes the directory Maven started in (see this module's pom), which is the repository's root unless
     * Maven ran inside this module; then, as from an IDE, the root is the module's parent.
     */
    private static Path repositoryRoot() {
        Path started = Path.of(System.getProperty("project.root", "."));
        Path moduleParent = Path.of(System.getProperty("basedir", "."), "..");
        return (Files.isDirectory(started.resolve("docs")) ? started : moduleParent).toAbsolutePath().normalize();
    }

    @Test
    void everyRelativeLinkOfTheRepositorysMarkdownNamesAFileAndHeadingThatExist() {
        LinkChecker checker = new LinkChecker(ROOT);
        List<Path> files = checker.markdownFiles();
        assertThat(files).as("Markdown files under %s", ROOT)
                .contains(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md"), ROOT.resolve("docs/README.md"));

        assertThat(checker.brokenLinks(files)).as("broken links in the Markdown files under %s", ROOT).isEmpty();
    }

    @Test
    void theGuideIndexLinksEveryPageOfDocs() throws Exception {
        String index = Files.readString(ROOT.resolve("docs/README.md"));
        List<String> pages;
        try (var listing = Files.list(ROOT.resolve("docs"))) {
            pages = listing.map(path -> path.getFileName().toString())
                    .filter(name -> name.endsWith(".md") && !name.equals("README.md"))
                    .sorted()
                    .toList();
        }

        assertThat(pages).as("pages of docs/ that docs/README.md does not link")
                .allSatisfy(page -> assertThat(index).contains("](" + page));
    }
}

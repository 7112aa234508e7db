package io.github.pgoutput.testing.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks the relative links of a repository's Markdown files: each must name a file or folder that exists inside the
 * repository, and an anchor ({@code #section}) must be one a heading of the target Markdown file produces. Links with a
 * scheme (https:, mailto:) are not followed; neither is an anchor into a file that is not Markdown (GitHub's
 * {@code #L10} line anchors of source files).
 */
public final class LinkChecker {

    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    private final Path root;
    private final Map<Path, MarkdownDocument> parsed = new HashMap<>();

    public LinkChecker(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /**
     * The repository's Markdown files: every {@code *.md} below the root, except in build output ({@code target/})
     * and hidden folders ({@code .git/}, {@code .ci/}).
     */
    public List<Path> markdownFiles() {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(path -> path.toString().endsWith(".md") && Files.isRegularFile(path))
                    .filter(path -> isSource(root.relativize(path)))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isSource(Path relative) {
        for (int i = 0; i < relative.getNameCount() - 1; i++) {
            String folder = relative.getName(i).toString();
            if (folder.equals("target") || folder.startsWith(".") || folder.equals("node_modules")) {
                return false;
            }
        }
        return true;
    }

    /** One line per broken link: file:line, the link as written, and what is wrong with it. */
    public List<String> brokenLinks(List<Path> files) {
        List<String> broken = new ArrayList<>();
        for (Path file : files) {
            for (MarkdownDocument.Link link : document(file).links()) {
                String problem = problemOf(file, link.target());
                if (problem != null) {
                    broken.add(root.relativize(file) + ":" + link.line() + ": (" + link.target() + ") " + problem);
                }
            }
        }
        return broken;
    }

    private String problemOf(Path from, String target) {
        if (SCHEME.matcher(target).find() || target.startsWith("//")) {
            return null;
        }
        int hash = target.indexOf('#');
        String pathPart = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : URLDecoder.decode(target.substring(hash + 1), StandardCharsets.UTF_8);
        int query = pathPart.indexOf('?');
        if (query >= 0) {
            pathPart = pathPart.substring(0, query);
        }
        Path resolved = from;
        if (!pathPart.isEmpty()) {
            String decoded = URLDecoder.decode(pathPart.replace("+", "%2B"), StandardCharsets.UTF_8);
            // On GitHub a link starting with '/' is taken from the repository's root.
            resolved = (decoded.startsWith("/") ? root.resolve(decoded.substring(1)) : from.getParent().resolve(decoded))
                    .normalize();
            if (!resolved.startsWith(root)) {
                return "points outside the repository";
            }
            if (!Files.exists(resolved)) {
                return "names " + root.relativize(resolved) + ", which does not exist";
            }
        }
        if (anchor == null || !resolved.toString().endsWith(".md") || Files.isDirectory(resolved)) {
            return null;
        }
        if (!document(resolved).anchors().contains(anchor)) {
            return "names the anchor #" + anchor + ", which no heading of " + root.relativize(resolved) + " produces";
        }
        return null;
    }

    private MarkdownDocument document(Path file) {
        return parsed.computeIfAbsent(file, path -> {
            try {
                return MarkdownDocument.parse(Files.readString(path, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}

package io.github.pgoutput.testing.docs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Markdown file offers to links (the anchors its headings produce on GitHub) and what it points at (its links),
 * read the way GitHub renders it closely enough for link checking: fenced code blocks and inline code spans hold no
 * links and no headings.
 */
public final class MarkdownDocument {

    /** A link target as written, and the 1-based line its link starts on. */
    public record Link(String target, int line) {}

    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");
    private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$");
    // A code span does not reach over a blank line, which ends its paragraph.
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)((?:(?!\\n[ \\t]*\\n).)+?)\\1", Pattern.DOTALL);
    // [text](target) and ![alt](target), the text over several lines, an optional <...> around the target and an
    // optional "title" after it.
    private static final Pattern INLINE_LINK =
            Pattern.compile("\\[((?:[^\\[\\]]|\\[[^\\[\\]]*\\])*)\\]\\(\\s*(<[^>]*>|[^\\s)]+)(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_DEFINITION = Pattern.compile("(?m)^ {0,3}\\[[^\\]]+\\]:[ \\t]*<?([^\\s>]+)>?");
    private static final Pattern HTML_ANCHOR =
            Pattern.compile("<a\\s+(?:[^>]*\\s)?(?:name|id)\\s*=\\s*\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);
    private static final Pattern HTML_TAG = Pattern.compile("<[^>]+>");
    private static final Pattern LINK_IN_HEADING = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");
    // GitHub keeps letters, digits, marks, '-', '_' and spaces of a heading's text, and drops every other character.
    private static final Pattern NOT_IN_ANCHOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\-_ ]");

    private final Set<String> anchors;
    private final List<Link> links;

    private MarkdownDocument(Set<String> anchors, List<Link> links) {
        this.anchors = anchors;
        this.links = links;
    }

    public static MarkdownDocument parse(String markdown) {
        String prose = withoutFencedCode(markdown);
        return new MarkdownDocument(anchorsOf(prose), linksOf(withoutCodeSpans(prose)));
    }

    /** The anchors a link may name after '#': one per heading (GitHub's rules), and explicit HTML anchors. */
    public Set<String> anchors() {
        return anchors;
    }

    public List<Link> links() {
        return links;
    }

    /**
     * The anchor GitHub gives a heading: its rendered text in lower case, every character other than a letter, a digit,
     * '-', '_' or a space dropped, and each space turned into '-'.
     */
    public static String anchorOf(String headingSource) {
        String text = LINK_IN_HEADING.matcher(headingSource).replaceAll("$1");
        text = HTML_TAG.matcher(text).replaceAll("");
        text = text.replace("`", "").replace("*", "");
        return NOT_IN_ANCHOR.matcher(text.strip().toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
    }

    /** The text with fenced code blocks blanked out, line breaks kept so that line numbers hold. */
    private static String withoutFencedCode(String markdown) {
        StringBuilder out = new StringBuilder(markdown.length());
        String fence = null;
        for (String line : markdown.split("\n", -1)) {
            Matcher opening = FENCE.matcher(line);
            if (fence == null && opening.find()) {
                fence = opening.group(1);
            } else if (fence != null) {
                if (isClosing(line.strip(), fence)) {
                    fence = null;
                }
            } else {
                out.append(line);
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static boolean isClosing(String line, String fence) {
        return line.length() >= fence.length() && line.chars().allMatch(c -> c == fence.charAt(0));
    }

    /** Inline code spans blanked out (they hold no links), line breaks kept. */
    private static String withoutCodeSpans(String prose) {
        Matcher span = CODE_SPAN.matcher(prose);
        StringBuilder out = new StringBuilder(prose.length());
        while (span.find()) {
            span.appendReplacement(out, span.group().replaceAll("[^\n]", " "));
        }
        span.appendTail(out);
        return out.toString();
    }

    private static Set<String> anchorsOf(String prose) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose.split("\n", -1)) {
            Matcher heading = ATX_HEADING.matcher(line);
            if (heading.matches()) {
                String anchor = anchorOf(heading.group(2) == null ? "" : heading.group(2));
                int times = seen.merge(anchor, 1, Integer::sum);
                // GitHub numbers a repeated anchor: the second "notes" heading is "notes-1".
                anchors.add(times == 1 ? anchor : anchor + "-" + (times - 1));
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1));
            }
        }
        return Set.copyOf(anchors);
    }

    private static List<Link> linksOf(String prose) {
        List<Link> links = new ArrayList<>();
        Matcher inline = INLINE_LINK.matcher(prose);
        while (inline.find()) {
            String target = inline.group(2);
            if (target.startsWith("<")) {
                target = target.substring(1, target.length() - 1);
            }
            links.add(new Link(target, lineOf(prose, inline.start())));
        }
        Matcher definition = REFERENCE_DEFINITION.matcher(prose);
        while (definition.find()) {
            links.add(new Link(definition.group(1), lineOf(prose, definition.start())));
        }
        return List.copyOf(links);
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }
}

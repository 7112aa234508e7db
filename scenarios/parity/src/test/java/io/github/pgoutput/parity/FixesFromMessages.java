package io.github.pgoutput.parity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A refused configuration changed as its validation messages say: each message that says {@code write key=value}
 * sets that key (and, when it names another key than the one refused, removes the refused one: a pre-2.0 name
 * replaced by the current one). A refusal without such an instruction is left as it is.
 */
final class FixesFromMessages {

    private static final Pattern WRITE = Pattern.compile("write ([a-z][a-z0-9._]*)=([^\\s]+)");

    private FixesFromMessages() {
    }

    static Map<String, String> apply(Map<String, String> config, Map<String, List<String>> errors) {
        Map<String, String> fixed = new LinkedHashMap<>(config);
        errors.forEach((key, messages) -> {
            for (String message : messages) {
                Matcher matcher = WRITE.matcher(message);
                if (matcher.find()) {
                    String target = matcher.group(1);
                    String value = matcher.group(2).replaceAll("[;,.)]+$", "");
                    if (!target.equals(key)) {
                        fixed.remove(key);
                    }
                    fixed.put(target, value);
                    break;
                }
            }
        });
        return fixed;
    }
}

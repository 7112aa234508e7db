package io.github.pgoutput.localrun;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class LiveScreenTest {

    private static final String ANSI = "\033\\[[0-9;]*[A-Za-z]";

    /** What the demo shows after a while: its four topics, many records with long keys and headers, many notes. */
    private static LiveScreen.Figures demo(Map<String, Long> topics, int records, int notes) {
        List<LiveScreen.Row> latest = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            latest.add(new LiveScreen.Row("shop.public.order_lines", 1000 + i, "c",
                    "{\"order_id\":" + i + ",\"line\":\"Ada Lovelace's analytical engine, spare parts\"}",
                    Map.of("pg.xid", "7" + i, "pg.lsn", "0/1A2B3C8", "pg.outcome", "COMMITTED", "pg.gid", "demo-commit-" + i,
                            "pg.two_phase", "true")));
        }
        List<String> activity = new ArrayList<>();
        for (int i = 0; i < notes; i++) {
            activity.add("note " + i + " demo: large transaction, 4000 rows kept and 500 rows of a rolled-back savepoint");
        }
        return new LiveScreen.Figures(125, commandsToTry().viewLines(78), "shop", topics,
                new LiveScreen.Slot("shop_slot", Optional.empty(), "0/1A2B3C8", "0/1A2B3D0", 8, 123_456_789, true),
                65_536, latest, activity);
    }

    /** The commands the view shows under its title, as a run started from the clone prints them. */
    private static TryIt commandsToTry() {
        LocalPostgres server = LocalPostgres.given(Options.parse(Path.of("."), new String[] {"--pg-host", "127.0.0.1",
                "--pg-port", "45813"}, Map.of(), false));
        return TryIt.of(server, "127.0.0.1:9092", "shop.public.orders", "http://127.0.0.1:8083", "shop", "/src/clone",
                false, true);
    }

    private static Map<String, Long> demoTopics() {
        Map<String, Long> topics = new LinkedHashMap<>();
        topics.put("shop.public.customers", 12L);
        topics.put("shop.public.order_lines", 4_021L);
        topics.put("shop.public.orders", 7L);
        topics.put("shop.transaction", 36L);
        return topics;
    }

    private static List<String> visible(List<String> lines) {
        return lines.stream().map(l -> l.replaceAll(ANSI, "")).toList();
    }

    @Test
    void theDemoFitsAnEightyByTwentyFourTerminalWithEverySection() {
        List<String> lines = visible(LiveScreen.render(demo(demoTopics(), 40, 8), 80, 24));

        assertThat(lines).hasSizeLessThanOrEqualTo(24).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
        assertThat(lines.get(0)).contains("125 s").contains("Ctrl-C");
        assertThat(lines).anyMatch(l -> l.contains("shop.public.order_lines") && l.endsWith("4,021"))
                .anyMatch(l -> l.contains("shop.transaction"))
                .anyMatch(l -> l.contains("confirmed 0/1A2B3C8") && l.contains("current 0/1A2B3D0"))
                .anyMatch(l -> l.contains("retained WAL 123.5 MB") && l.contains("spill 65.5 kB on disk"))
                .anyMatch(l -> l.startsWith("Latest records"))
                .anyMatch(l -> l.startsWith("Activity"));
        assertThat(lines).as("the newest record and the newest note are shown")
                .anyMatch(l -> l.contains("#1039")).anyMatch(l -> l.contains("note 7"));
        assertThat(lines).as("the oldest ones are not").noneMatch(l -> l.contains("#1000")).noneMatch(l -> l.contains("note 0"));
    }

    @Test
    void theCommandsToTryStandUncutUnderTheTitleOfAnEightyColumnTerminal() {
        List<String> lines = visible(LiveScreen.render(demo(demoTopics(), 40, 8), 80, 24));

        assertThat(lines.subList(1, 8)).containsExactly(
                "  psql -h 127.0.0.1 -p 45813 -U postgres shop",
                "  java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \\",
                "    -cp \"$(cat local-run/target/kafka.classpath)\" \\",
                "    org.apache.kafka.tools.consumer.ConsoleConsumer --from-beginning \\",
                "    --bootstrap-server 127.0.0.1:9092 --topic shop.public.orders",
                "  curl -s http://127.0.0.1:8083/connectors/shop/status",
                "Records per topic");
        assertThat(lines).as("four records and four notes still shown")
                .filteredOn(l -> l.contains("public.order_lines") && l.contains(" c ")).hasSize(4);
        assertThat(lines).filteredOn(l -> l.startsWith("  note ")).hasSize(4);
    }

    @Test
    void aRecordLineNamesTopicWithoutPrefixOffsetOpKeyXidAndOutcome() {
        List<String> lines = visible(LiveScreen.render(demo(demoTopics(), 1, 0), 80, 24));

        String record = lines.get(lines.indexOf("Latest records") + 1);
        assertThat(record).startsWith("  public.order_lines")
                .contains("#1000").contains(" c ").contains("{\"order_id\":0,\"line\":")
                .contains(" xid 70 COMMITTED");
    }

    @Test
    void spacesInKeysStaySpacesAndControlCharactersCannotMoveTheCursor() {
        LiveScreen.Figures figures = new LiveScreen.Figures(1, List.of(), "shop", demoTopics(),
                LiveScreen.Slot.unreadable("shop_slot", "not created yet"), 0,
                List.of(new LiveScreen.Row("shop.public.customers", 3, "u", "{\"name\":\"Ada\tLove\033[2Jlace\nx y\"}", Map.of())),
                List.of());

        List<String> lines = LiveScreen.render(figures, 80, 24);

        assertThat(lines).contains("  public.customers       #3 u     {\"name\":\"Ada Love [2Jlace x y\"}");
        assertThat(String.join("", lines).replaceAll(ANSI, "")).doesNotContain("\033").doesNotContain("\n").doesNotContain("\t");
        assertThat(visible(lines)).anyMatch(l -> l.equals("Slot shop_slot: not created yet"));
    }

    @Test
    void opsLongerThanFiveColumnsAreCutToFourLettersAndADot() {
        LiveScreen.Figures figures = new LiveScreen.Figures(1, List.of(), "shop", Map.of(),
                LiveScreen.Slot.unreadable("shop_slot", "not created yet"), 0,
                List.of(new LiveScreen.Row("shop.public.orders", 4, "tombstone", "{\"id\":1}", Map.of()),
                        new LiveScreen.Row("shop.transaction", 5, "BEGIN", "{\"id\":\"731\"}", Map.of())),
                List.of());

        assertThat(visible(LiveScreen.render(figures, 80, 24)))
                .contains("  public.orders          #4 tomb. {\"id\":1}", "  transaction            #5 BEGIN {\"id\":\"731\"}");
    }

    @Test
    void moreTopicsThanFitAreSummarisedOnOneLine() {
        Map<String, Long> topics = new LinkedHashMap<>();
        for (int i = 0; i < 30; i++) {
            topics.put("shop.public.table_" + i, 10L);
        }
        List<String> lines = visible(LiveScreen.render(demo(topics, 40, 8), 80, 24));

        assertThat(lines).hasSizeLessThanOrEqualTo(24);
        assertThat(lines).filteredOn(l -> l.contains("shop.public.table_")).hasSize(5);
        assertThat(lines).contains("  ... 25 more topics, 250 records");
        assertThat(lines).as("records still shown").anyMatch(l -> l.contains("#1039"));
    }

    @Test
    void aSmallerOrWiderTerminalIsFilledToItsSize() {
        for (int[] size : new int[][] {{60, 16}, {40, 12}, {132, 50}, {20, 5}}) {
            List<String> lines = visible(LiveScreen.render(demo(demoTopics(), 40, 8), size[0], size[1]));
            assertThat(lines).as("%d x %d", size[0], size[1]).hasSizeLessThanOrEqualTo(size[1])
                    .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(size[0]));
        }
        assertThat(LiveScreen.render(demo(demoTopics(), 40, 8), 132, 50)).as("a tall terminal shows more records")
                .filteredOn(l -> l.contains("#10")).hasSizeGreaterThan(20);
    }

    @Test
    void longTextIsCutWithAnEllipsisAndBytesAreShownInDecimalUnits() {
        assertThat(LiveScreen.fit("abcdefghij", 8)).isEqualTo("abcde...");
        assertThat(LiveScreen.fit("abc", 8)).isEqualTo("abc");
        assertThat(LiveScreen.bytes(0)).isEqualTo("0 B");
        assertThat(LiveScreen.bytes(999)).isEqualTo("999 B");
        assertThat(LiveScreen.bytes(65_536)).isEqualTo("65.5 kB");
        assertThat(LiveScreen.bytes(3_400_000_000L)).isEqualTo("3.4 GB");
    }
}

package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command lines of the README and the guide against the command. A block marked
 * {@code <!-- command: PATH#NAME -->} shows a line the test in PATH runs through
 * {@code DocumentedCommand.of(TheTest.class, name)}: renaming an option the line uses fails that test, and a
 * test that no longer asks for the line fails here. Every other {@code flushcheck} line (blocks, code spans,
 * and the option tables under a {@code flushcheck ...} heading) names only options that picocli's model of
 * its command has, so a typo or a renamed option in the docs fails too.
 */
class DocumentedCommandsTests {

    private static final Pattern MARKER = Pattern.compile("<!-- command: (\\S+)#(\\S+) -->");
    private static final Pattern RUNS = Pattern.compile("DocumentedCommand\\s*\\.of\\(\\s*(\\w+)\\.class\\s*,\\s*\"([^\"]+)\"\\s*\\)");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern HEADING_COMMAND = Pattern.compile("^#+ .*`(flushcheck[^`]*)`.*");

    /** A marked line: where the marker is, and the test and name it names. */
    record Marked(String where, String source, String name) {
    }

    static List<Marked> markers() {
        List<Marked> marked = new ArrayList<>();
        for (Path page : GuidePages.pages()) {
            for (GuidePages.Block block : GuidePages.blocks(page)) {
                Matcher m = MARKER.matcher(block.before());
                if (m.matches()) {
                    marked.add(new Marked(block.where(), m.group(1), m.group(2)));
                }
            }
        }
        return marked;
    }

    /** Every {@code DocumentedCommand.of(...)} in the build's test sources, as the marker naming it would read. */
    static Set<String> linesTestsRun() throws IOException {
        Path root = GuidePages.root();
        Set<String> runs = new LinkedHashSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path source : files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/test/java/")
                    && !p.toString().contains("/target/")).toList()) {
                Matcher m = RUNS.matcher(Files.readString(source));
                while (m.find()) {
                    if (!source.getFileName().toString().equals(m.group(1) + ".java")) {
                        fail(root.relativize(source) + " asks for the line of another class: " + m.group());
                    }
                    runs.add(root.relativize(source) + "#" + m.group(2));
                }
            }
        }
        return runs;
    }

    @Test
    void everyMarkedLineIsOneATestRuns() throws IOException {
        Set<String> runs = linesTestsRun();
        List<String> problems = new ArrayList<>();
        for (Marked m : markers()) {
            if (!runs.contains(m.source() + "#" + m.name())) {
                problems.add(m.where() + ": no test runs " + m.source() + "#" + m.name()
                        + " (DocumentedCommand.of(" + Path.of(m.source()).getFileName().toString().replace(".java", "")
                        + ".class, \"" + m.name() + "\") in it)");
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyLineATestRunsIsMarked() throws IOException {
        Set<String> marked = new LinkedHashSet<>();
        markers().forEach(m -> marked.add(m.source() + "#" + m.name()));
        Set<String> runs = linesTestsRun();
        assertThat(marked).as("lines the guide marks as run by a test: this many are there today").hasSizeGreaterThanOrEqualTo(4);
        assertThat(runs).as("lines tests run, each marked on a page").isSubsetOf(marked);
    }

    @Test
    void everyMarkedBlockHoldsOneFlushcheckLine() {
        List<String> problems = new ArrayList<>();
        for (Path page : GuidePages.pages()) {
            for (GuidePages.Block block : GuidePages.blocks(page)) {
                if (block.before().startsWith("<!-- command:")) {
                    if (!MARKER.matcher(block.before()).matches()) {
                        problems.add(block.where() + ": not <!-- command: PATH#NAME -->: " + block.before());
                    } else if (GuidePages.commandLines(block).size() != 1) {
                        problems.add(block.where() + ": " + GuidePages.commandLines(block).size() + " flushcheck lines");
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @TestFactory
    Stream<DynamicTest> everyOptionTheGuideNamesIsAnOptionOfItsCommand() {
        Path root = GuidePages.root();
        return GuidePages.pages().stream().map(page -> DynamicTest.dynamicTest(root.relativize(page).toString(), () -> {
            List<String> problems = new ArrayList<>();
            for (GuidePages.Block block : GuidePages.blocks(page)) {
                for (String line : GuidePages.commandLines(block)) {
                    problems.addAll(unknownOptions(block.where(), GuidePages.arguments(line)));
                }
            }
            List<String> prose = GuidePages.prose(page);
            String text = String.join("\n", prose);
            Matcher span = CODE_SPAN.matcher(text);
            while (span.find()) {
                String arguments = GuidePages.arguments(span.group(1));
                if (arguments != null) {
                    int line = text.substring(0, span.start()).split("\n", -1).length;
                    problems.addAll(unknownOptions(root.relativize(page) + ":" + line, arguments));
                }
            }
            problems.addAll(unknownTableOptions(root.relativize(page).toString(), prose));
            if (!problems.isEmpty()) {
                fail(root.relativize(page) + ": " + problems.size() + " option(s) the command does not have:\n"
                        + String.join("\n", problems));
            }
        }));
    }

    @Test
    void theOptionCheckSeesTheGuidesLinesAndCatchesAnUnknownOne() {
        assertThat(unknownOptions("x", "powercut --cuts 8 --verify 'test -d {dir}' -- sh -c 'exit 0' {dir}")).isEmpty();
        assertThat(unknownOptions("x", "powercut sqlite [--modle M] [--cuts N]"))
                .containsExactly("x: --modle: no such option of flushcheck powercut sqlite");
        assertThat(unknownOptions("x", "--rounds=100 --requires-real-flush /tmp"))
                .containsExactly("x: --requires-real-flush: no such option of flushcheck");
        long lines = GuidePages.pages().stream().flatMap(p -> GuidePages.blocks(p).stream())
                .mapToLong(b -> GuidePages.commandLines(b).size()).sum();
        assertThat(lines).as("flushcheck lines in sh and console blocks: this many are there today").isGreaterThanOrEqualTo(5);
    }

    @Test
    void aCiJobsLinesAreCommandLinesAsAShellBlocksAre() {
        Path page = GuidePages.root().resolve("docs/guide/in-ci.md");
        GuidePages.Block github = new GuidePages.Block(page, 1, "yaml", "", List.of(
                "steps:",
                "  - run: java -jar flushcheck.jar --modle x \"$DATA_DIR\"",
                "  - name: gate",
                "    run: |",
                "      java -jar flushcheck.jar --rounds 100 \\",
                "        /data",
                "  - run: mvn -B test"));
        GuidePages.Block gitlab = new GuidePages.Block(page, 1, "yaml", "", List.of(
                "  script:",
                "    - java -jar flushcheck.jar --require-real-flush \"$DATA_DIR\"",
                "    - echo flushcheck"));
        assertThat(GuidePages.commandLines(github)).containsExactly(
                "java -jar flushcheck.jar --modle x \"$DATA_DIR\"", "java -jar flushcheck.jar --rounds 100 \\\n        /data");
        assertThat(GuidePages.commandLines(gitlab)).containsExactly("java -jar flushcheck.jar --require-real-flush \"$DATA_DIR\"");
        assertThat(unknownOptions("x", GuidePages.arguments(GuidePages.commandLines(github).get(0))))
                .containsExactly("x: --modle: no such option of flushcheck");
    }

    /**
     * The options of a documented line its command does not have. Square brackets (a synopsis's optional
     * parts) are dropped; the words up to the first other word name the subcommand; {@code --} ends the options.
     */
    static List<String> unknownOptions(String where, String arguments) {
        CommandSpec spec = model();
        List<String> problems = new ArrayList<>();
        List<String> words;
        try {
            words = ShellWords.split(arguments.replaceAll("[\\[\\]]", ""), variable -> "$" + variable);
        } catch (IllegalArgumentException e) {
            return List.of(where + ": " + e.getMessage());
        }
        boolean commandNamed = false;
        for (String word : words) {
            if (word.equals("--")) {
                break;
            }
            if (word.startsWith("-") && word.length() > 1) {
                String name = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
                if (spec.findOption(name) == null) {
                    problems.add(where + ": " + name + ": no such option of " + spec.qualifiedName().replace("<main class>", "flushcheck"));
                }
                commandNamed = true;
            } else if (!commandNamed && spec.subcommands().containsKey(word)) {
                spec = spec.subcommands().get(word).getCommandSpec();
            } else {
                commandNamed = true;
            }
        }
        return problems;
    }

    /** The options in the first cell of the tables under a heading naming a command ({@code ## `flushcheck powercut`}). */
    static List<String> unknownTableOptions(String page, List<String> prose) {
        List<String> problems = new ArrayList<>();
        String command = null;
        for (int i = 0; i < prose.size(); i++) {
            String line = prose.get(i);
            Matcher heading = HEADING_COMMAND.matcher(line);
            if (heading.matches()) {
                command = GuidePages.arguments(heading.group(1));
            } else if (command != null && line.startsWith("| `-")) {
                String firstCell = line.substring(1, line.indexOf('|', 1));
                Matcher span = CODE_SPAN.matcher(firstCell);
                while (span.find()) {
                    String option = span.group(1).split(" ")[0];
                    problems.addAll(unknownOptions(page + ":" + (i + 1), command + " " + option));
                }
            }
        }
        return problems;
    }

    private static CommandSpec model() {
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        return CommandLines.commandLine(nowhere).getCommandSpec();
    }
}

package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/guide/configuration.md lists every {@code flushcheck.*} key the main code of any module reads, and only
 * keys some main code reads; and no main code decides by the {@code CI} environment variable, which every
 * hosted CI sets for its users' builds too.
 */
class ConfigurationKeysTests {

    /** A whole string literal that is a {@code flushcheck.} name. */
    private static final Pattern NAME = Pattern.compile("\"(flushcheck\\.[A-Za-z0-9.-]*[A-Za-z0-9])\"");

    /** A key's row in configuration.md's tables. */
    private static final Pattern ROW = Pattern.compile("^\\| `(flushcheck\\.[^`]+)` \\|");

    /** Names in main code that a user does not set, each with why. */
    private static final Map<String, String> NOT_KEYS = Map.of(
            "flushcheck.verdict", "a report entry",
            "flushcheck.warning", "a report entry",
            "flushcheck.powercut.model", "a report entry",
            "flushcheck.powercut.afterCut", "a report entry",
            "flushcheck.failingsyncs.point", "a report entry",
            "flushcheck.guest.environment", "set by GuestMain inside a guest, for the tests there to read",
            "flushcheck.guest.dataDir", "set by GuestMain inside a guest, for the tests there to read",
            "flushcheck.hostEdge", "set by flushcheck-vm for the JVMs it starts in its guests");

    /** One literal in one file, at a line. */
    private record Use(Path file, int line, String text, String name) {
        @Override
        public String toString() {
            return GuidePages.root().relativize(file) + ":" + line;
        }
    }

    private static List<Path> mainSources() {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> modules = Files.list(GuidePages.root())) {
            for (Path module : modules.sorted().toList()) {
                Path main = module.resolve("src/main/java");
                if (Files.isDirectory(main)) {
                    try (Stream<Path> s = Files.walk(main)) {
                        s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(files).as("main sources under %s", GuidePages.root()).hasSizeGreaterThan(100);
        return files;
    }

    /** Code lines only: a javadoc or comment line names keys without reading them. */
    private static boolean code(String line) {
        String s = line.strip();
        return !(s.startsWith("*") || s.startsWith("/*") || s.startsWith("//"));
    }

    private static List<Use> literals(List<Path> files) {
        List<Use> uses = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = GuidePages.lines(f);
            for (int i = 0; i < lines.size(); i++) {
                if (!code(lines.get(i))) {
                    continue;
                }
                Matcher m = NAME.matcher(lines.get(i));
                while (m.find()) {
                    uses.add(new Use(f, i + 1, lines.get(i), m.group(1)));
                }
            }
        }
        return uses;
    }

    private static Set<String> documented() {
        Set<String> keys = new TreeSet<>();
        for (String line : GuidePages.lines(GuidePages.root().resolve("docs/guide/configuration.md"))) {
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                keys.add(m.group(1));
            }
        }
        return keys;
    }

    /**
     * Whether main code does more with {@code key} than declare it: the literal used in place, or the constant
     * declared with it referred to on another code line.
     */
    private static boolean used(String key, List<Use> literals, List<Path> files) {
        Pattern declaration = Pattern.compile("(\\w+)\\s*=\\s*\"" + Pattern.quote(key) + "\"");
        Set<String> constants = new TreeSet<>();
        for (Use u : literals) {
            if (!u.name().equals(key)) {
                continue;
            }
            Matcher m = declaration.matcher(u.text());
            if (m.find()) {
                constants.add(m.group(1));
            } else {
                return true;
            }
        }
        for (String constant : constants) {
            Pattern reference = Pattern.compile("\\b" + constant + "\\b");
            for (Path f : files) {
                for (String line : GuidePages.lines(f)) {
                    if (code(line) && reference.matcher(line).find() && !declaration.matcher(line).find()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    @Test
    void everyKeyTheCodeReadsIsDocumentedAndEveryDocumentedKeyIsRead() {
        List<Path> files = mainSources();
        List<Use> literals = literals(files);
        Set<String> documented = documented();
        Map<String, List<Use>> undocumented = new TreeMap<>();
        for (Use u : literals) {
            if (!documented.contains(u.name()) && !NOT_KEYS.containsKey(u.name())) {
                undocumented.computeIfAbsent(u.name(), k -> new ArrayList<>()).add(u);
            }
        }
        assertThat(undocumented).as("flushcheck.* names in main code that configuration.md does not list "
                + "(document the key, or add it to NOT_KEYS with why it is not one)").isEmpty();

        Set<String> inCode = new TreeSet<>();
        literals.forEach(u -> inCode.add(u.name()));
        List<String> unread = documented.stream()
                .filter(k -> !inCode.contains(k) || !used(k, literals, files)).toList();
        assertThat(unread).as("keys configuration.md lists that no main code reads").isEmpty();

        assertThat(documented).as("names listed as keys and as not keys")
                .doesNotContainAnyElementsOf(NOT_KEYS.keySet());
        assertThat(inCode).as("NOT_KEYS names no longer in the code").containsAll(NOT_KEYS.keySet());
        assertThat(documented).as("configuration.md's keys").contains("flushcheck.missing-tool",
                "flushcheck.shared-verdict-seconds", "flushcheck.guest.baseImage", "flushcheck.powercut.serverHeap");
    }

    @Test
    void noMainCodeDecidesByTheCiVariable() {
        List<String> readers = new ArrayList<>();
        for (Path f : mainSources()) {
            List<String> lines = GuidePages.lines(f);
            for (int i = 0; i < lines.size(); i++) {
                if (code(lines.get(i)) && lines.get(i).contains("\"CI\"")) {
                    readers.add(GuidePages.root().relativize(f) + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertThat(readers).as("main code naming the CI environment variable: use flushcheck.missing-tool").isEmpty();
    }
}

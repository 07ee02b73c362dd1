package io.flushcheck.sample;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The README and the guide show Java that compiles and runs: every {@code ```java} block in README.md and
 * docs/**.md is preceded by {@code <!-- example: PATH#NAME -->} and equals the region between
 * {@code // tag::NAME[]} and {@code // end::NAME[]} in PATH (a test source of this build), with the tag lines
 * and the region's common indentation removed. An example typed into Markdown alone drifts from the API; one
 * taken from a test that runs cannot. A {@code ```xml} block preceded by such a marker is checked the same way,
 * against the region between {@code <!-- tag::NAME[] -->} and {@code <!-- end::NAME[] -->} of a file the build
 * uses (an example project's pom). Every relative link of those pages must name a file that exists (and a
 * heading there, for a link with an anchor).
 */
class DocumentedExamplesTests {

    private static final Pattern MARKER = Pattern.compile("<!-- example: (\\S+)#(\\S+) -->");
    private static final Pattern TAG_LINE = Pattern.compile("(// (tag|end)::\\S+\\[\\])|(<!-- (tag|end)::\\S+\\[\\] -->)");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

    /** The repository's root: the nearest directory above the working directory with README.md and docs/. */
    static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs"))) {
                return p;
            }
        }
        throw new IllegalStateException("no README.md with docs/ above " + Path.of("").toAbsolutePath());
    }

    static List<Path> pages() throws IOException {
        Path root = root();
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    @Test
    void theGuideIsThereAndShowsExamples() throws IOException {
        List<Path> pages = pages();
        assertTrue(pages.contains(root().resolve("docs/guide/README.md")), "docs/guide/README.md, the guide's index: " + pages);
        long blocks = 0;
        for (Path page : pages) {
            blocks += javaBlocks(Files.readAllLines(page)).size();
        }
        // A parser that found no block would pass every page: this many are there today.
        assertTrue(blocks >= 10, "java blocks found in " + pages.size() + " pages: " + blocks);
    }

    @TestFactory
    Stream<DynamicTest> everyJavaBlockIsATaggedRegionOfACompiledTest() throws IOException {
        Path root = root();
        return pages().stream().map(page -> DynamicTest.dynamicTest(root.relativize(page).toString(), () -> {
            List<String> problems = examplesProblems(root, page);
            if (!problems.isEmpty()) {
                fail(root.relativize(page) + ": " + problems.size() + " example(s) differ from their sources:\n\n"
                        + String.join("\n\n", problems));
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyRelativeLinkResolves() throws IOException {
        Path root = root();
        return pages().stream().map(page -> DynamicTest.dynamicTest(root.relativize(page).toString(), () -> {
            List<String> broken = brokenLinks(page);
            if (!broken.isEmpty()) {
                fail(root.relativize(page) + ": " + broken.size() + " link(s) lead nowhere:\n" + String.join("\n", broken));
            }
        }));
    }

    /** A fenced block of a page: the line of its opening fence (0-based) and its lines. */
    record Block(int line, List<String> lines) {
    }

    static List<Block> javaBlocks(List<String> page) {
        return blocks(page, "java");
    }

    /** The fenced blocks of a page whose info string is {@code language}. */
    static List<Block> blocks(List<String> page, String language) {
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < page.size(); i++) {
            String fence = page.get(i).strip();
            if (!fence.startsWith("```")) {
                continue;
            }
            int end = i + 1;
            while (end < page.size() && !page.get(end).strip().equals("```")) {
                end++;
            }
            if (fence.substring(3).strip().equals(language)) {
                blocks.add(new Block(i, page.subList(i + 1, Math.min(end, page.size()))));
            }
            i = end;
        }
        return blocks;
    }

    static List<String> examplesProblems(Path root, Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
        List<String> problems = new ArrayList<>();
        List<Block> checked = new ArrayList<>(javaBlocks(lines));
        // XML (a pom's parts) is checked where a marker names its source; other XML blocks are left as written.
        blocks(lines, "xml").stream().filter(b -> marker(lines, b).matches()).forEach(checked::add);
        for (Block block : checked) {
            String where = "line " + (block.line() + 1);
            Matcher m = marker(lines, block);
            if (!m.matches()) {
                problems.add(where + ": a java block without <!-- example: PATH#NAME --> on the line before it");
                continue;
            }
            Path source = root.resolve(m.group(1));
            if (!Files.isRegularFile(source)) {
                problems.add(where + ": " + m.group(1) + " does not exist");
                continue;
            }
            List<String> region = region(Files.readAllLines(source), m.group(2));
            if (region == null) {
                problems.add(where + ": " + m.group(1) + " has no region // tag::" + m.group(2) + "[] ... // end::"
                        + m.group(2) + "[]");
                continue;
            }
            List<String> shown = trimmed(block.lines());
            if (!shown.equals(region)) {
                problems.add(where + ": differs from " + m.group(1) + "#" + m.group(2) + " (- source, + Markdown):\n"
                        + diff(region, shown));
            }
        }
        return problems;
    }

    private static Matcher marker(List<String> lines, Block block) {
        return MARKER.matcher(block.line() > 0 ? lines.get(block.line() - 1).strip() : "");
    }

    /**
     * The lines between the tags ({@code // tag::NAME[]} in Java, {@code <!-- tag::NAME[] -->} in XML), without
     * any tag lines inside (nested regions) and their common indentation.
     */
    static List<String> region(List<String> source, String name) {
        int start = -1;
        for (int i = 0; i < source.size(); i++) {
            String s = source.get(i).strip();
            if (isTag(s, "tag", name)) {
                start = i;
            } else if (isTag(s, "end", name) && start >= 0) {
                List<String> body = new ArrayList<>();
                for (String line : source.subList(start + 1, i)) {
                    if (!TAG_LINE.matcher(line.strip()).matches()) {
                        body.add(line);
                    }
                }
                return trimmed(body);
            }
        }
        return null;
    }

    private static boolean isTag(String line, String kind, String name) {
        return line.equals("// " + kind + "::" + name + "[]") || line.equals("<!-- " + kind + "::" + name + "[] -->");
    }

    private static List<String> trimmed(List<String> lines) {
        int indent = lines.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        return lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent).stripTrailing()).toList();
    }

    /** A line diff from the longest common subsequence: enough to see which lines moved apart. */
    static String diff(List<String> a, List<String> b) {
        int[][] lcs = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        StringBuilder out = new StringBuilder();
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
                out.append("  ").append(a.get(i++)).append('\n');
                j++;
            } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
                out.append("- ").append(a.get(i++)).append('\n');
            } else {
                out.append("+ ").append(b.get(j++)).append('\n');
            }
        }
        return out.toString().stripTrailing();
    }

    static List<String> brokenLinks(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
        List<String> broken = new ArrayList<>();
        boolean inFence = false;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().startsWith("```")) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            // Code spans may hold brackets and parentheses that are no link.
            Matcher m = LINK.matcher(lines.get(i).replaceAll("`[^`]*`", ""));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue; // https:, mailto:: not this test's to check
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add("line " + (i + 1) + ": " + target + ": no file " + resolved);
                } else if (hash >= 0 && !anchors(resolved).containsKey(target.substring(hash + 1))) {
                    broken.add("line " + (i + 1) + ": " + target + ": no heading with that anchor in " + resolved);
                }
            }
        }
        return broken;
    }

    /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
    static Map<String, String> anchors(Path page) {
        Map<String, String> anchors = new LinkedHashMap<>();
        if (!page.toString().endsWith(".md")) {
            return anchors;
        }
        try {
            for (String line : Files.readAllLines(page)) {
                if (line.startsWith("#")) {
                    String heading = line.replaceFirst("^#+\\s*", "");
                    String slug = heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                    anchors.put(slug, heading);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return anchors;
    }
}

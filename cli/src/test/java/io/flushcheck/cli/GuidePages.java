package io.flushcheck.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The README, the download's README and the guide's pages (docs/**.md), and the {@code flushcheck} command lines
 * they show: in {@code ```sh}, {@code ```console} and {@code ```yaml} blocks (a console line starts with {@code $ }; a
 * CI job's line may follow {@code - } or {@code run: }), a line that starts with {@code flushcheck},
 * {@code .../bin/flushcheck} or {@code java -jar .../flushcheck.jar}, with the lines a trailing backslash continues.
 */
final class GuidePages {

    /** What precedes a shell line in a CI job's YAML: a sequence item's dash, a {@code run:} key, or both. */
    private static final Pattern YAML_SHELL_PREFIX = Pattern.compile("^(- )?(run: )?");
    /** The command as a line runs it: on PATH, as an unpacked download's bin/flushcheck, or the jar. */
    private static final Pattern PROGRAM = Pattern.compile(
            "(flushcheck|\\S*bin/flushcheck|java -jar \\S*flushcheck\\.jar)(\\s.*)?", Pattern.DOTALL);

    private GuidePages() {
    }

    /** A fenced block: the page, the line of its opening fence (1-based), its language, the line before it and its lines. */
    record Block(Path page, int line, String language, String before, List<String> lines) {

        String where() {
            return root().relativize(page) + ":" + line;
        }
    }

    /** The repository's root: the nearest directory above the working directory with README.md and docs/. */
    static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs"))) {
                return p;
            }
        }
        throw new IllegalStateException("no README.md with docs/ above " + Path.of("").toAbsolutePath());
    }

    /** The README, the download's own README (dist/), and docs/**.md. */
    static List<Path> pages() {
        Path root = root();
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        pages.add(root.resolve("dist/src/dist/README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    static List<String> lines(Path page) {
        try {
            return Files.readAllLines(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Block> blocks(Path page) {
        List<String> lines = lines(page);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String fence = lines.get(i).strip();
            if (!fence.startsWith("```")) {
                continue;
            }
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                end++;
            }
            blocks.add(new Block(page, i + 1, fence.substring(3).strip(), i > 0 ? lines.get(i - 1).strip() : "",
                    lines.subList(i + 1, Math.min(end, lines.size()))));
            i = end;
        }
        return blocks;
    }

    /** The page's text outside fenced blocks, a fenced line left empty so that line numbers stay. */
    static List<String> prose(Path page) {
        List<String> prose = new ArrayList<>();
        boolean inFence = false;
        for (String line : lines(page)) {
            boolean fence = line.strip().startsWith("```");
            prose.add(inFence || fence ? "" : line);
            if (fence) {
                inFence = !inFence;
            }
        }
        return prose;
    }

    /**
     * The flushcheck command lines of a {@code sh}, {@code console} or {@code yaml} block (a CI job, whose
     * {@code run:} values and {@code script:} items are shell lines), continuation lines joined with their newline.
     */
    static List<String> commandLines(Block block) {
        List<String> commands = new ArrayList<>();
        boolean console = block.language().equals("console");
        boolean yaml = block.language().equals("yaml") || block.language().equals("yml");
        if (!block.language().equals("sh") && !console && !yaml) {
            return commands;
        }
        List<String> lines = block.lines();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (console && !line.startsWith("$ ")) {
                continue;
            }
            if (yaml) {
                line = YAML_SHELL_PREFIX.matcher(line).replaceFirst("");
            }
            StringBuilder command = new StringBuilder(console ? line.substring(2) : line);
            while (command.toString().endsWith("\\") && i + 1 < lines.size()) {
                command.append('\n').append(lines.get(++i));
            }
            if (arguments(command.toString()) != null) {
                commands.add(command.toString());
            }
        }
        return commands;
    }

    /**
     * What follows the program in a command line that starts with {@code flushcheck}, {@code .../bin/flushcheck} or
     * {@code java -jar .../flushcheck.jar}, else null.
     */
    static String arguments(String commandLine) {
        Matcher m = PROGRAM.matcher(commandLine);
        return m.matches() ? (m.group(2) == null ? "" : m.group(2).strip()) : null;
    }
}

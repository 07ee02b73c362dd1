package io.flushcheck.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A command line the guide shows, as a test runs it. The block after {@code <!-- command: PATH#NAME -->}
 * (PATH the test's source, from the repository's root) holds one {@code flushcheck} line; the test runs its
 * words after the program, split as {@code sh} splits them, with the test's values put in by one rule:
 * {@code $NAME} outside single quotes becomes the value given for {@code "$NAME"}, and a blank-separated token
 * of any word (inside a quoted argument too) equal to another name given becomes its value, so that
 * {@code store.py} or {@code /tmp/acks} becomes the file the test made. Every name given must occur. The test
 * may add options of its own before the first option (to read JSON, to fix a seed), never one the line has.
 * {@code DocumentedCommandsTests} checks that every marker names a test that asks for its line here.
 */
public final class DocumentedCommand {

    private final String where;
    private final String arguments;
    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<String> added = new ArrayList<>();

    private DocumentedCommand(String where, String arguments) {
        this.where = where;
        this.arguments = arguments;
    }

    /** The line marked {@code <!-- command: PATH#name -->}, PATH being {@code test}'s source; the same on every page that shows it. */
    public static DocumentedCommand of(Class<?> test, String name) {
        String source = "src/test/java/" + test.getName().replace('.', '/') + ".java";
        String where = null;
        String arguments = null;
        for (Path page : GuidePages.pages()) {
            for (GuidePages.Block block : GuidePages.blocks(page)) {
                String marker = block.before();
                if (!marker.startsWith("<!-- command: ") || !marker.endsWith("/" + source + "#" + name + " -->")) {
                    continue;
                }
                List<String> lines = GuidePages.commandLines(block);
                if (lines.size() != 1) {
                    throw new IllegalStateException(block.where() + ": " + lines.size() + " flushcheck lines under " + marker);
                }
                String shown = GuidePages.arguments(lines.get(0));
                if (arguments != null && !arguments.equals(shown)) {
                    throw new IllegalStateException(where + " and " + block.where() + " show " + name + " differently: "
                            + arguments + " | " + shown);
                }
                where = where == null ? block.where() : where;
                arguments = shown;
            }
        }
        if (arguments == null) {
            throw new IllegalStateException("no page shows a block marked <!-- command: .../" + source + "#" + name + " -->");
        }
        return new DocumentedCommand(where, arguments);
    }

    /** {@code value} for {@code $NAME} (when {@code name} starts with $) or for every token {@code name}. */
    public DocumentedCommand with(String name, Object value) {
        values.put(name, value.toString());
        return this;
    }

    /** Options the test adds before the line's first option, to read its results; none the line has. */
    public DocumentedCommand adding(String... options) {
        added.addAll(List.of(options));
        return this;
    }

    /** The words the test runs. */
    public String[] args() {
        Set<String> used = new LinkedHashSet<>();
        List<String> words = new ArrayList<>();
        for (String word : ShellWords.split(arguments, variable -> {
            String value = values.get("$" + variable);
            if (value == null) {
                throw new IllegalStateException(where + ": no value given for $" + variable + " in " + arguments);
            }
            used.add("$" + variable);
            return value;
        })) {
            words.add(tokensReplaced(word, used));
        }
        Set<String> unused = new LinkedHashSet<>(values.keySet());
        unused.removeAll(used);
        if (!unused.isEmpty()) {
            throw new IllegalStateException(where + ": " + unused + " not in the documented line: " + arguments);
        }
        int firstOption = 0;
        while (firstOption < words.size() && !words.get(firstOption).startsWith("-")) {
            firstOption++;
        }
        List<String> shown = words.contains("--") ? words.subList(0, words.indexOf("--")) : words;
        for (String option : added) {
            if (option.startsWith("-") && shown.stream().anyMatch(w -> w.equals(option) || w.startsWith(option + "="))) {
                throw new IllegalStateException(where + ": the test adds " + option + ", which the documented line has");
            }
        }
        words.addAll(firstOption, added);
        return words.toArray(new String[0]);
    }

    private String tokensReplaced(String word, Set<String> used) {
        String[] tokens = word.split(" ", -1);
        for (int i = 0; i < tokens.length; i++) {
            if (!tokens[i].startsWith("$") && values.containsKey(tokens[i])) {
                used.add(tokens[i]);
                tokens[i] = values.get(tokens[i]);
            }
        }
        return String.join(" ", tokens);
    }

    @Override
    public String toString() {
        return where + ": flushcheck " + arguments;
    }
}

package io.flushcheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
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
 * No package of flushcheck's main sources, in any module, depends on itself through others: a reader can take
 * the packages in an order where each uses only those before it. Dependencies are read from the sources: every
 * {@code io.flushcheck...Type} they name, imported or written out.
 */
class PackageCyclesTests {

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.flushcheck(?:\\.[a-z]\\w*)*)\\.[A-Z]");

    @Test
    void noPackageDependsOnItselfThroughOthers() throws IOException {
        Map<String, Set<String>> graph = graph(Path.of("..").toAbsolutePath().normalize());
        assertThat(graph).as("the packages of core at least").containsKeys("io.flushcheck", "io.flushcheck.report");
        List<Set<String>> cycles = cycles(graph);
        StringBuilder edges = new StringBuilder();
        for (Set<String> cycle : cycles) {
            for (String from : cycle) {
                for (String to : graph.get(from)) {
                    if (cycle.contains(to)) {
                        edges.append("\n  ").append(from).append(" -> ").append(to);
                    }
                }
            }
        }
        assertThat(cycles).as("packages that depend on each other:%s", edges).isEmpty();
    }

    @Test
    void aCycleIsFoundAndNamed() {
        Map<String, Set<String>> graph = new TreeMap<>();
        graph.put("a", Set.of("b"));
        graph.put("b", Set.of("c"));
        graph.put("c", Set.of("a"));
        graph.put("d", Set.of("a"));
        assertThat(cycles(graph)).containsExactly(new TreeSet<>(List.of("a", "b", "c")));
    }

    /** Package to the flushcheck packages it names, for every module's {@code src/main/java} under {@code root}. */
    static Map<String, Set<String>> graph(Path root) throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        List<Path> sources;
        try (Stream<Path> modules = Files.list(root)) {
            sources = modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList();
        }
        for (Path source : sources) {
            try (Stream<Path> files = Files.walk(source)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String text = Files.readString(f);
                    Matcher p = PACKAGE.matcher(text);
                    if (!p.find()) {
                        continue;
                    }
                    Set<String> uses = graph.computeIfAbsent(p.group(1), k -> new TreeSet<>());
                    Matcher r = REFERENCE.matcher(text);
                    while (r.find()) {
                        if (!r.group(1).equals(p.group(1))) {
                            uses.add(r.group(1));
                        }
                    }
                }
            }
        }
        return graph;
    }

    /** The strongly connected sets of more than one package (Tarjan's algorithm). */
    static List<Set<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> found = new ArrayList<>();
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, found);
            }
        }
        return found;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, List<Set<String>> found) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, found);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                found.add(component);
            }
        }
    }
}

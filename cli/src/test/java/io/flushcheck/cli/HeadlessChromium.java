package io.flushcheck.cli;

import io.flushcheck.report.Json;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Debian's Chromium, headless, driven over the DevTools protocol (a WebSocket, the JDK's client): opens a
 * page, answers JavaScript questions about what was laid out and drawn, records every request the page
 * made, and takes a screenshot. Every proxy is a closed port, so a page that tried to fetch anything from
 * the network would get nothing, and the recorded requests show the attempt.
 */
public final class HeadlessChromium implements AutoCloseable {

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    private final List<Map<String, Object>> events = new CopyOnWriteArrayList<>();
    private String session;

    private HeadlessChromium(Process process, Path profile, WebSocket socket) {
        this.process = process;
        this.profile = profile;
        this.socket = socket;
    }

    /** Starts Chromium with a fresh profile; skips (fails with flushcheck.missing-tool=fail) without it. */
    public static HeadlessChromium start() throws Exception {
        Requirements.requireCommand("chromium", "chromium");
        Path profile = Files.createTempDirectory("flushcheck-chromium-");
        List<String> cmd = List.of("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--proxy-server=socks5://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
                "--user-data-dir=" + profile, "--remote-debugging-port=0", "about:blank");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(profile.resolve("chromium.log").toFile()).start();
        Path portFile = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(portFile) && Files.readAllLines(portFile).size() >= 2)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                String log = Files.readString(profile.resolve("chromium.log"));
                p.destroyForcibly().waitFor();
                deleteTree(profile);
                throw new IllegalStateException("chromium did not open its DevTools port: " + log);
            }
            Thread.sleep(50);
        }
        List<String> port = Files.readAllLines(portFile);
        HeadlessChromium[] self = new HeadlessChromium[1];
        WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + port.get(0).trim() + port.get(1).trim()), new WebSocket.Listener() {
                    private final StringBuilder partial = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                        partial.append(data);
                        if (last) {
                            String text = partial.toString();
                            partial.setLength(0);
                            self[0].received(MiniJson.object(MiniJson.parse(text)));
                        }
                        w.request(1);
                        return null;
                    }
                }).get(30, TimeUnit.SECONDS);
        self[0] = new HeadlessChromium(p, profile, ws);
        return self[0];
    }

    private void received(Map<String, Object> message) {
        Object id = message.get("id");
        if (id instanceof Number n) {
            CompletableFuture<Map<String, Object>> f = pending.remove(n.intValue());
            if (f != null) {
                f.complete(message);
            }
        } else {
            events.add(message);
        }
    }

    /** Sends a command (to the page once one is open) and waits for its result. */
    public Map<String, Object> call(String method, Map<String, Object> params) throws Exception {
        int id = ids.incrementAndGet();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("method", method);
        m.put("params", params);
        if (session != null && !method.startsWith("Target.") && !method.startsWith("Browser.")) {
            m.put("sessionId", session);
        }
        CompletableFuture<Map<String, Object>> f = new CompletableFuture<>();
        pending.put(id, f);
        socket.sendText(Json.write(m), true).get(30, TimeUnit.SECONDS);
        Map<String, Object> reply = f.get(60, TimeUnit.SECONDS);
        if (reply.containsKey("error")) {
            throw new IllegalStateException(method + ": " + reply.get("error"));
        }
        return MiniJson.object(reply.get("result"));
    }

    /** Opens {@code file} in a fresh tab of {@code width} CSS pixels and waits until it has loaded. */
    public void open(Path file, int width) throws Exception {
        String target = (String) call("Target.createTarget", Map.of("url", "about:blank")).get("targetId");
        session = (String) call("Target.attachToTarget", Map.of("targetId", target, "flatten", true)).get("sessionId");
        call("Network.enable", Map.of());
        call("Page.enable", Map.of());
        call("Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", 900, "deviceScaleFactor", 1, "mobile", false));
        events.clear();
        call("Page.navigate", Map.of("url", file.toUri().toString()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!hasEvent("Page.loadEventFired")) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the page did not load in 30 s");
            }
            Thread.sleep(20);
        }
    }

    private boolean hasEvent(String method) {
        for (Map<String, Object> e : events) {
            if (method.equals(e.get("method"))) {
                return true;
            }
        }
        return false;
    }

    /** The URL of every request the page made, its own document first. */
    public List<String> requests() {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> e : events) {
            if ("Network.requestWillBeSent".equals(e.get("method"))) {
                out.add((String) MiniJson.object(MiniJson.object(e.get("params")).get("request")).get("url"));
            }
        }
        return out;
    }

    /** Evaluates {@code expression} in the page; it must give a string (JSON.stringify a structure). */
    public String evaluate(String expression) throws Exception {
        Map<String, Object> r = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true));
        Map<String, Object> value = MiniJson.object(r.get("result"));
        if (r.containsKey("exceptionDetails")) {
            throw new IllegalStateException("the page's JavaScript failed: " + r.get("exceptionDetails"));
        }
        return String.valueOf(value.get("value"));
    }

    /** A PNG of the whole page, as tall as its content. */
    public void screenshot(Path png) throws Exception {
        Map<String, Object> size = MiniJson.object(call("Page.getLayoutMetrics", Map.of()).get("cssContentSize"));
        Map<String, Object> clip = Map.of("x", 0, "y", 0, "width", size.get("width"), "height", size.get("height"), "scale", 1);
        Map<String, Object> r = call("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true, "clip", clip));
        Files.write(png, Base64.getDecoder().decode(((String) r.get("data")).getBytes(StandardCharsets.US_ASCII)));
    }

    /** A PNG of the element {@code css} selects (the first), for a person to look at one section. */
    public void screenshot(String css, Path png) throws Exception {
        String json = evaluate("JSON.stringify((() => { const r = document.querySelector(" + Json.write(css)
                + ").getBoundingClientRect(); return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; })())");
        Map<String, Object> box = MiniJson.object(MiniJson.parse(json));
        Map<String, Object> clip = new LinkedHashMap<>(box);
        clip.put("scale", 1);
        Map<String, Object> r = call("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true, "clip", clip));
        Files.write(png, Base64.getDecoder().decode(((String) r.get("data")).getBytes(StandardCharsets.US_ASCII)));
    }

    @Override
    public void close() throws Exception {
        try {
            call("Browser.close", Map.of());
        } catch (Exception e) {
            // closing anyway below
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        deleteTree(profile);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}

package io.flushcheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.Main;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Shell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Preloaded libraries flushcheck does not know by name, built here with gcc: one that turns fsync and
 * fdatasync into no-ops, one that wraps them and still syncs. Neither name decides anything; the
 * symbol check names the interposed functions and the device counters decide.
 */
class InterposerTests {

    static Path work;

    @BeforeAll
    static void libraries() throws IOException {
        Requirements.requireCommand("gcc", "gcc");
        work = Files.createDirectories(Path.of("target", "flushcheck-it", "interposers").toAbsolutePath());
        Files.writeString(work.resolve("noop.c"), """
                int fsync(int fd) { (void) fd; return 0; }
                int fdatasync(int fd) { (void) fd; return 0; }
                """);
        Files.writeString(work.resolve("wrap.c"), """
                #define _GNU_SOURCE
                #include <dlfcn.h>
                int fsync(int fd) { int (*real)(int) = (int (*)(int)) dlsym(RTLD_NEXT, "fsync"); return real(fd); }
                int fdatasync(int fd) { int (*real)(int) = (int (*)(int)) dlsym(RTLD_NEXT, "fdatasync"); return real(fd); }
                """);
        Shell.run("gcc", "-shared", "-fPIC", "-o", work.resolve("libnoopsync.so").toString(), work.resolve("noop.c").toString());
        Shell.run("gcc", "-shared", "-fPIC", "-o", work.resolve("libwrapsync.so").toString(), work.resolve("wrap.c").toString(), "-ldl");
    }

    static Map<String, Object> check(String library) {
        return checkPreloading(work.resolve(library).toString());
    }

    static Map<String, Object> checkPreloading(String preload) {
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of("env", "LD_PRELOAD=" + preload),
                Main.class.getName(), List.of("--json", "--quiet", "--rounds", "40", "--modes", "append-fsync,overwrite-fdatasync",
                        work.toString())), 120);
        assertThat(r.exit()).as(r.toString()).isZero();
        return MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.parse(r.stdout())).get("results")).get(0));
    }

    static List<String> codes(Map<String, Object> result) {
        return MiniJson.array(result.get("findings")).stream().map(f -> (String) MiniJson.object(f).get("code")).toList();
    }

    static String message(Map<String, Object> result, String code) {
        return MiniJson.array(result.get("findings")).stream().map(MiniJson::object)
                .filter(f -> code.equals(f.get("code"))).map(f -> (String) f.get("message")).findFirst().orElseThrow();
    }

    @Test
    void aNoOpInterposerIsCaughtByTheCounters() {
        Map<String, Object> r = check("libnoopsync.so");
        assertThat(r.get("verdict")).isEqualTo("NO_REAL_FLUSH");
        assertThat(codes(r)).contains("FLUSHES_MISSING", "SYNC_SYMBOL_INTERPOSED", "PRELOADED_LIBRARY")
                .doesNotContain("SYNC_INTERPOSER");
        assertThat(message(r, "SYNC_SYMBOL_INTERPOSED")).isEqualTo("fsync resolves to " + work.resolve("libnoopsync.so")
                + ", not to the C library; the probe calls it the same way, so its flush counts show whether it still syncs");
        assertThat(message(r, "FLUSHES_MISSING")).startsWith("append-fsync: 0 of 40 syncs reached ");
    }

    @Test
    void eatmydataNamedButNotLoadedDecidesNothing() {
        // ld.so says "cannot be preloaded ... ignored" and runs the JVM without it.
        Map<String, Object> r = checkPreloading("/nonexistent/libeatmydata.so");
        assertThat(r.get("verdict")).isEqualTo("REAL_FLUSH");
        assertThat(codes(r)).doesNotContain("SYNC_INTERPOSER");
        assertThat(message(r, "PRELOADED_LIBRARY")).isEqualTo("LD_PRELOAD names /nonexistent/libeatmydata.so (eatmydata), "
                + "but it is not loaded in this process: the dynamic linker ignored it, so it intercepts nothing");
    }

    @Test
    void aWrapperThatStillSyncsIsRealFlush() {
        Map<String, Object> r = check("libwrapsync.so");
        assertThat(r.get("verdict")).isEqualTo("REAL_FLUSH");
        assertThat(codes(r)).contains("FLUSHES_REACHED", "SYNC_SYMBOL_INTERPOSED").doesNotContain("FLUSHES_MISSING");
    }
}

package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EnvironmentTests {

    private static final String MAPS_WITH_EATMYDATA = String.join("\n",
            "55d0c0a00000-55d0c0a01000 r--p 00000000 fe:00 131   /usr/lib/jvm/java-17/bin/java",
            "7f1e2c000000-7f1e2c021000 rw-p 00000000 00:00 0 ",
            "7f1e2d200000-7f1e2d202000 r-xp 00000000 fe:00 4242  /usr/lib/x86_64-linux-gnu/libeatmydata.so.1.3.0",
            "7ffd1c9e2000-7ffd1ca03000 rw-p 00000000 00:00 0                          [stack]");

    @Test
    void aPreloadedLibraryThatIsNotMappedIsNoInterposer() {
        // ld.so prints "cannot be preloaded ... ignored" and runs the program without it.
        assertThat(Environment.detectInterposers("/nonexistent/libeatmydata.so", "")).isEmpty();
        assertThat(Environment.knownInterposer("/nonexistent/libeatmydata.so")).isEqualTo("eatmydata");
        assertThat(Environment.knownInterposer("libjemalloc.so.2")).isNull();
    }

    @Test
    void preloadWithFullPathAndSeveralEntries() {
        String maps = MAPS_WITH_EATMYDATA + "\n7f1e2d400000-7f1e2d402000 r-xp 00000000 fe:00 4243  "
                + "/usr/lib/x86_64-linux-gnu/libnosync.so.0";
        assertThat(Environment.detectInterposers("/usr/lib/libfoo.so:/usr/lib/x86_64-linux-gnu/libnosync.so.0 libeatmydata.so", maps))
                .containsExactly("eatmydata (LD_PRELOAD=libeatmydata.so)",
                        "nosync (LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libnosync.so.0)");
        assertThat(Environment.preloadList(" a.so: b.so  c.so ")).containsExactly("a.so", "b.so", "c.so");
        assertThat(Environment.preloadList(null)).isEmpty();
    }

    @Test
    void preloadListSplitsOnSpacesAndColonsLikeLdSoAndDropsBlankEntries() {
        assertThat(Environment.preloadList("")).isEmpty();
        assertThat(Environment.preloadList(" :: \t :\r")).isEmpty();
        assertThat(Environment.preloadList("libeatmydata.so")).containsExactly("libeatmydata.so");
        assertThat(Environment.preloadList("/lib/a.so::/lib/b.so /etc/c.so"))
                .containsExactly("/lib/a.so", "/lib/b.so", "/etc/c.so");
    }

    @Test
    void aMappedInterposerIsFoundWithoutLdPreload() {
        assertThat(Environment.detectInterposers(null, MAPS_WITH_EATMYDATA))
                .containsExactly("eatmydata (mapped: /usr/lib/x86_64-linux-gnu/libeatmydata.so.1.3.0)");
    }

    @Test
    void preloadedAndMappedIsReportedOnce() {
        assertThat(Environment.detectInterposers("libeatmydata.so", MAPS_WITH_EATMYDATA))
                .containsExactly("eatmydata (LD_PRELOAD=libeatmydata.so)");
    }

    @Test
    void unknownLibrariesAreNotInterposers() {
        assertThat(Environment.detectInterposers("libjemalloc.so.2", MAPS_WITH_EATMYDATA.replace("eatmydata", "zstd")))
                .isEmpty();
    }

    @Test
    void containerFromCgroup() {
        assertThat(Environment.containerFromCgroup("0::/system.slice/docker-0123abcd.scope\n")).isEqualTo("docker");
        assertThat(Environment.containerFromCgroup("12:pids:/kubepods/burstable/pod1/docker-abc\n")).isEqualTo("kubernetes");
        assertThat(Environment.containerFromCgroup("0::/machine.slice/libpod-77.scope\n")).isEqualTo("podman");
        assertThat(Environment.containerFromCgroup("1:name=systemd:/lxc/c1\n")).isEqualTo("lxc");
        assertThat(Environment.containerFromCgroup("0::/system.slice/containerd.service\n")).isEqualTo("containerd");
        assertThat(Environment.containerFromCgroup("0::/\n")).isNull();
        assertThat(Environment.containerFromCgroup("0::/user.slice/user-1000.slice/session-2.scope\n")).isNull();
        assertThat(Environment.containerFromCgroup("")).isNull();
    }

    @Test
    void thisProcessHasNoInterposerUnlessPreloaded() {
        Environment env = Environment.detect();
        String preload = System.getenv("LD_PRELOAD");
        if (preload == null || !preload.contains("eatmydata")) {
            assertThat(env.interposers()).noneMatch(i -> i.startsWith("eatmydata"));
        }
    }

    @Test
    void theHostsStatementComesFromTheSystemProperty() {
        String before = System.getProperty(HostEdge.PROPERTY);
        try {
            System.clearProperty(HostEdge.PROPERTY);
            assertThat(Environment.detect().hostEdge()).isNull();
            System.setProperty(HostEdge.PROPERTY, " vda:missing:0 of 64 ");
            assertThat(Environment.detect().hostEdge()).isEqualTo(new HostEdge("vda", false, "0 of 64"));
        } finally {
            if (before == null) {
                System.clearProperty(HostEdge.PROPERTY);
            } else {
                System.setProperty(HostEdge.PROPERTY, before);
            }
        }
    }
}

package io.flushcheck.jupiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.flushcheck.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * {@code flushcheck.target} naming a real non-ASCII directory in a JVM started under {@code LC_ALL=C}:
 * the test fails with a configuration error that names the fix, not an InvalidPathException.
 */
class LocaleTargetTests {

    @Test
    void aTargetTheLocaleCannotRepresentIsAConfigurationErrorNamingTheFix() throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "jupiter-locale").toAbsolutePath().resolve("dür"));
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of("env", "LC_ALL=C", "LANG=C"), Child.class.getName(),
                List.of(dir.toString())), 60);
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(r.stdout()).as("%s", r).isEqualTo("ExtensionConfigurationException: flushcheck.target: cannot represent path '"
                + dir.getParent() + "/d??r' in this locale's encoding (ANSI_X3.4-1968): run with a UTF-8 locale, e.g."
                + " LC_ALL=C.UTF-8\n");
    }

    /** Runs one {@code @RequiresRealFlush} test with the target from its argument; prints the failure. */
    public static final class Child {
        public static void main(String[] args) {
            for (Event e : EngineTestKit.engine("junit-jupiter").selectors(selectClass(Annotated.class))
                    .configurationParameter(FlushcheckConfig.TARGET_KEY, args[0]).execute().testEvents().failed().list()) {
                Throwable t = e.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
                System.out.println(t.getClass().getSimpleName() + ": " + t.getMessage());
            }
        }
    }

    static class Annotated {
        @Test
        @RequiresRealFlush
        void annotated() {
        }
    }
}

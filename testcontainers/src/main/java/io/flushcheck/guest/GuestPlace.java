package io.flushcheck.guest;

import io.flushcheck.MissingTool;
import java.io.IOException;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Somewhere a {@link GuestSuite} runs test classes: the host, a container ({@link GuestEnvironment}), or a
 * place another module provides, such as a QEMU guest from {@code flushcheck-vm}. A place runs
 * {@link GuestMain} with {@link GuestRequest#guestArgs} and brings back its result file and log; everything it
 * made for the run is gone when {@link #run} returns, failed or not.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
public interface GuestPlace {

    /** The environment's name in test names, results and reports, e.g. {@code host} or {@code qemu/cache=unsafe}. */
    String name();

    /** True only for the host: the place the comparison measures the guests against. */
    default boolean isHost() {
        return false;
    }

    /** Checks that this place can run here, and throws through {@link #notHere(String)}, naming what is missing, if not. */
    void requireAvailable();

    /** Runs the request here, to its end. */
    RunOutput run(GuestRequest request, Consumer<String> progress) throws IOException;

    /**
     * Says that a place cannot run here: throws a {@link TestAbortedException} with the reason, which a test shows
     * as aborted, or an {@link AssertionFailedError} with it where {@link MissingTool#KEY} is {@code fail}, for a
     * build in which a missing tool is a broken machine rather than a laptop without it.
     *
     * @throws IllegalArgumentException where {@link MissingTool#KEY} is neither {@code skip} nor {@code fail}
     */
    static void notHere(String why) {
        MissingTool missing = MissingTool.current();
        if (missing == MissingTool.FAIL) {
            throw new AssertionFailedError(why + " (" + missing + ")");
        }
        throw new TestAbortedException(why);
    }
}

package io.flushcheck.guest;

import java.time.Duration;
import java.util.function.Consumer;

/** The images an engine has and can pull: what {@link GuestImageChoice} looks at. */
interface ImageStore {

    /** Whether the engine has the image. */
    boolean has(String image);

    /** The name to use for a public image (a configured registry mirror's, for example). */
    String publicName(String image);

    /**
     * Pulls the image, for at most {@code limit}.
     *
     * @return null when the image is on the engine afterwards, otherwise why not and after how long
     */
    String pull(String image, Duration limit, Consumer<String> progress);
}

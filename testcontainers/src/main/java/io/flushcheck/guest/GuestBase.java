package io.flushcheck.guest;

import org.apiguardian.api.API;

/**
 * The image a guest image starts FROM, and why that one ({@link GuestImageChoice}): the output of every guest run
 * names both.
 *
 * @param image the image reference on the engine, or null when none could be found
 * @param why   why this one, or, without one, what was tried and how to get one
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record GuestBase(String image, String why) {

    public GuestBase {
        if (why == null || why.isBlank()) {
            throw new IllegalArgumentException("a guest base needs a reason");
        }
    }

    /** No base image: {@code why} says what was tried and what to do. */
    static GuestBase none(String why) {
        return new GuestBase(null, why);
    }

    /** Whether there is an image to start FROM. */
    public boolean found() {
        return image != null;
    }

    @Override
    public String toString() {
        return found() ? image + " (" + why + ")" : "no base image (" + why + ")";
    }
}

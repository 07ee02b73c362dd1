package io.flushcheck;

import org.apiguardian.api.API;

/**
 * The one grammar of a whole-number configuration key: a decimal {@code int} within a range, refused with a message
 * that names what was set and what is allowed.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class WholeNumbers {

    private WholeNumbers() {
    }

    /**
     * {@code value} as an int in {@code [min, max]}.
     *
     * @param subject what was set, as messages name it: {@code flushcheck.verify.rounds = '7'}
     * @throws IllegalArgumentException {@code SUBJECT is not a whole number: use MIN to MAX}, or
     *                                  {@code SUBJECT is out of range: use MIN to MAX}
     */
    public static int parse(String subject, String value, int min, int max) {
        int i;
        try {
            i = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(subject + " is not a whole number: use " + min + " to " + max);
        }
        if (i < min || i > max) {
            throw new IllegalArgumentException(subject + " is out of range: use " + min + " to " + max);
        }
        return i;
    }
}

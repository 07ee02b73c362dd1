package io.flushcheck.cli.powercut;

/** A value read from a document, quoted for a message and cut short: a document's string may be any size. */
final class Brief {

    /** The most characters of a value a message quotes. */
    static final int SHOWN = 60;

    private Brief() {
    }

    static String of(String value) {
        if (value == null) {
            return "null";
        }
        return "\"" + (value.length() <= SHOWN ? value : value.substring(0, SHOWN - 3) + "...") + "\"";
    }
}

package io.flushcheck.jupiter;

import java.nio.file.Path;
import java.util.List;

/**
 * A directory a test writes to and the existing directory judged for it.
 *
 * @param judged   the existing directory whose storage is judged
 * @param subject  how messages name what the test writes to (the judged directory, a {@code @TempDir}, ...)
 * @param notes    what a reader must know about the choice: a path that did not exist yet, a
 *                 {@code java.io.tmpdir} that the JDK does not use
 * @param advice   what to change to run on a disk directory, for failures
 * @param reportedAs how the verdict's report entry names it: the same for every test of a class that writes
 *                 there ({@link VerdictEntries}), so not a test's own {@code @TempDir}
 */
record JudgedDir(Path judged, String subject, List<String> notes, String advice, String reportedAs) {

    JudgedDir {
        notes = List.copyOf(notes);
    }

    /** Reported as it is named in messages. */
    JudgedDir(Path judged, String subject, List<String> notes, String advice) {
        this(judged, subject, notes, advice, subject);
    }
}

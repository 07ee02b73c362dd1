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
 */
record JudgedDir(Path judged, String subject, List<String> notes, String advice) {

    JudgedDir {
        notes = List.copyOf(notes);
    }
}

package io.flushcheck;

import java.nio.file.Path;

/**
 * Two instants of a check at which a test changes the directory under it: what inspection and probe must not
 * disagree about is only testable by making them disagree on purpose. Package-private; a real check passes none.
 */
interface CheckHooks {

    /** The storage facts are known and a probe will run; the directory is not opened yet. */
    void inspected(Path real);

    /** The directory is open for the probe; its first file is not made yet. */
    void opened(Path real);
}

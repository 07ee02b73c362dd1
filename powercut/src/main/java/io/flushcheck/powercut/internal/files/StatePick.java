package io.flushcheck.powercut.internal.files;

import org.apiguardian.api.API;

/**
 * One crash state of a file tree at a moment, as {@link FileTree#statePicks()} lists them, of the changes
 * made since their last sync:
 * <ul>
 *   <li>{@link Kind#DURABLE}: none but the truncations committed already (what a cut that keeps what was synced
 *       keeps);</li>
 *   <li>{@link Kind#NAMES}: of the name changes, the first {@code count} of one log (the journaled rules' one log,
 *       {@code node} 0; under POSIX's, directory {@code node}'s), and every other change;</li>
 *   <li>{@link Kind#PAGES}: of the changes that touched the pages of run {@code run} of file {@code node}
 *       ({@link FilePages}), the first {@code count}, and every other change those allow;</li>
 *   <li>{@link Kind#TRUNCATIONS}: of the truncations of file {@code node}, the first {@code count} (at least those
 *       committed), and every other change those allow;</li>
 *   <li>{@link Kind#ALL}: every one.</li>
 * </ul>
 * Each is a state a cut of the model keeps for some seed ({@link FileTree#cut}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record StatePick(Kind kind, long node, int run, int count) implements Keeps {

    /** Which changes the state keeps. */
    public enum Kind { DURABLE, NAMES, PAGES, TRUNCATIONS, ALL }

    @Override
    public int namePrefix(long dir, int count) {
        return switch (kind) {
            case DURABLE -> 0;
            case NAMES -> dir == node ? this.count : count;
            case PAGES, TRUNCATIONS, ALL -> count;
        };
    }

    @Override
    public int truncations(long file, FilePages pages) {
        return switch (kind) {
            case DURABLE -> pages.committed();
            case PAGES -> file == node ? pages.truncationsWith(run, count) : pages.truncations();
            case TRUNCATIONS -> file == node ? count : pages.truncations();
            case NAMES, ALL -> pages.truncations();
        };
    }

    @Override
    public int pagePrefix(long file, FilePages pages, int run, int low, int high) {
        return switch (kind) {
            case DURABLE -> low;
            case PAGES -> file == node && run == this.run ? count : high;
            case NAMES, TRUNCATIONS, ALL -> high;
        };
    }
}

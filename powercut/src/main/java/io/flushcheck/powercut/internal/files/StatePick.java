package io.flushcheck.powercut.internal.files;

import org.apiguardian.api.API;

/**
 * One crash state of a file tree at a moment, as {@link FileTree#statePicks()} lists them, of the changes
 * made since their last sync:
 * <ul>
 *   <li>{@link Kind#DURABLE}: none (what a cut that keeps what was synced keeps);</li>
 *   <li>{@link Kind#NAMES}: of the name changes, the first {@code count} of one log (the journaled rules' one log,
 *       {@code node} 0; under POSIX's, directory {@code node}'s), and every other change;</li>
 *   <li>{@link Kind#DROP}: all but the {@code count}-th write or truncation of file {@code node};</li>
 *   <li>{@link Kind#ALL}: every one.</li>
 * </ul>
 * Each is a state a cut of the model keeps for some seed ({@link FileTree#cut}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record StatePick(Kind kind, long node, int count) implements Keeps {

    /** Which changes the state keeps. */
    public enum Kind { DURABLE, NAMES, DROP, ALL }

    @Override
    public int namePrefix(long dir, int count) {
        return switch (kind) {
            case DURABLE -> 0;
            case NAMES -> dir == node ? this.count : count;
            case DROP, ALL -> count;
        };
    }

    @Override
    public boolean keepsChange(long file, int i) {
        return switch (kind) {
            case DURABLE -> false;
            case DROP -> file != node || i != count;
            case NAMES, ALL -> true;
        };
    }
}

package io.flushcheck.powercut.internal.states;

import io.flushcheck.powercut.internal.kernel.FileExtents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * Which file's bytes each range of the drive holds, as the filesystem maps its regular files at one moment
 * ({@link FileExtents}, FIEMAP): so a write of a recording can be named by the file it wrote. A range no
 * file maps then is the filesystem's own (metadata, its journal) or space it has freed since; a
 * filesystem that moves what it overwrites (btrfs) maps a file where its last bytes went.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class WritePlaces {

    /** {@code length} bytes of {@code name} from {@code logical}, at drive byte {@code device}. */
    public record Owned(String name, long logical, long device, long length) {
    }

    private static final int MOST_NAMED = 3;

    /** By drive byte. */
    private final TreeMap<Long, Owned> byDevice;

    private WritePlaces(TreeMap<Long, Owned> byDevice) {
        this.byDevice = byDevice;
    }

    /** No file named anywhere: where the filesystem could not be looked at. */
    public static WritePlaces none() {
        return new WritePlaces(new TreeMap<>());
    }

    /** The places {@link #owned()} listed, read back from where they were kept ({@code CrashStates.save}). */
    public static WritePlaces of(List<Owned> owned) {
        TreeMap<Long, Owned> byDevice = new TreeMap<>();
        for (Owned o : owned) {
            byDevice.put(o.device(), o);
        }
        return new WritePlaces(byDevice);
    }

    /** Every range a file maps, by drive byte. */
    public List<Owned> owned() {
        return List.copyOf(byDevice.values());
    }

    /** Where the regular files under {@code mounted} (a filesystem on the drive) lie on it now. */
    public static WritePlaces look(Path mounted) throws IOException {
        TreeMap<Long, Owned> byDevice = new TreeMap<>();
        try (Stream<Path> files = Files.walk(mounted)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                String name = mounted.relativize(file).toString();
                for (FileExtents.Extent e : FileExtents.of(file)) {
                    byDevice.put(e.device(), new Owned(name, e.logical(), e.device(), e.length()));
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new WritePlaces(byDevice);
    }

    /**
     * The files' bytes that drive bytes {@code [offset, offset + length)} hold, like {@code log bytes 8192 to
     * 12287}; empty when no file maps them.
     */
    public String name(long offset, long length) {
        List<String> named = new ArrayList<>();
        Map.Entry<Long, Owned> before = byDevice.floorEntry(offset);
        Long from = before != null ? before.getKey() : offset;
        for (Owned o : byDevice.subMap(from, true, offset + length, false).values()) {
            long start = Math.max(o.device(), offset);
            long end = Math.min(o.device() + o.length(), offset + length);
            if (start < end) {
                long logical = o.logical() + (start - o.device());
                named.add(o.name() + " bytes " + logical + " to " + (logical + end - start - 1));
            }
        }
        if (named.size() > MOST_NAMED) {
            int more = named.size() - MOST_NAMED;
            named = new ArrayList<>(named.subList(0, MOST_NAMED));
            named.add(more + " more");
        }
        return String.join(", ", named);
    }
}

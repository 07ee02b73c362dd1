package io.flushcheck.powercut.internal.block;

import io.flushcheck.powercut.internal.disk.BytesAtRest;
import io.flushcheck.powercut.internal.disk.ModelDisk.FaultRange;
import io.flushcheck.powercut.internal.disk.ModelStates;
import io.flushcheck.powercut.internal.kernel.Mounts;
import io.flushcheck.powercut.internal.sys.PageCache;
import io.flushcheck.powercut.internal.sys.RegularFile;
import io.flushcheck.powercut.internal.drive.SparseCopy;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A block model's crash state damaged in its image, as {@link BlockDisk#corruptSurvivor} damages a survivor's: the
 * image as the crash left it is kept beside it before its first mount ({@link #keep}), put back before each damage
 * ({@link #restore}: a mount replays the journal and a verification writes, so each damage starts from the crash's
 * bytes), and each damage placed while the state is mounted, where FIEMAP places the file's bytes in the image.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
final class StateDamage implements AutoCloseable {

    private final Path image;
    private final Path crashed;
    private final String fsType;

    private StateDamage(Path image, Path crashed, String fsType) {
        this.image = image;
        this.crashed = crashed;
        this.fsType = fsType;
    }

    /** Keeps {@code place}'s image, a state as the crash left it, beside it, for states of a {@code fsType}. */
    static StateDamage keep(StateMounts.Place place, String fsType) throws IOException {
        Path crashed = place.dir().resolve("crashed.img");
        Files.deleteIfExists(crashed);
        SparseCopy.copy(place.image(), crashed);
        return new StateDamage(place.image(), crashed, fsType);
    }

    /** Writes the kept image over the place's, which is attached to no loop device now. */
    void restore() throws IOException {
        try (RegularFile in = RegularFile.open(crashed);
             FileChannel out = FileChannel.open(image, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING,
                     LinkOption.NOFOLLOW_LINKS)) {
            SparseCopy.copy(in, out);
        }
    }

    /**
     * Places {@code damage} in the image of the state mounted at {@code survivor}: the file synced, its bytes found
     * by FIEMAP (on btrfs through its chunk tree), changed in the image, and the file's and the loop device's cached
     * pages dropped, so the next reads reach the image.
     *
     * @throws IllegalArgumentException when the state has no such regular file, or its bytes have no place of
     *     their own on the drive (inline, a hole, unwritten)
     */
    List<FaultRange> place(ModelStates.Damage damage, Path survivor) throws IOException {
        Path file = survivor.resolve(damage.file()).normalize();
        if (!file.startsWith(survivor) || file.equals(survivor) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                || !file.toRealPath().equals(survivor.toRealPath().resolve(survivor.relativize(file)))) {
            throw new IllegalArgumentException(damage.file() + " is no regular file of the state");
        }
        DriveRanges.sync(file);
        List<FaultRange> ranges = DriveRanges.of(file, damage.offset(), damage.length(), fsType);
        for (FaultRange r : ranges) {
            if (damage.bit() >= 0) {
                BytesAtRest.flip(image, r.from(), damage.bit());
            } else {
                BytesAtRest.zero(image, r.from(), r.length());
            }
        }
        PageCache.drop(file, 0, 0);
        String device = Mounts.deviceAt(survivor);
        if (device != null) {
            for (FaultRange r : ranges) {
                PageCache.drop(Path.of(device), r.from(), r.length());
            }
        }
        return ranges;
    }

    /** Removes the kept image. */
    @Override
    public void close() throws IOException {
        Files.deleteIfExists(crashed);
    }
}

package io.flushcheck.powercut.internal.explain;

import io.flushcheck.powercut.internal.drive.SectorStore;
import io.flushcheck.powercut.internal.kernel.FileExtents;
import io.flushcheck.powercut.internal.kernel.JournalPlace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * What a power cut of the block model lost, said by file, the way a person reads it: the names and files
 * whose state after the cut is older than the interrupted filesystem's (compared by inode, size and
 * modification time, with the directory or file whose sync would have kept it), then the bytes the drive
 * discarded, placed in the files that held them (FIEMAP), the journal ({@link JournalPlace}) or the rest of
 * the filesystem's metadata. The first part covers what never reached the drive (the page cache and the
 * running journal transaction die with the power); the second, what reached it with no flush after.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class BlockCutExplanation {

    /** The most lines listed; past them, one line says how many more. */
    static final int MOST = 1_000;

    /** {@code length} bytes of the drive from {@code offset} that the cut discarded, or kept in part ({@code torn}). */
    public record Range(long offset, long length, boolean torn) {
    }

    /** The interrupted filesystem as the kernel held it, and where the discarded bytes were in its files. */
    public record Before(TreeView view, Map<String, List<Range>> owned, boolean placed) {
    }

    private BlockCutExplanation() {
    }

    /**
     * The drive's answer to {@code discarded} ({@link SectorStore#discarded()}) as ranges; an {@code unlisted}
     * entry, past the listed ones, is one range at offset -1.
     */
    public static List<Range> ranges(List<String> entries) {
        List<Range> ranges = new ArrayList<>();
        for (String e : entries) {
            String[] w = e.split(" ");
            switch (w[0]) {
                case "discarded", "torn" -> ranges.add(new Range(Long.parseLong(w[1]), Long.parseLong(w[2]), w[0].equals("torn")));
                case "unlisted" -> ranges.add(new Range(-1, Long.parseLong(w[1]), false));
                default -> throw new IllegalArgumentException("not a range the drive discarded: " + e);
            }
        }
        return ranges;
    }

    /**
     * Looks at the interrupted filesystem mounted at {@code mounted}, before it is unmounted: its names, and for
     * each file or directory the discarded ranges that fall in its extents, in the file's own offsets.
     */
    public static Before look(Path mounted, String fs, List<Range> discarded) throws IOException {
        TreeView view = TreeView.of(mounted);
        Map<String, List<Range>> owned = new TreeMap<>();
        if (discarded.isEmpty() || !placesByDevice(fs)) {
            return new Before(view, owned, placesByDevice(fs));
        }
        NavigableMap<Long, Range> byOffset = new TreeMap<>();
        for (Range r : discarded) {
            if (r.offset() >= 0) {
                byOffset.put(r.offset(), r);
            }
        }
        for (Map.Entry<String, TreeView.Entry> e : view.entries().entrySet()) {
            List<FileExtents.Extent> extents;
            try {
                extents = FileExtents.of(mounted.resolve(e.getKey()));
            } catch (IOException | RuntimeException unreadable) {
                continue; // named by what it lost, if anything, and its bytes counted as metadata
            }
            List<Range> mine = new ArrayList<>();
            for (FileExtents.Extent x : extents) {
                long end = x.device() + x.length();
                Long from = byOffset.floorKey(x.device());
                for (Range r : byOffset.subMap(from == null ? x.device() : from, true, end, false).values()) {
                    long a = Math.max(r.offset(), x.device());
                    long b = Math.min(r.offset() + r.length(), end);
                    if (a < b) {
                        mine.add(new Range(x.logical() + (a - x.device()), b - a, r.torn()));
                    }
                }
            }
            if (!mine.isEmpty()) {
                owned.put(e.getKey(), mine);
            }
        }
        return new Before(view, owned, true);
    }

    /**
     * True where FIEMAP's physical addresses are offsets of the device: not on btrfs, whose addresses are its
     * own logical ones, mapped to devices through its chunk tree.
     */
    static boolean placesByDevice(String fs) {
        return !fs.equals("btrfs");
    }

    /**
     * The lines: what differs between {@code before} and the survivor's view {@code after}, then the discarded
     * bytes by owner. {@code journal} is asked only when some discarded bytes are in no file.
     */
    public static List<String> explain(Before before, TreeView after, List<Range> discarded,
                                       Supplier<List<JournalPlace.Range>> journal) {
        List<String> lines = new ArrayList<>(differences(before.view(), after));
        long inFiles = 0;
        for (Map.Entry<String, List<Range>> e : before.owned().entrySet()) {
            lines.addAll(owned(e.getKey(), e.getValue()));
            for (Range r : e.getValue()) {
                inFiles += r.length();
            }
        }
        long total = 0;
        long unlisted = 0;
        for (Range r : discarded) {
            if (r.offset() >= 0) {
                total += r.length();
            } else {
                unlisted += r.length();
            }
        }
        if (total > inFiles) {
            long inJournal = 0;
            List<JournalPlace.Range> log = journal.get();
            for (Range r : discarded) {
                for (JournalPlace.Range j : r.offset() < 0 ? List.<JournalPlace.Range>of() : log) {
                    inJournal += Math.max(0, Math.min(r.offset() + r.length(), j.offset() + j.length()) - Math.max(r.offset(), j.offset()));
                }
            }
            if (inJournal > 0) {
                lines.add(inJournal + " bytes of the journal discarded: written, no flush completed after them");
            }
            long rest = total - inFiles - inJournal;
            if (rest > 0) {
                lines.add(rest + (before.placed() ? " bytes of the filesystem's metadata (inodes, directories, allocation"
                        + " maps) discarded" : " bytes discarded, not placed in files (the filesystem's addresses are not"
                        + " the drive's)") + ": written, no flush completed after them");
            }
        }
        if (unlisted > 0) {
            lines.add(unlisted + " more bytes discarded, not placed: the drive lists " + SectorStore.LISTED_RANGES
                    + " runs of sectors");
        }
        if (lines.size() > MOST) {
            int more = lines.size() - MOST;
            lines = new ArrayList<>(lines.subList(0, MOST));
            lines.add("and " + more + " more");
        }
        return lines;
    }

    /**
     * A line per name whose state in {@code after} is older than in {@code before}, with the sync that would have
     * kept it; a missing directory's names not repeated. Both views must come from one image, so that an inode
     * number names the same file in each.
     */
    public static List<String> differences(TreeView before, TreeView after) {
        List<String> lines = new ArrayList<>();
        Map<String, TreeView.Entry> was = before.entries();
        Map<String, TreeView.Entry> is = after.entries();
        String gone = null;
        for (Map.Entry<String, TreeView.Entry> e : was.entrySet()) {
            String name = e.getKey();
            if (gone != null && name.startsWith(gone + "/")) {
                continue;
            }
            TreeView.Entry b = e.getValue();
            TreeView.Entry a = is.get(name);
            if (a == null) {
                gone = b.directory() ? name : null;
                lines.add(describe(name, b) + " missing: its creation or rename not durable, no sync of " + directory(name)
                        + " completed after it");
            } else if (a.inode() != b.inode()) {
                lines.add(name + " is inode " + a.inode() + " " + size(a) + " again, not " + b.inode() + " " + size(b)
                        + ": the rename or creation that replaced it not durable, no sync of " + directory(name)
                        + " completed after it");
            } else if (!b.directory() && a.size() != b.size()) {
                lines.add(name + " has " + a.size() + " bytes, not " + b.size() + ": its last writes not durable, no sync of"
                        + " the file completed after them");
            } else if (!b.directory() && !a.modified().equals(b.modified())) {
                lines.add(name + " has its older modification time: its last change not durable, the file not synced"
                        + " after it");
            }
        }
        String back = null;
        for (Map.Entry<String, TreeView.Entry> e : is.entrySet()) {
            String name = e.getKey();
            if (was.containsKey(name) || back != null && name.startsWith(back + "/")) {
                continue;
            }
            back = e.getValue().directory() ? name : null;
            lines.add(describe(name, e.getValue()) + " back: its removal or rename away not durable, no sync of "
                    + directory(name) + " completed after it");
        }
        return lines;
    }

    /**
     * A line per file holding discarded bytes: how many, where in the file, and whether torn. The drive keeps
     * 4 KiB sectors, so a file in smaller blocks is named with the neighbouring bytes its sectors hold.
     */
    static List<String> owned(String name, List<Range> ranges) {
        List<String> lines = new ArrayList<>();
        for (boolean torn : new boolean[] {false, true}) {
            long bytes = 0;
            List<String> at = new ArrayList<>();
            for (Range r : ranges) {
                if (r.torn() == torn) {
                    bytes += r.length();
                    if (at.size() < 3) {
                        at.add(String.valueOf(r.offset()));
                    } else if (at.size() == 3) {
                        at.add("...");
                    }
                }
            }
            if (bytes > 0) {
                lines.add("sectors holding " + bytes + " bytes of " + name + " at " + (at.size() == 1 ? "offset " : "offsets ")
                        + String.join(", ", at) + (torn ? " torn, the drive kept part of each" : " discarded")
                        + ": written, no flush completed after them");
            }
        }
        return lines;
    }

    private static String describe(String name, TreeView.Entry e) {
        return e.directory() ? name + "/" : name + " (" + e.size() + " bytes)";
    }

    private static String size(TreeView.Entry e) {
        return e.directory() ? "(a directory)" : "(" + e.size() + " bytes)";
    }

    /** The directory whose sync makes a name in it durable, as the line says it. */
    private static String directory(String name) {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? "the top directory" : "directory " + name.substring(0, slash);
    }
}

package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.disk.ModelDisk;
import io.flushcheck.powercut.internal.host.DriveClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link SimulatedDisk}'s faults, placed where its model says and armed on its drive: writes that fail, are lost or
 * land elsewhere ({@link WriteFault}), reads that fail ({@link ReadFault}), data at rest that changes
 * ({@link DataFault}). The disk's public methods say what each does; this class places and arms them.
 */
final class DiskFaults {

    private final DiskModel model;
    private final ModelDisk perModel;
    private final DriveClient drive;

    DiskFaults(DiskModel model, ModelDisk perModel, DriveClient drive) {
        this.model = model;
        this.perModel = perModel;
        this.drive = drive;
    }

    void failFlushes(FaultPlan plan) {
        try {
            drive.failFlushes(plan.after(), plan.persistent(), plan.errno().number());
        } catch (DriveClient.Refused r) {
            throw new IllegalStateException("the simulated drive did not arm the failure: " + r.reply());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Arms {@code fault} on the disk at {@code live}: by where its file's bytes lie, or on the file model by its name. */
    void failWrites(WriteFault fault, Path live) {
        try {
            String name = notMadeYet(fault.file(), live);
            if (name != null && model == DiskModel.FILE) {
                failWritesTo(fault, name, live);
                return;
            }
            if (name != null) {
                throw new IllegalArgumentException(fault.file() + " is not on the disk yet: on the block model a write"
                        + " fault is placed where the file's bytes lie on the drive (FIEMAP), so the file must have them"
                        + " (written and synced) before the fault is planned");
            }
            List<ModelDisk.FaultRange> ranges = perModel.place(fault.file(), fault.offset(), fault.length());
            switch (fault.kind()) {
                case FAILED -> {
                    for (ModelDisk.FaultRange f : ranges) {
                        drive.failWrites(f.unit(), f.from(), f.length(), fault.persistent(), fault.errno().number());
                    }
                }
                case LOST -> {
                    for (ModelDisk.FaultRange f : ranges) {
                        drive.loseWrites(f.unit(), f.from(), f.length(), fault.persistent());
                    }
                }
                case MISDIRECTED -> {
                    for (Misdirection m : misdirections(fault, ranges)) {
                        drive.misdirectWrites(m.from().unit(), m.from().from(), m.from().length(), fault.persistent(),
                                m.to().unit(), m.to().from());
                    }
                }
            }
        } catch (DriveClient.Refused r) {
            throw new IllegalArgumentException("the simulated drive did not arm " + fault + ": " + r.reply());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The name of {@code file} from {@code live}, '/' between names, when it is not there yet: a file the workload
     * is to make; null when it is there (or is no file of the disk, refused where it is placed).
     */
    private static String notMadeYet(Path file, Path live) throws IOException {
        if (file == null || Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        Path absolute = file.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return null;
        }
        Path real = existing.toRealPath().resolve(existing.relativize(absolute));
        Path root = live.toRealPath();
        if (!real.startsWith(root) || real.equals(root)) {
            throw new IllegalArgumentException(file + " is no file of the disk at " + live);
        }
        return root.relativize(real).toString().replace(real.getFileSystem().getSeparator(), "/");
    }

    /**
     * Plans {@code fault} on the file named {@code name} from {@code live}, not made yet: the file model arms it on the
     * file at the first write it gets by that name. A failed write is not planned so.
     */
    private void failWritesTo(WriteFault fault, String name, Path live) throws IOException {
        switch (fault.kind()) {
            case FAILED -> throw new IllegalArgumentException(fault.file() + " is not on the disk yet: a failing write is"
                    + " planned on a file that is (a lost or misdirected one also on a file the workload is to make)");
            case LOST -> drive.loseWritesTo(name, fault.offset(), fault.length(), fault.persistent());
            case MISDIRECTED -> {
                if (fault.target() == null) {
                    throw new IllegalArgumentException("the file model has no drive: misdirect to a file (misdirectedTo)");
                }
                String target = Files.exists(fault.target(), LinkOption.NOFOLLOW_LINKS)
                        ? live.toRealPath().relativize(fault.target().toRealPath()).toString()
                        .replace(live.getFileSystem().getSeparator(), "/") : notMadeYet(fault.target(), live);
                drive.misdirectWritesTo(name, fault.offset(), fault.length(), fault.persistent(), target,
                        fault.targetOffset());
            }
        }
    }

    /** A piece of a misdirected write's range, and where its first byte lands. */
    private record Misdirection(ModelDisk.FaultRange from, ModelDisk.FaultRange to) {
    }

    /**
     * The pieces of {@code fault}'s range, placed as {@code ranges}, each with the place its bytes land: the target's
     * bytes from the target offset, placed as the range's are (by FIEMAP on the block model, by node on the file
     * model), piece by piece.
     */
    private List<Misdirection> misdirections(WriteFault fault, List<ModelDisk.FaultRange> ranges) throws IOException {
        List<ModelDisk.FaultRange> targets = fault.target() == null && model == DiskModel.BLOCK
                ? List.of(new ModelDisk.FaultRange(0, fault.targetOffset(), fault.length()))
                : perModel.place(fault.target(), fault.targetOffset(), fault.length());
        List<Misdirection> out = new ArrayList<>();
        int t = 0;
        long usedOfTarget = 0;
        for (ModelDisk.FaultRange r : ranges) {
            for (long done = 0; done < r.length(); ) {
                if (t == targets.size()) {
                    throw new IllegalArgumentException("cannot misdirect " + fault + ": the target has no place on the"
                            + " drive for all of the range's " + fault.length() + " bytes");
                }
                ModelDisk.FaultRange target = targets.get(t);
                long n = Math.min(r.length() - done, target.length() - usedOfTarget);
                out.add(new Misdirection(new ModelDisk.FaultRange(r.unit(), r.from() + done, n),
                        new ModelDisk.FaultRange(target.unit(), target.from() + usedOfTarget, n)));
                done += n;
                usedOfTarget += n;
                if (usedOfTarget == target.length()) {
                    t++;
                    usedOfTarget = 0;
                }
            }
        }
        return out;
    }
    /** The writes the drive acknowledged and did not make as asked, so far. */
    DriveClient.LiedWrites liedWrites() {
        try {
            return drive.liedWrites();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The writes the drive acknowledged and did not make as asked, in words, for a loss's explanation
     * ({@link AcknowledgedRecords#assertDurable}): empty when there were none, or when the drive no longer answers.
     */
    String liedWritesNote() {
        DriveClient.LiedWrites l;
        try {
            l = drive.liedWrites();
        } catch (IOException e) {
            return ""; // the disk is closed: the explanation goes without it
        }
        if (l.lost() == 0 && l.misdirected() == 0) {
            return "";
        }
        return "the drive acknowledged writes it did not make as asked (WriteFault): " + l.lost() + " lost, "
                + l.misdirected() + " misdirected";
    }

    /**
     * Arms {@code fault} on the disk's drive, or after a cut on the drive its survivor (at {@code survivor}; null before a
     * cut) is moved onto, its file one of the survivor's.
     */
    void failReads(ReadFault fault, Path survivor) {
        try {
            if (survivor != null && fault.file() != null) {
                fileUnder(fault.file(), survivor, "of the survivor " + survivor + ": after a cut, reads fail on what"
                        + " survived it");
            }
            // A drive range is placed (or refused, on the file model) before the survivor moves onto a drive of its
            // own, so that a refusal changes nothing; a file's bytes are placed where the moved survivor holds them.
            List<ModelDisk.FaultRange> ranges = fault.file() == null
                    ? perModel.placeReads(null, fault.offset(), fault.length()) : null;
            DriveClient on = survivor != null ? perModel.serveSurvivor() : drive;
            if (ranges == null) {
                ranges = perModel.placeReads(fault.file(), fault.offset(), fault.length());
            }
            for (ModelDisk.FaultRange f : ranges) {
                on.failReads(f.unit(), f.from(), f.length(), fault.persistent(), fault.errno().number());
            }
            perModel.uncache(fault.file(), ranges);
        } catch (DriveClient.Refused r) {
            throw new IllegalArgumentException("the simulated drive did not arm " + fault + ": " + r.reply());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads failed so far: the disk's drive's, and its survivor's drive's once there is one. */
    long failedReads() {
        try {
            DriveClient survivor = perModel.survivorDrive();
            return drive.failedReads() + (survivor == null ? 0 : survivor.failedReads());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Changes data at rest as {@code fault} says ({@link SimulatedDisk#corrupt}): on the disk at {@code live} with the
     * power on, or (live null) on {@code survivor}, the latest survivor (null before any).
     */
    Corruption corrupt(DataFault fault, Path live, Path survivor) {
        try {
            return fault.file() == null ? corruptDrive(fault, live == null) : corruptFile(fault, live, survivor);
        } catch (DriveClient.Refused r) {
            throw new IllegalStateException("the simulated drive did not change its data at rest (" + fault + "): "
                    + r.reason());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Corruption corruptFile(DataFault fault, Path live, Path survivor) throws IOException {
        boolean cut = live == null;
        Path given = fault.file();
        Path root = !cut ? live : survivor;
        Path file = fileUnder(given, root, (cut ? "of the survivor " + survivor : "of the disk at " + live)
                + ": data at rest changes on the disk with the power on, or on what survived its cut");
        Path realRoot = root.toRealPath();
        if (!cut) {
            requirePowerForData();
            // What is changed is the bytes at rest: the file's written bytes go there first. A survivor's are there
            // (the block model syncs it as it places them); a sync of it would count as the program's own.
            try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                c.force(true);
            }
        }
        String name = realRoot.relativize(file).toString();
        DataFault.Pick p = fault.pick(Files.size(file), name);
        List<ModelDisk.FaultRange> ranges;
        if (!cut) {
            ranges = perModel.placeData(file, p.offset(), p.length());
            change(ranges, p.bit());
            perModel.uncache(file, ranges);
        } else {
            ranges = perModel.corruptSurvivor(file, p.offset(), p.length(), p.bit());
        }
        return new Corruption(given, name, p.offset(), p.length(), p.bit(), cut,
                model == DiskModel.BLOCK ? driveRanges(ranges) : List.of());
    }
    /** {@code given}, its links resolved, when it is a regular file under {@code root}; refused, saying it is none {@code where}. */
    private static Path fileUnder(Path given, Path root, String where) throws IOException {
        Path file;
        try {
            file = given.toRealPath(); // symbolic links resolved: what is damaged is what lies under the root
        } catch (NoSuchFileException e) {
            file = null;
        }
        Path realRoot = root == null ? null : root.toRealPath();
        if (file == null || realRoot == null || !file.startsWith(realRoot)
                || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException(given + " is no regular file " + where);
        }
        return file;
    }

    private Corruption corruptDrive(DataFault fault, boolean cut) throws IOException {
        if (model != DiskModel.BLOCK) {
            throw new IllegalArgumentException("the file model has no drive: name a file (DataFault.bitRot, DataFault.zeroed)");
        }
        DataFault.Pick p = fault.pick(fault.offset() + fault.length() < 0 ? Long.MAX_VALUE : fault.offset() + fault.length(),
                "the drive");
        List<ModelDisk.FaultRange> ranges;
        if (!cut) {
            requirePowerForData();
            ranges = List.of(new ModelDisk.FaultRange(0, p.offset(), p.length()));
            change(ranges, p.bit());
            perModel.uncache(null, ranges);
        } else {
            ranges = perModel.corruptSurvivor(null, p.offset(), p.length(), p.bit());
        }
        return new Corruption(null, "the drive", p.offset(), p.length(), p.bit(), cut, driveRanges(ranges));
    }
    private void requirePowerForData() throws IOException {
        if (!drive.powered()) {
            throw new IllegalStateException("the power went at an armed flush: cutPower() makes its survivor, whose"
                    + " files can then be corrupted");
        }
    }
    /** Flips bit {@code bit} of the one byte of {@code ranges}, or (-1) zeros them, on the drive. */
    private void change(List<ModelDisk.FaultRange> ranges, int bit) throws IOException {
        for (ModelDisk.FaultRange r : ranges) {
            if (bit >= 0) {
                drive.flipBit(r.unit(), r.from(), bit);
            } else {
                drive.zero(r.unit(), r.from(), r.length());
            }
        }
    }
    private static List<Corruption.DriveRange> driveRanges(List<ModelDisk.FaultRange> ranges) {
        List<Corruption.DriveRange> out = new ArrayList<>();
        for (ModelDisk.FaultRange r : ranges) {
            out.add(new Corruption.DriveRange(r.from(), r.length()));
        }
        return out;
    }
}

package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.kernel.FileExtents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link WriteFault} as the drive's commands ({@code fail-writes UNIT FROM LENGTH MODE ERRNO}): the file's
 * extents on the block model's drive, its node on the file model.
 */
final class WriteFaultTargets {

    private WriteFaultTargets() {
    }

    static List<String> commands(WriteFault fault, DiskModel model, String fsType) throws IOException {
        String tail = (fault.persistent() ? " persistent " : " once ") + fault.errno().number();
        List<String> commands = new ArrayList<>();
        if (fault.file() == null) {
            if (model != DiskModel.BLOCK) {
                throw new IllegalArgumentException("the file model has no drive: name a file (WriteFault.toFile)");
            }
            commands.add("fail-writes 0 " + fault.offset() + " " + fault.length() + tail);
            return commands;
        }
        Path file = fault.file();
        if (model == DiskModel.FILE) {
            // The file model's inode number is the tree's node id (FuseTreeServer's attributes).
            long node = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
            commands.add("fail-writes " + node + " " + fault.offset() + " " + fault.length() + tail);
            return commands;
        }
        if (fsType.equals("btrfs")) {
            throw new IllegalArgumentException("btrfs writes a changed block to a new place (copy on write), so the"
                    + " drive's bytes of " + file + " are not where its next write goes: plan write faults on ext4 or xfs");
        }
        for (FileExtents.Extent e : FileExtents.of(file, fault.offset(), fault.length())) {
            commands.add("fail-writes 0 " + e.device() + " " + e.length() + tail);
        }
        if (commands.isEmpty()) {
            throw new IllegalArgumentException(file + " has no bytes on the drive in " + fault.offset() + "+"
                    + fault.length() + " yet: write and fsync them before planning a fault on them");
        }
        return commands;
    }
}

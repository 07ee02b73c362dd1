package io.flushcheck.powercut.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Where a file's bytes lie on the device below its filesystem, as FIEMAP reports them (through e2fsprogs'
 * {@code filefrag}, which every filesystem with FIEMAP answers, xfs's too): so a write fault planned on a file
 * lands on the block model's drive where the file's next overwrite will be written.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FileExtents {

    /** {@code length} bytes of the device at {@code device}, holding the file's bytes from {@code logical}. */
    public record Extent(long logical, long device, long length) {
    }

    // "   0:        0..   20479:    8653824..   8674303:  20480:             last,eof"
    private static final Pattern LINE = Pattern.compile("^\\s*\\d+:\\s*(\\d+)\\.\\.\\s*(\\d+):\\s*(\\d+)\\.\\.\\s*(\\d+):");

    private FileExtents() {
    }

    /** The file's extents that overlap {@code [offset, offset + length)}, cut to it; in bytes. */
    public static List<Extent> of(Path file, long offset, long length) throws IOException {
        String out = Commands.run("filefrag", "-e", "-b1", file.toString());
        List<Extent> extents = new ArrayList<>();
        for (String line : out.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (!m.find()) {
                continue;
            }
            long logical = Long.parseLong(m.group(1));
            long end = Long.parseLong(m.group(2)) + 1;
            long device = Long.parseLong(m.group(3));
            long from = Math.max(logical, offset);
            long to = Math.min(end, offset + length);
            if (from < to) {
                extents.add(new Extent(from, device + (from - logical), to - from));
            }
        }
        return extents;
    }
}

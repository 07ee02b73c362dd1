package io.flushcheck.probe;

import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import io.flushcheck.storage.SysFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Finds sync functions that the process resolves somewhere other than the C library: what a
 * preloaded library does when it intercepts them, whatever its name. Linux only.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SyncSymbols {

    /** What an interposer would replace to make syncs vanish (eatmydata replaces all of these). */
    static final List<String> SYMBOLS = List.of("fsync", "fdatasync", "sync_file_range", "syncfs", "sync", "msync", "open");

    private SyncSymbols() {
    }

    /**
     * Each intercepted symbol with the file that provides it, e.g. {@code fsync from /usr/lib/libnosync.so}.
     *
     * @throws UnsupportedOperationException when the native library cannot be loaded or this is not Linux
     */
    public static List<String> interposed() {
        if (!Platform.isLinux()) {
            throw new UnsupportedOperationException("symbol interposition is checked on Linux only");
        }
        NativeLibrary process;
        NativeLibrary libc;
        try {
            process = NativeLibrary.getProcess();
            // By its file name: JNA answers "c" with the process itself on Linux, which is the very
            // lookup that an interposer wins.
            libc = NativeLibrary.getInstance("libc.so.6");
        } catch (LinkageError | RuntimeException e) {
            throw new UnsupportedOperationException("cannot load the C library through JNA: " + e, e);
        }
        String maps;
        try {
            maps = SysFiles.read(Path.of("/proc/self/maps"));
        } catch (IOException e) {
            maps = "";
        }
        List<String> out = new ArrayList<>();
        for (String symbol : SYMBOLS) {
            long global;
            long own;
            try {
                global = Pointer.nativeValue(process.getFunction(symbol));
                own = Pointer.nativeValue(libc.getFunction(symbol));
            } catch (UnsatisfiedLinkError e) {
                continue;
            }
            if (global != own) {
                out.add(symbol + " from " + fileAt(maps, global));
            }
        }
        return out;
    }

    /** The mapped file holding an address, from /proc/self/maps text, or the address in hex. */
    static String fileAt(String maps, long address) {
        for (String line : maps.split("\n")) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            if (dash < 0 || space < dash) {
                continue;
            }
            try {
                long lo = Long.parseUnsignedLong(line.substring(0, dash), 16);
                long hi = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                int slash = line.indexOf('/');
                if (Long.compareUnsigned(address, lo) >= 0 && Long.compareUnsigned(address, hi) < 0 && slash > 0) {
                    return line.substring(slash);
                }
            } catch (NumberFormatException e) {
                // not an address line
            }
        }
        return "0x" + Long.toHexString(address);
    }
}

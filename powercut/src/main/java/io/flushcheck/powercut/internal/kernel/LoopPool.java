package io.flushcheck.powercut.internal.kernel;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The machine's loop devices as the kernel lists them in {@code /sys/block}: a device is in use when it
 * has a {@code loop/backing_file}. Read when attaching failed, to say why in terms a user can act on.
 *
 * @param devices  every loop device, by number
 * @param maxLoop  the loop module's {@code max_loop} parameter, or null where it cannot be read
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record LoopPool(List<Device> devices, Integer maxLoop) {

    /** One loop device; {@code backingFile} is null when it is free. */
    public record Device(String name, String backingFile) {
        public boolean inUse() {
            return backingFile != null;
        }
    }

    /** Reads {@code sysBlock} (normally {@code /sys/block}) and the {@code max_loop} file. */
    public static LoopPool read(Path sysBlock, Path maxLoopFile) throws IOException {
        List<Device> devices = new ArrayList<>();
        if (Files.isDirectory(sysBlock)) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(sysBlock, "loop[0-9]*")) {
                for (Path dev : s) {
                    Path backing = dev.resolve("loop").resolve("backing_file");
                    devices.add(new Device(dev.getFileName().toString(),
                            Files.isReadable(backing) ? Files.readString(backing).trim() : null));
                }
            }
        }
        devices.sort(Comparator.comparingInt(d -> Integer.parseInt(d.name().substring("loop".length()))));
        Integer maxLoop = null;
        try {
            maxLoop = Integer.parseInt(Files.readString(maxLoopFile).trim());
        } catch (IOException | NumberFormatException e) {
            // not a module parameter here: the message goes without it
        }
        return new LoopPool(List.copyOf(devices), maxLoop);
    }

    /** The pool of this machine. */
    public static LoopPool current() throws IOException {
        return read(Path.of("/sys/block"), Path.of("/sys/module/loop/parameters/max_loop"));
    }

    public long inUse() {
        return devices.stream().filter(Device::inUse).count();
    }

    /** True when every loop device there is has a backing file: losetup found none free. */
    public boolean exhausted() {
        return inUse() == devices.size();
    }

    /**
     * Why {@code image} got no loop device, in one sentence: how many exist, how many are in use and by
     * what, and what to do.
     */
    public String explain(Path image) {
        List<String> users = new ArrayList<>();
        for (Device d : devices) {
            if (d.inUse()) {
                users.add(d.name() + " by " + d.backingFile());
            }
        }
        String limit = maxLoop == null ? "" : " (max_loop=" + maxLoop + ")";
        return "no free loop device for " + image + ": " + devices.size() + " loop devices exist" + limit + " and "
                + inUse() + " are in use" + (users.isEmpty() ? "" : " (" + String.join(", ", users) + ")")
                + "; wait for one to be detached, detach one that is no longer needed (losetup -d), or load the loop module with a larger max_loop";
    }
}

package io.flushcheck.powercut.internal.host;

import io.flushcheck.powercut.internal.kernel.JournalPlace;
import io.flushcheck.powercut.internal.model.FlushSizes;
import io.flushcheck.powercut.internal.model.PowerLossModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One simulated drive as its disk asks it, command by command, over the {@link DriveHost} that serves it: the
 * one place on this side of the pipes that knows the words {@link DiskServerMain} and {@link DriveControl}
 * speak. Every reply is read here, into a value or a {@link Refused}; the server is another process, so a
 * reply that does not read as the command's answer is an {@link IOException} quoting it, never a guess.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DriveClient {

    private final DriveHost host;
    private final String id;
    private final boolean templated;

    private DriveClient(DriveHost host, String id, boolean templated) {
        this.host = host;
        this.id = id;
        this.templated = templated;
    }

    /** The drive's figures, as {@code stats} answers them. */
    public record Stats(long flushes, long unflushedBytes, long failedFlushes, long failedWrites) {
    }

    /**
     * What a cut did: {@code kept} and {@code discarded} units of what was not durable (the drive's atomic units;
     * the file model's bytes), at the drive's {@code atFlush}-th flush, {@code armed} when the power went at an
     * armed flush (whatever cut was asked now); what only the model's rules lost ({@code note}, empty when
     * nothing) and what it discarded, an entry each (the file model's operations, the block model's sector runs).
     */
    public record Cut(long kept, long discarded, long atFlush, boolean armed, String note, List<String> lost) {
        public Cut {
            lost = List.copyOf(lost);
        }
    }

    /**
     * The drive's answer to a command was not the one that carries it out: {@link #reply()} quotes it, and
     * {@link #reason()} is its reason without the leading {@code error }.
     */
    public static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;
        private final String reply;

        Refused(String command, String reply) {
            super("the simulated drive refused " + command + ": " + reply);
            this.reply = reply;
        }

        /** The reply as the drive gave it. */
        public String reply() {
            return reply;
        }

        /** The reply without its leading {@code error }. */
        public String reason() {
            return reply.startsWith("error ") ? reply.substring("error ".length()) : reply;
        }
    }

    /** Mounts a fresh tree of the file model of {@code size} bytes on {@code mountPoint}, under {@code rules} ({@code journaled}, {@code posix}). */
    public static DriveClient files(DriveHost host, Path mountPoint, long size, String rules) throws IOException {
        return add(host, "files " + PathWord.of(mountPoint) + " " + size + " " + rules, mountPoint, false);
    }

    /** As {@link #files}, the tree holding what directory {@code from} holds (a survivor's), all of it durable. */
    public static DriveClient files(DriveHost host, Path mountPoint, long size, String rules, Path from) throws IOException {
        return add(host, "files " + PathWord.of(mountPoint) + " " + size + " " + rules + " " + PathWord.of(from), mountPoint,
                false);
    }

    /**
     * Serves a block model's drive of {@code size} bytes writing {@code atomicUnit} bytes atomically on
     * {@code mountPoint}: holding the sectors of the template {@code key} names when the host keeps one
     * ({@link #keepAsTemplate}), empty otherwise ({@link #templated()} tells which).
     */
    public static DriveClient drive(DriveHost host, Path mountPoint, long size, int atomicUnit, String key) throws IOException {
        String template = host.template(key);
        return add(host, "drive " + PathWord.of(mountPoint) + " " + size + " " + atomicUnit + (template == null ? "" : " " + template),
                mountPoint, template != null);
    }

    /**
     * Serves a block model's drive of {@code size} bytes writing {@code atomicUnit} bytes atomically on {@code mountPoint},
     * holding what the image file {@code image} holds (a survivor's saved image): read where it lies, never written.
     */
    public static DriveClient image(DriveHost host, Path mountPoint, long size, int atomicUnit, Path image) throws IOException {
        return add(host, "image " + PathWord.of(mountPoint) + " " + size + " " + atomicUnit + " " + PathWord.of(image),
                mountPoint, true);
    }

    private static DriveClient add(DriveHost host, String what, Path mountPoint, boolean templated) throws IOException {
        String id = host.nextId();
        String r = host.ask("new " + id + " " + what);
        if (!r.equals("ready")) {
            throw new IOException("the simulated drives' server could not mount " + mountPoint + ": " + r);
        }
        return new DriveClient(host, id, templated);
    }

    /** True when a server's first line says it is ready to serve. */
    static boolean ready(String firstLine) {
        return "ready".equals(firstLine);
    }

    /** True when the drive started from a template ({@link #drive}), with its filesystem made already. */
    public boolean templated() {
        return templated;
    }

    /** The PID of the server process (for the file model, the one its disks share). */
    public long pid() {
        return host.pid();
    }

    /** What this drive reads now becomes the template {@code key} names ({@link #drive}). */
    public void keepAsTemplate(String key) throws IOException {
        host.keepTemplate(key, name -> {
            String r = host.ask("template " + name + " " + id);
            if (!r.equals("template")) {
                throw new IOException("the simulated drives' server could not keep a template: " + r);
            }
        });
    }

    /**
     * Where the journal of the filesystem on this drive lies ({@link JournalPlace}), {@code image} being the
     * drive's image: found on the first drive of template {@code key} that asks, then the same for every drive
     * of it, since mkfs placed it once and the drives start from its sectors. A failure is not kept.
     */
    public List<JournalPlace.Range> journalPlace(String key, String fsType, Path image) throws IOException {
        return host.journalPlace(key, fsType, image);
    }

    /** The drive's figures. */
    public Stats stats() throws IOException {
        return stats(ask("stats"));
    }

    /** Cuts the power, keeping what is durable and in {@code SUBSET} mode a part of the rest drawn from {@code seed}; after an armed cut, what that one did. */
    public Cut cut(PowerLossModel.CutMode mode, long seed) throws IOException {
        return cut(ask("cut " + mode + " " + seed));
    }

    /** Arms a cut at the {@code k}-th flush, SIGKILL going to {@code processGroup} first unless it is 0. */
    public void armAfter(long k, long processGroup) throws IOException {
        expect("arm", processGroup == 0 ? ask("arm " + k) : ask("arm " + k + " " + processGroup), "armed");
    }

    /** Arms a cut as the {@code k}-th flush arrives, keeping a subset drawn from {@code seed}. */
    public void armDuring(long k, long seed) throws IOException {
        expect("arm-during", ask("arm-during " + k + " " + seed), "armed");
    }

    /** Fails flushes once {@code after} have completed, with {@code errno}; every later one too when {@code persistent}. */
    public void failFlushes(long after, boolean persistent, int errno) throws IOException {
        expect("fail-flush", ask("fail-flush " + after + (persistent ? " persistent" : " once") + " " + errno), "failing");
    }

    /** Fails writes to {@code length} bytes from {@code from} of {@code unit} with {@code errno}; all of them when {@code persistent}. */
    public void failWrites(long unit, long from, long length, boolean persistent, int errno) throws IOException {
        expect("fail-writes", ask("fail-writes " + unit + " " + from + " " + length + (persistent ? " persistent " : " once ")
                + errno), "failing");
    }

    /** Fails reads of {@code length} bytes from {@code from} of {@code unit} with {@code errno}; until rewritten when {@code persistent}. */
    public void failReads(long unit, long from, long length, boolean persistent, int errno) throws IOException {
        expect("fail-reads", ask("fail-reads " + unit + " " + from + " " + length + (persistent ? " persistent " : " once ")
                + errno), "failing");
    }

    /** Loses writes to {@code length} bytes from {@code from} of {@code unit}: all of them when {@code persistent}. */
    public void loseWrites(long unit, long from, long length, boolean persistent) throws IOException {
        expect("lose-writes", ask("lose-writes " + unit + " " + from + " " + length + (persistent ? " persistent" : " once")),
                "losing");
    }

    /**
     * Misdirects writes to {@code length} bytes from {@code from} of {@code unit} to {@code targetUnit} from
     * {@code targetFrom}: all of them when {@code persistent}.
     */
    public void misdirectWrites(long unit, long from, long length, boolean persistent, long targetUnit, long targetFrom)
            throws IOException {
        expect("misdirect-writes", ask("misdirect-writes " + unit + " " + from + " " + length
                + (persistent ? " persistent " : " once ") + targetUnit + " " + targetFrom), "misdirecting");
    }

    /**
     * Loses writes to {@code length} bytes from {@code from} of the file named {@code path} (from the root, '/'
     * between names), armed at its first write by that name: the file model's plan for a file not made yet.
     */
    public void loseWritesTo(String path, long from, long length, boolean persistent) throws IOException {
        expect("lose-writes-to", ask("lose-writes-to " + PathWord.ofText(path) + " " + from + " " + length
                + (persistent ? " persistent" : " once")), "losing");
    }

    /** As {@link #loseWritesTo}, the bytes landing at {@code targetFrom} of the file named {@code targetPath}. */
    public void misdirectWritesTo(String path, long from, long length, boolean persistent, String targetPath,
                                  long targetFrom) throws IOException {
        expect("misdirect-writes-to", ask("misdirect-writes-to " + PathWord.ofText(path) + " " + from + " " + length
                + (persistent ? " persistent " : " once ") + PathWord.ofText(targetPath) + " " + targetFrom), "misdirecting");
    }

    /** Writes the drive has lied about so far: lost ({@link #loseWrites}) and misdirected ({@link #misdirectWrites}). */
    public record LiedWrites(long lost, long misdirected) {
    }

    /** Writes the drive has lost and misdirected so far. */
    public LiedWrites liedWrites() throws IOException {
        return liedWrites(ask("lied-writes"));
    }

    /** {@code lied-writes lost L misdirected M}: the reply {@link #liedWrites(String)} reads. */
    static String liedWritesReply(long lost, long misdirected) {
        return "lied-writes lost " + lost + " misdirected " + misdirected;
    }

    /** {@code lied-writes lost L misdirected M}. */
    static LiedWrites liedWrites(String reply) throws IOException {
        String[] w = reply.split(" ", -1);
        if (w.length == 5 && w[0].equals("lied-writes") && w[1].equals("lost") && w[3].equals("misdirected")) {
            try {
                return new LiedWrites(count(w[2], "lied-writes", reply), count(w[4], "lied-writes", reply));
            } catch (IOException e) {
                // not two counts: no answer, reported below with the reply
            }
        }
        throw new IOException("the simulated drive did not answer lied-writes: " + reply);
    }

    /** Flips bit {@code bit} of byte {@code offset} of {@code unit}, durable and as it reads now (bit rot). */
    public void flipBit(long unit, long offset, int bit) throws IOException {
        expect("flip-bit", ask("flip-bit " + unit + " " + offset + " " + bit), "flipped");
    }

    /** Zeros {@code length} bytes from {@code from} of {@code unit}, durable and as they read now. */
    public void zero(long unit, long from, long length) throws IOException {
        expect("zero", ask("zero " + unit + " " + from + " " + length), "zeroed");
    }

    /** Reads the drive has failed so far by {@link #failReads}. */
    public long failedReads() throws IOException {
        return failedReads(ask("failed-reads"));
    }

    /** Has the drive kill the process world of {@code pid} at its cut; false when the power is gone already and it killed it at once. */
    public boolean world(long pid) throws IOException {
        return world(ask("world " + pid));
    }

    /** True until the power is gone. */
    public boolean powered() throws IOException {
        return powered(ask("powered"));
    }

    /** Writes what survived the cut to {@code to}: the drive's image, or the tree into an empty directory. */
    public void save(Path to) throws IOException {
        expect("save", ask("save " + PathWord.of(to)), "saved");
    }

    /** Records every change into {@code log}; the block model saves what the drive reads now to {@code base}, the file model takes none (null). */
    public void record(Path log, Path base) throws IOException {
        expect("record", ask("record " + PathWord.of(log) + (base == null ? "" : " " + PathWord.of(base))), "recording");
    }

    /** Ends the recording. */
    public void stopRecording() throws IOException {
        expect("record-stop", ask("record-stop"), "recorded");
    }

    /**
     * Has the drive read the size of the regular file {@code file} (not on this drive) as each flush completes, before
     * its sync returns, until {@link #watchedSizes()}.
     */
    public void watchSize(Path file) throws IOException {
        expect("watch-size", ask("watch-size " + PathWord.of(file)), "watching");
    }

    /** The sizes the drive read since {@link #watchSize}, which ends. */
    public FlushSizes watchedSizes() throws IOException {
        String reply = ask("watched-sizes");
        if (!reply.startsWith("sizes")) {
            throw new Refused("watched-sizes", reply);
        }
        try {
            return FlushSizes.of(reply);
        } catch (IllegalArgumentException e) {
            throw malformed("watched-sizes", reply);
        }
    }

    /** Unmounts the file model's tree (the block model's drive stays served until {@link #quit}). */
    public void unmount() throws IOException {
        expect("unmount", ask("unmount"), "unmounted");
    }

    /**
     * Asks the server to stop serving the drive, unlike every other command also once it has failed.
     *
     * @throws Refused when it answers other than {@code bye}
     * @throws IOException when it is gone already
     */
    public void quit() throws IOException {
        expect("quit", host.ask(id + " quit"), "bye");
    }

    /** The reply to {@code command}; a server that says it failed is a {@link DriveHost.ServerFailure}, never a reply. */
    private String ask(String command) throws IOException {
        String reply = host.ask(id + " " + command);
        if (reply.startsWith("failed ")) {
            throw host.failed("failed: " + reply.substring("failed ".length()));
        }
        return reply;
    }

    private static void expect(String command, String reply, String done) throws Refused {
        if (!reply.equals(done)) {
            throw new Refused(command, reply);
        }
    }

    /** {@code flushes F unflushed U failed N failed-writes W}. */
    static Stats stats(String reply) throws IOException {
        String[] w = reply.split(" ", -1);
        try {
            if (w.length == 8 && w[0].equals("flushes") && w[2].equals("unflushed") && w[4].equals("failed")
                    && w[6].equals("failed-writes")) {
                return new Stats(count(w[1], "stats", reply), count(w[3], "stats", reply), count(w[5], "stats", reply),
                        count(w[7], "stats", reply));
            }
        } catch (IOException e) {
            // anything but four counts is no answer, not figures to read
        }
        throw new IOException("the simulated drive did not answer stats: " + reply);
    }

    /** {@code failed-reads N}. */
    static long failedReads(String reply) throws IOException {
        String[] w = reply.split(" ", -1);
        if (w.length == 2 && w[0].equals("failed-reads")) {
            try {
                return count(w[1], "failed-reads", reply);
            } catch (IOException e) {
                // not a count: no answer, reported below with the reply
            }
        }
        throw new IOException("the simulated drive did not answer failed-reads: " + reply);
    }

    /**
     * {@code cut kept K discarded D at F armed|now}, then {@code note WORD} when the rules lost something, then
     * {@code lost WORD...} when the cut discarded something: words of {@link PathWord#ofText}.
     *
     * @throws Refused when the reply is no cut's
     */
    static Cut cut(String reply) throws IOException {
        if (!reply.startsWith("cut ")) {
            throw new Refused("cut", reply);
        }
        String[] w = reply.split(" ", -1);
        if (w.length < 8 || !w[1].equals("kept") || !w[3].equals("discarded") || !w[5].equals("at")
                || !(w[7].equals("armed") || w[7].equals("now"))) {
            throw malformed("cut", reply);
        }
        int i = 8;
        String note = "";
        if (i < w.length && w[i].equals("note")) {
            if (i + 1 >= w.length) {
                throw malformed("cut", reply);
            }
            note = text(w[i + 1], "cut", reply);
            i += 2;
        }
        List<String> lost = new ArrayList<>();
        if (i < w.length) {
            if (!w[i].equals("lost") || i + 1 >= w.length) {
                throw malformed("cut", reply);
            }
            for (int j = i + 1; j < w.length; j++) {
                lost.add(text(w[j], "cut", reply));
            }
        }
        return new Cut(count(w[2], "cut", reply), count(w[4], "cut", reply), count(w[6], "cut", reply),
                w[7].equals("armed"), note, lost);
    }

    /** {@code cut kept K discarded D at F armed|now [note WORD] [lost WORD...]}: the reply {@link #cut(String)} reads. */
    static String cutReply(long kept, long discarded, long atFlush, boolean armed, String note, List<String> lost) {
        StringBuilder out = new StringBuilder("cut kept " + kept + " discarded " + discarded + " at " + atFlush
                + (armed ? " armed" : " now"));
        if (!note.isEmpty()) {
            out.append(" note ").append(PathWord.ofText(note));
        }
        if (!lost.isEmpty()) {
            out.append(" lost");
            for (String entry : lost) {
                out.append(' ').append(PathWord.ofText(entry));
            }
        }
        return out.toString();
    }

    /** {@code world}, or {@code world killed} (false). */
    static boolean world(String reply) throws Refused {
        if (reply.equals("world")) {
            return true;
        }
        if (reply.equals("world killed")) {
            return false;
        }
        throw new Refused("world", reply);
    }

    /** {@code powered true} or {@code powered false}. */
    static boolean powered(String reply) throws IOException {
        if (reply.equals("powered true")) {
            return true;
        }
        if (reply.equals("powered false")) {
            return false;
        }
        throw new IOException("the simulated drive did not answer powered: " + reply);
    }

    private static long count(String word, String command, String reply) throws IOException {
        try {
            long n = Long.parseLong(word);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below, with the reply
        }
        throw malformed(command, reply);
    }

    private static String text(String word, String command, String reply) throws IOException {
        try {
            return PathWord.text(word);
        } catch (IllegalArgumentException e) {
            throw malformed(command, reply);
        }
    }

    private static IOException malformed(String command, String reply) {
        return new IOException("the simulated drive's reply to " + command + " cannot be read: " + reply);
    }
}

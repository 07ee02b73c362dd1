package io.flushcheck.jupiter;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.SysFiles;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Verdict;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * Verdicts shared by the JVMs of one build (Surefire forks, {@code reuseForks=false}), so that a fork
 * reuses a fresh verdict instead of probing again. An entry lives in the build directory
 * ({@code target/flushcheck/verdicts}), is keyed by everything that identifies the storage and this boot
 * (the boot id, the mount, its device chain, the process's environment and preloads, the options, this
 * flushcheck's build), and is trusted only when all of that matches exactly, it is younger than its
 * lifetime, and it is a regular file of this user. Anything else is ignored and replaced.
 */
final class VerdictStore {

    /** Entries older than this are not trusted (a build's forks run within minutes). */
    static final int DEFAULT_SECONDS = 300;

    private final Path dir;
    private final long lifetimeMillis;

    private VerdictStore(Path dir, long lifetimeMillis) {
        this.dir = dir;
        this.lifetimeMillis = lifetimeMillis;
    }

    /** The store of the build directory under the working directory, if there is one and it is wanted. */
    static Optional<VerdictStore> forBuild(int seconds) {
        if (seconds <= 0) {
            return Optional.empty();
        }
        for (String build : List.of("target", "build")) {
            Path b = Path.of(build).toAbsolutePath();
            if (Files.isDirectory(b)) {
                return Optional.of(new VerdictStore(b.resolve("flushcheck").resolve("verdicts"), seconds * 1000L));
            }
        }
        return Optional.empty();
    }

    Path directory() {
        return dir;
    }

    /** A verdict worth sharing: one a probe decided (the storage facts alone decide in milliseconds). */
    static boolean worthSharing(CheckResult r) {
        return r.verdict() != Verdict.UNKNOWN && !r.costs().isEmpty();
    }

    /**
     * A fresh verdict of another JVM for this storage, if there is one. Read without the lock: entries
     * appear whole (written aside, then renamed), so a fork that finds one never opens a channel or creates
     * a directory for it.
     */
    Optional<Shared> fresh(Path real, StorageFacts facts, CheckOptions options) {
        String key = key(facts, options);
        return read(dir.resolve(fileName(key) + ".properties"), key, real, facts);
    }

    /**
     * The shared verdict for this storage, else {@code judge}'s, which is then shared. Concurrent forks
     * asking for one storage take turns on a lock file, so one probes and the others read its verdict.
     */
    Shared getOrJudge(Path real, StorageFacts facts, CheckOptions options, Supplier<CheckResult> judge) {
        String key = key(facts, options);
        String name = fileName(key);
        try {
            Files.createDirectories(dir);
            try (FileChannel lockFile = FileChannel.open(dir.resolve(name + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock ignored = lockFile.lock()) {
                Optional<Shared> hit = read(dir.resolve(name + ".properties"), key, real, facts);
                if (hit.isPresent()) {
                    return hit.get();
                }
                CheckResult judged = judge.get();
                if (worthSharing(judged)) {
                    write(name, key, judged);
                }
                return new Shared(judged, null, null);
            }
        } catch (IOException e) {
            // A read-only or full build directory: judge here, share nothing.
            return new Shared(judge.get(), null, null);
        }
    }

    /** A verdict and, when it came from another JVM, the figure that decided it there and where from. */
    record Shared(CheckResult result, String figure, String origin) {
    }

    static String key(StorageFacts facts, CheckOptions options) {
        return String.join("\n",
                "boot " + bootId(),
                "user " + System.getProperty("user.name"),
                "flushcheck " + build(),
                "mount " + RecordText.of(facts.mount()),
                "upper " + RecordText.of(facts.upperMount()),
                "device " + RecordText.of(facts.device()),
                "flush points " + RecordText.of(facts.flushPoints()),
                "environment " + RecordText.of(facts.environment()),
                "LD_PRELOAD " + System.getenv().getOrDefault("LD_PRELOAD", ""),
                "options " + RecordText.of(options));
    }

    private Optional<Shared> read(Path file, String key, Path real, StorageFacts facts) {
        try {
            PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile() || !a.owner().getName().equals(System.getProperty("user.name"))) {
                return Optional.empty();
            }
            Properties p = new Properties();
            // A FileInputStream: Files.newInputStream(NOFOLLOW_LINKS) would load the JDK's channel classes into every
            // fork for one small read. Opened by name after the check above, it would follow a symlink swapped in
            // between; swapping one in takes write access to this user's build directory, which holds the
            // build's own classes too.
            try (InputStream in = new FileInputStream(file.toFile())) {
                p.load(in);
            }
            long created = Long.parseLong(p.getProperty("createdMillis"));
            long age = System.currentTimeMillis() - created;
            if (!key.equals(p.getProperty("key")) || age < -1000 || age > lifetimeMillis) {
                return Optional.empty();
            }
            Verdict verdict = Verdict.valueOf(p.getProperty("verdict"));
            List<Finding> findings = new ArrayList<>();
            int n = Integer.parseInt(p.getProperty("findings"));
            for (int i = 0; i < n; i++) {
                findings.add(Finding.of(FindingCode.valueOf(p.getProperty("finding." + i + ".code")),
                        p.getProperty("finding." + i + ".message")));
            }
            CheckResult r = new CheckResult(real.toString(), facts, List.of(), new Judgement(verdict, findings), 0);
            return Optional.of(new Shared(r, p.getProperty("figure"), "the verdict of PID " + p.getProperty("pid")
                    + " in this build, " + (Math.max(age, 0) / 1000) + " s old"));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // missing, unreadable or malformed: not trusted
        }
    }

    private void write(String name, String key, CheckResult r) throws IOException {
        Properties p = new Properties();
        p.setProperty("key", key);
        p.setProperty("createdMillis", String.valueOf(System.currentTimeMillis()));
        p.setProperty("pid", String.valueOf(ProcessHandle.current().pid()));
        p.setProperty("path", r.path());
        p.setProperty("verdict", r.verdict().name());
        p.setProperty("figure", VerdictLine.decidingFigure(r));
        List<Finding> findings = r.judgement().findings();
        p.setProperty("findings", String.valueOf(findings.size()));
        for (int i = 0; i < findings.size(); i++) {
            p.setProperty("finding." + i + ".code", findings.get(i).code().name());
            p.setProperty("finding." + i + ".message", findings.get(i).message());
        }
        Path tmp = Files.createTempFile(dir, name, ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                p.store(out, "flushcheck verdict, shared by the JVMs of one build");
            }
            try {
                Files.move(tmp, dir.resolve(name + ".properties"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dir.resolve(name + ".properties"), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String bootId() {
        try {
            return SysFiles.read(Path.of("/proc/sys/kernel/random/boot_id")).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown"; // not Linux: no storage facts there, so nothing is shared
        }
    }

    /** This flushcheck's build: where its classes come from and when they were made. */
    private static String build() {
        try {
            File code = new File(VerdictStore.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return code + " " + code.lastModified();
        } catch (Exception e) {
            return "unknown";
        }
    }

    /**
     * The entry's file name: a 64-bit FNV-1a hash of its key. Not a cryptographic digest, which would load the
     * JDK's security providers into every fork; two keys that share a name take turns in one file, and the key
     * inside, compared in full, tells them apart.
     */
    static String fileName(String key) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
        }
        return HexFormat.of().toHexDigits(hash);
    }
}

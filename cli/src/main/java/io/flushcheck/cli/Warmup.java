package io.flushcheck.cli;

import io.flushcheck.CheckResult;
import io.flushcheck.report.Json;
import io.flushcheck.report.ResultData;
import io.flushcheck.report.ResultJson;
import io.flushcheck.report.TextReport;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.Environment;
import io.flushcheck.storage.FilesystemDevices;
import io.flushcheck.storage.FsTypes;
import io.flushcheck.storage.KernelPath;
import io.flushcheck.storage.MountInfo;
import io.flushcheck.storage.MountTable;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import io.flushcheck.storage.SysBlock;
import io.flushcheck.storage.SysFiles;
import io.flushcheck.text.Escape;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.Judge;
import io.flushcheck.verdict.Judgement;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads and initializes the classes of a check on a daemon thread while the main thread parses the
 * arguments and validates the paths.
 *
 * <p>Why: a verdict that the storage facts decide (tmpfs, eatmydata) needs about 2 ms of work, but
 * on a cold JVM loading, verifying and initializing its dozen classes costs about 8 ms more, mostly
 * the class loader's own code running in the interpreter. A second core does that in parallel.
 * Measured with {@code cli/bench/overwrite-fdatasync.sh}, which runs the command alternately
 * with {@code -Dflushcheck.warmup=false}: the median {@code elapsedMillis} of a tmpfs check falls from
 * 11 ms to 3 or 4, and the wall clock stays within noise (142 against 140 ms on two cores).
 *
 * <p>Started by {@link Main#main} only: tests that call {@link Main#run} in a warm JVM have nothing to
 * gain. Nothing here does I/O or native calls; the class initializers involved only build constant
 * lists, so no two threads can wait on each other's.
 */
final class Warmup implements Runnable {

    /** Turns the warm-up off ({@code -Dflushcheck.warmup=false}), for benchmarks that show what it saves. */
    static final String PROPERTY = "flushcheck.warmup";

    /**
     * What writing JSON loads besides {@link #classes()}: Gson's streaming writer, whose class initializer
     * compiles a regular expression and formats strings (about 15 ms of a cold JVM). By name, and only for a
     * line that asks for JSON: a plain run never opens Gson's jar.
     */
    static final String[] JSON_CLASSES = {"com.google.gson.stream.JsonWriter"};

    private final boolean json;

    private Warmup(boolean json) {
        this.json = json;
    }

    /** Starts the warm-up for the command line {@code args}; returns at once. */
    static void start(String[] args) {
        if ("false".equals(System.getProperty(PROPERTY))) {
            return;
        }
        boolean json = false;
        for (String a : args) {
            // A guess is enough: a wrong one costs only the warm-up's work, never a result.
            json |= a.equals("--json");
        }
        Thread t = new Thread(new Warmup(json), "flushcheck-warmup");
        t.setDaemon(true); // never delays exit, whatever it is doing
        t.start();
    }

    /**
     * What a check decided by the storage facts (tmpfs; eatmydata on a disk) loads, in the order it
     * does, and its reports.
     * WarmupTests keeps this in step with the code by watching a child JVM's class loading.
     */
    static Class<?>[] classes() {
        // Class literals load a class without initializing it; the array is built on the warm-up
        // thread, so the main thread pays for none of them.
        List<Class<?>> classes = new ArrayList<>(List.of(StorageInspector.class, MountTable.class, SysFiles.class,
            MountTable.walkClass(), MountInfo.class, KernelPath.class, SysBlock.class, FilesystemDevices.class,
            FilesystemDevices.journalClass(), BlockDevice.Kind.class, BlockDevice.class, FsTypes.class, StorageFacts.class,
            Environment.class, Judge.class));
        classes.addAll(Judge.partClasses());
        classes.addAll(List.of(Finding.class, Judgement.class, CheckResult.class, ResultJson.class, Json.class,
            ResultData.class, ResultData.Finding.class, ResultData.Storage.class, ResultData.CountedDevice.class,
            TextReport.class, Escape.class));
        return classes.toArray(new Class<?>[0]);
    }

    @Override
    public void run() {
        System.getenv(); // the environment map, which Environment.detect reads
        for (Class<?> c : classes()) {
            try {
                Class.forName(c.getName(), true, c.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                return; // the main thread meets the same problem and reports it
            }
        }
        if (json) {
            for (String name : JSON_CLASSES) {
                try {
                    Class.forName(name, true, Warmup.class.getClassLoader());
                } catch (ClassNotFoundException | LinkageError e) {
                    return;
                }
            }
        }
    }
}

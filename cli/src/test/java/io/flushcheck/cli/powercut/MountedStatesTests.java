package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A crash state is data to look at, not a filesystem to run: a state whose files include a setuid-root shell and a
 * device node, as a workload (or whoever made a recording) may leave, is mounted by {@code --explore} and
 * {@code --replay} so that neither can be used, as root or as anyone else, and where no other user can reach it.
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
@ResourceLock(SimulatedPowerLoss.LOCK)
class MountedStatesTests {

    @TempDir
    Path tmp;

    /**
     * Run per state as root: fails (exit 1, saying why) when the state's shell runs or its device opens, when its
     * mount lacks an option, or when another user can reach the mount point. Notes in {@code seen} each state that
     * held both, so that the test knows the attempts were made.
     */
    private static final String CHECK = """
            dir="$1"; seen="$2"; shift 2
            options=$(findmnt -no OPTIONS --mountpoint "$dir") || { echo "not a mount: $dir"; exit 1; }
            for o in nosuid nodev noexec "$@"; do
              case ",$options," in *",$o,"*) ;; *) echo "mounted without $o: $options"; exit 1;; esac
            done
            if setpriv --reuid=65534 --regid=65534 --clear-groups ls "$dir" >/dev/null 2>&1; then
              echo "another user lists the state"; exit 1
            fi
            [ -e "$dir/rootsh" ] && [ -c "$dir/null" ] || exit 0
            if "$dir/rootsh" -p -c true 2>/dev/null; then echo "the state's shell runs"; exit 1; fi
            if head -c 1 "$dir/null" 2>/dev/null; then echo "the state's device opens"; exit 1; fi
            echo x >> "$seen"
            """;

    @Test
    void aStatesSetuidShellAndDeviceNodeAreUnusableAndOutOfOtherUsersReachInExploreAndReplay() throws Exception {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        for (String tool : List.of("setsid", "setpriv", "unshare", "findmnt")) {
            Requirements.requireCommand(tool, "util-linux");
        }
        Path check = Files.writeString(tmp.resolve("check.sh"), CHECK);
        Path seen = tmp.resolve("seen");
        Path saved = tmp.resolve("recording");
        String command = "cp /bin/bash \"$1/rootsh\" && chmod 4755 \"$1/rootsh\" && mknod \"$1/null\" c 1 3"
                + " && sync && echo done >> \"$FLUSHCHECK_ACKS\"";
        Run explored = run("powercut", "--explore", "--record", saved.toString(), "--max-states", "20",
                "--verify", "sh " + check + " {dir} " + seen, "--", "sh", "-c", command, "sh", "{dir}");
        assertThat(explored.exit()).as(explored.out() + explored.err()).isZero();
        assertThat(Files.readAllLines(seen)).as("states of --explore that held the shell and the device").isNotEmpty();

        Files.delete(seen);
        // A recording from elsewhere is not trusted even to point the way: its states do not follow links either.
        Run replayed = run("powercut", "--replay", saved.toString(), "--max-states", "20",
                "--verify", "sh " + check + " {dir} " + seen + " nosymfollow");
        assertThat(replayed.exit()).as(replayed.out() + replayed.err()).isZero();
        assertThat(Files.readAllLines(seen)).as("states of --replay that held the shell and the device").isNotEmpty();
    }
}

package io.flushcheck.report.html;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.verdict.Finding;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What the report shows of one checked directory (a path of the host, or a guest's data directory):
 * the verdict with its findings, the storage facts, and the figures of each mode.
 *
 * @param title         the path, or the environment's name
 * @param verdict       REAL_FLUSH, NO_REAL_FLUSH or UNKNOWN
 * @param elapsedMillis how long the check took
 * @param findings      {@code {code, message}} pairs, deciding ones first
 * @param facts         {@code {label, value}} pairs: filesystem, mount, devices, environment
 * @param modes         each mode's figures, in the order measured
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record PathFigures(String title, String verdict, long elapsedMillis, List<String[]> findings, List<String[]> facts,
                          List<ModeFigures> modes) {

    public PathFigures {
        findings = List.copyOf(findings);
        facts = List.copyOf(facts);
        modes = List.copyOf(modes);
    }

    public static PathFigures of(CheckResult r) {
        List<String[]> findings = new ArrayList<>();
        for (Finding f : r.judgement().findings()) {
            findings.add(new String[] {f.code().name(), f.message()});
        }
        List<ModeFigures> modes = new ArrayList<>();
        for (SyncCost c : r.costs()) {
            modes.add(ModeFigures.of(c));
        }
        return new PathFigures(r.path(), r.verdict().name(), r.elapsedMillis(), findings, facts(r.facts()), modes);
    }

    static List<String[]> facts(StorageFacts f) {
        List<String[]> out = new ArrayList<>();
        if (f == null) {
            out.add(new String[] {"storage", "not inspected on this OS"});
            return out;
        }
        out.add(new String[] {"resolved path", f.resolved()});
        out.add(new String[] {"filesystem", f.fsType() + " from " + f.mount().source() + " at " + f.mount().mountPoint()
                + " (mount " + f.mount().mountId() + ")"});
        out.add(new String[] {"mount options", String.join(",", f.mount().mountOptions()) + " / " + String.join(",", f.mount().superOptions())});
        if (f.device() != null) {
            out.add(new String[] {"device chain", f.deviceDescription()});
            for (BlockDevice t : f.device().terminals()) {
                out.add(new String[] {"disk " + t.name(), (t.writeCache() == null ? "cache unknown" : t.writeCache())
                        + (t.driver() != null ? ", driver " + t.driver() : "")
                        + (Boolean.TRUE.equals(t.rotational()) ? ", rotational" : Boolean.FALSE.equals(t.rotational()) ? ", not rotational" : "")
                        + (t.virtualDisk() ? ", virtual disk" : "")});
            }
        } else if (f.flushPointsNote() != null) {
            out.add(new String[] {"devices", f.flushPointsNote()});
        }
        var env = f.environment();
        if (env.container() != null) {
            out.add(new String[] {"container", env.container()});
        }
        if (env.hypervisor() != null) {
            out.add(new String[] {"hypervisor", env.hypervisor()});
        }
        if (!env.interposers().isEmpty()) {
            out.add(new String[] {"interposers", String.join(", ", env.interposers())});
        }
        return out;
    }
}

package io.flushcheck;

import io.flushcheck.storage.KernelPath;
import io.flushcheck.storage.MountInfo;
import io.flushcheck.storage.MountTable;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Holds the directory opened for the probe to the mount its storage facts were judged on. The facts come from a
 * walk of names in a mount table; the probe writes through a descriptor. Where the descriptor's mount is another
 * one, the name led somewhere else between the two (renamed, replaced, mounted over), and the facts, the device
 * counters among them, are not about the directory the syncs would go to.
 */
final class OpenedMount {

    private OpenedMount() {
    }

    /**
     * A {@link FindingCode#DIRECTORY_CHANGED} finding naming both mounts where the opened directory's mount is not the
     * facts', else null (also where the descriptor's mount cannot be told: no descriptor, as on macOS).
     */
    static Finding changed(StorageFacts facts, long openedMountId) {
        if (facts == null || openedMountId < 0 || openedMountId == facts.mount().mountId()) {
            return null;
        }
        MountInfo judged = facts.mount();
        // Mount ids are global, so the opened one is looked up first in the table the facts were read from (PID's,
        // for a path into its namespace), then in this process's.
        MountInfo opened = find(facts.resolved(), openedMountId);
        String openedText = opened != null ? opened.describe() : "mount " + openedMountId + ", in no mount table seen here";
        Map<String, String> evidence = new LinkedHashMap<>();
        evidence.put("judgedMount", String.valueOf(judged.mountId()));
        evidence.put("openedMount", String.valueOf(openedMountId));
        return new Finding(FindingCode.DIRECTORY_CHANGED, "the directory changed under the check: " + facts.resolved()
                + " was judged on " + judged.describe() + ", but the directory opened for the probe is on " + openedText
                + "; no probe ran, since the facts are not about the directory it would write in", evidence);
    }

    private static MountInfo find(String resolved, long id) {
        try {
            MountInfo m = byId(KernelPath.mountTable(resolved), id);
            return m != null ? m : byId(MountTable.live(), id);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static MountInfo byId(MountTable table, long id) {
        for (MountInfo m : table.mounts()) {
            if (m.mountId() == id) {
                return m;
            }
        }
        return null;
    }
}

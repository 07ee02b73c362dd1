package io.flushcheck.jupiter;

import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Verdict;

/**
 * What a user can do about a NO_REAL_FLUSH verdict, from the finding that decided it: moving the directory helps
 * where the storage under it is the cause (tmpfs, a RAM disk, a device that drops flushes); elsewhere the cause
 * travels with the process (an interposer), the mount (barriers off) or the machine (a VM's disk cache).
 */
final class Remedies {

    private Remedies() {
    }

    /**
     * @param moveElsewhere what the directory's owner does to put it on a disk (the target's own advice)
     */
    static String of(Judgement judgement, String moveElsewhere) {
        for (Finding f : judgement.findings()) {
            if (f.code().effect() != Verdict.NO_REAL_FLUSH) {
                continue;
            }
            switch (f.code()) {
                case SYNC_INTERPOSER:
                    return "run the tests without the interposer (unset LD_PRELOAD)";
                case BARRIERS_OFF:
                    return "mount that filesystem with barriers (without nobarrier or barrier=0), or " + moveElsewhere;
                case HOST_FLUSHES_MISSING:
                    return "give the VM a disk whose flushes reach the host's (QEMU: cache=none, writeback, writethrough"
                            + " or directsync, not unsafe)";
                case HOST_STORAGE_NO_REAL_FLUSH:
                    return "keep the VM's disk image on a host disk that flushes";
                default:
                    return moveElsewhere;
            }
        }
        return moveElsewhere;
    }
}

package io.flushcheck.probe;

import org.apiguardian.api.API;

/**
 * Whether a mode measured so far is decided, so that its remaining rounds can be left out. Asked after each
 * stretch and its idle window, with what was measured up to there.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
@FunctionalInterface
public interface StopRule {

    /**
     * @param sofar   the mode's rounds so far, as the judge would get them
     * @param planned the rounds the plan asked for
     */
    boolean decided(SyncCost sofar, int planned);
}

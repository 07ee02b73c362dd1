package io.flushcheck.sqlite;

import org.apiguardian.api.API;

/**
 * The answer to one question of an audit.
 *
 * @param survival how committed transactions fare
 * @param reason   why, in sentences that name the settings, the documentation and the storage evidence
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record Answer(Survival survival, String reason) {

    public boolean survives() {
        return survival.survives();
    }

    @Override
    public String toString() {
        return survival + ": " + reason;
    }
}

package io.flushcheck.powercut.internal.model;

import java.util.function.LongConsumer;
import org.apiguardian.api.API;

/**
 * A {@link PowerLossModel} whose power is a {@link PowerSwitch}: the answers the switch gives for either
 * model, each under the model's own lock, which its flushes and cuts hold when they use {@link #power}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public abstract class SwitchedModel implements PowerLossModel {

    /** The model's power; used only under the model's lock, as {@link PowerSwitch} is not thread-safe. */
    protected final PowerSwitch power = new PowerSwitch();

    @Override
    public final synchronized long flushes() {
        return power.flushes();
    }

    @Override
    public final synchronized boolean frozen() {
        return power.frozen();
    }

    @Override
    public final synchronized boolean armedCutHappened() {
        return power.armedCutHappened();
    }

    @Override
    public final synchronized void cutAtFlush(long k, Runnable atCut) {
        power.cutAtFlush(k, atCut);
    }

    @Override
    public final synchronized void cutDuringFlush(long k, long seed) {
        power.cutDuringFlush(k, seed);
    }

    @Override
    public final synchronized void failFlushesAfter(long k, boolean persistent, int errno) {
        power.failFlushesAfter(k, persistent, errno);
    }

    @Override
    public final synchronized long failedFlushes() {
        return power.failedFlushes();
    }

    @Override
    public final synchronized void whenCompleting(LongConsumer action) {
        power.whenCompleting(action);
    }

    @Override
    public final synchronized void whenFrozen(Runnable action) {
        power.whenFrozen(action);
    }
}

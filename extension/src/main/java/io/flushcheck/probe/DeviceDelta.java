package io.flushcheck.probe;

import io.flushcheck.storage.DeviceStat;

/**
 * What one device did while a loop (or one round) ran.
 *
 * @param device   kernel name
 * @param terminal true for a device at the bottom of the chain, where flushes land
 * @param delta    counter differences
 */
public record DeviceDelta(String device, boolean terminal, DeviceStat delta) {
}

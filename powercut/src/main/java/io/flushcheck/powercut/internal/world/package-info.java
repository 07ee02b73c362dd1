/** Processes that die with the drive's power. */
package io.flushcheck.powercut.internal.world;

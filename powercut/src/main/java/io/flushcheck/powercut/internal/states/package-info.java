/** Crash states of a recorded drive: the recording, its epochs, the states a cut can leave and their images. */
package io.flushcheck.powercut.internal.states;

/** Work directories, and what a killed run left behind. */
package io.flushcheck.powercut.internal.cleanup;

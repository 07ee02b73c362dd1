/**
 * The C calls and commands the rest of the module makes: libc through JNA, raw reads and writes of a device,
 * commands run to their end.
 */
package io.flushcheck.powercut.internal.sys;

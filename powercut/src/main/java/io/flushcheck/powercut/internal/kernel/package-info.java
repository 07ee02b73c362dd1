/**
 * What the kernel gives a drive: loop devices, mounts, filesystems and their options, a file's extents, the
 * journal's place.
 */
package io.flushcheck.powercut.internal.kernel;

/**
 * The block model's drive: the sector store with its volatile cache, its images, its log of writes and its FUSE
 * server.
 */
package io.flushcheck.powercut.internal.drive;

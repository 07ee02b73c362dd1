/**
 * What both models' disks share below the faces: the disk a model makes and serves ({@code ModelDisk}, made and
 * torn down as a {@code ServedDisk}), the crash states a model checks ({@code ModelStates}) and what a check found
 * ({@code CheckReport}), and a recording's files held open ({@code RecordingFiles}).
 */
package io.flushcheck.powercut.internal.disk;

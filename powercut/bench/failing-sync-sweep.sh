#!/usr/bin/env bash
# What a fault sweep costs, printed, not asserted: one fault point per flush of a journal of RECORDS synced
# records (RECORDS + 1 points), each on a fresh disk (make, fail flushes from the point on, run, cut, read the
# survivor, undo), on the block model (32 MiB ext4) and then on the file model: the median time a point.
#
# usage: powercut/bench/failing-sync-sweep.sh [RECORDS]   (default 10)
# needs: root, /dev/fuse, a free loop device, mkfs.ext4; builds the powercut module's classes (no install)
set -euo pipefail
records=${1:-10}
root=$(cd "$(dirname "$0")/../.." && pwd)
[[ $(id -u) == 0 ]] || { echo "bench: needs root (mount, losetup)" >&2; exit 2; }
[[ -e /dev/fuse ]] || { echo "bench: needs /dev/fuse" >&2; exit 2; }
cd "$root"
echo "bench: building the powercut module and what it needs (test-compile, no install)" >&2
mvn -B -q -Dstyle.color=never -pl powercut -am test-compile dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.outputFile=target/failing-sync-sweep.classpath >/dev/null
cp="powercut/target/classes:$(cat powercut/target/failing-sync-sweep.classpath)"
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
java -cp "$cp" "$root/powercut/bench/FailingSyncSweepBench.java" "$records"
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

#!/usr/bin/env bash
# What failing a survivor's reads costs, printed, not asserted: cycles of a disk with a synced 64 KiB file, cut, the
# survivor's file read, closed, alternately without a read fault on the survivor and with a bad sector armed as the
# cut returns (the survivor then served through a drive whose reads can fail), side by side in one run. Prints the
# medians of the cut, the first failReads after it, the read and the close, and the ratio of the two cycles.
#
# usage: powercut/bench/survivor-reads-bench.sh [-c CYCLES] [-M MODELS] [-d DIR]
#   defaults: 15 cycles of each, models block,file, DIR /dev/shm
# needs: /dev/fuse; for the block model root, free loop devices, mkfs.ext4; for the file model without root,
# fusermount3; builds the module (package, no tests, no install)
set -euo pipefail
cycles=15 models=block,file dir=/dev/shm
while getopts "c:M:d:h" opt; do
    case $opt in
        c) cycles=$OPTARG ;;
        M) models=$OPTARG ;;
        d) dir=$OPTARG ;;
        *) sed -n '2,10p' "$0"; exit 2 ;;
    esac
done
[[ $models != *block* || $(id -u) == 0 ]] || { echo "bench: the block model needs root (mount, losetup)" >&2; exit 2; }
[[ -e /dev/fuse ]] || { echo "bench: needs /dev/fuse" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
echo "bench: building what it needs (package, no tests, no install)" >&2
mvn -B -q -o -Dstyle.color=never -pl powercut -am package -DskipTests dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.outputFile=target/survivor-reads-bench.classpath >/dev/null
cp="powercut/target/classes:$(cat powercut/target/survivor-reads-bench.classpath)"
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
java -cp "$cp" "$root/powercut/bench/SurvivorReadsBench.java" "$cycles" "$models" "$dir"
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

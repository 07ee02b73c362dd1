#!/usr/bin/env bash
# Sweeps of damaged blocks (@CorruptedBlocks, one sweep per kind given, every block SQLite left) against as many
# power cuts (@RepeatedPowerCut), side by side in one run, printed, not asserted: SQLite WAL+FULL, COMMITS one-row
# commits and no checkpoint, up to 241 invocations each, a fresh disk each, on the block model (32 MiB ext4, 4 KiB
# blocks) and the file model (64 MiB, journaled rules). Prints invocations a second per kind and for all of them,
# the ratio to a power cut, each sweep's outcomes and its aborted invocations (with the first reason).
#
# usage: powercut/bench/corrupted-blocks-bench.sh [-c COMMITS] [-M MODELS] [-k KINDS]
#   defaults: 100 commits, models block,file, kinds bit-rot,zeroed (any of bit-rot, zeroed, lost-write,
#   misdirected-write, bad-sector, transient-read)
# needs: /dev/fuse; for the block model root, free loop devices, mkfs.ext4; for the file model without root,
# fusermount3; builds the module (package, no tests, no install)
set -euo pipefail
commits=100 models=block,file kinds=bit-rot,zeroed
while getopts "c:M:k:h" opt; do
    case $opt in
        c) commits=$OPTARG ;;
        M) models=$OPTARG ;;
        k) kinds=$OPTARG ;;
        *) sed -n '2,11p' "$0"; exit 2 ;;
    esac
done
[[ $models != *block* || $(id -u) == 0 ]] || { echo "bench: the block model needs root (mount, losetup)" >&2; exit 2; }
[[ -e /dev/fuse ]] || { echo "bench: needs /dev/fuse" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
echo "bench: building what it needs (package, no tests, no install)" >&2
mvn -B -q -o -Dstyle.color=never -pl powercut -am package -DskipTests dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/corrupted-blocks-bench.classpath >/dev/null
cp="powercut/target/classes:$(cat powercut/target/corrupted-blocks-bench.classpath)"
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
java -cp "$cp" "$root/powercut/bench/CorruptedBlocksBench.java" "$commits" "$models" "$kinds"
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

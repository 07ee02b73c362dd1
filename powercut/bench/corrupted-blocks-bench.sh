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
. "$(dirname "$0")/../../bench/common.sh"
commits=100 models=block,file kinds=bit-rot,zeroed
while getopts "c:M:k:h" opt; do
    case $opt in
        c) commits=$OPTARG ;;
        M) models=$OPTARG ;;
        k) kinds=$OPTARG ;;
        *) bench_usage ;;
    esac
done
[[ $models != *block* ]] || bench_need_root "the block model"
bench_need_fuse
cd "$bench_root"
cp=$(bench_classpath powercut powercut test corrupted-blocks-bench)
bench_load before
java -cp "$cp" "$bench_root/powercut/bench/CorruptedBlocksBench.java" "$commits" "$models" "$kinds"
bench_load after

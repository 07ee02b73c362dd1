#!/usr/bin/env bash
# A sweep of damaged blocks (@CorruptedBlocks: bit rot and zeroed, every block SQLite left) against as many power
# cuts (@RepeatedPowerCut), side by side in one run, printed, not asserted: SQLite WAL+FULL, COMMITS one-row commits
# and no checkpoint, up to 241 invocations each, a fresh disk each, on the block model (32 MiB ext4, 4 KiB blocks)
# and the file model (64 MiB, journaled rules). Prints invocations a second, the ratio, and the sweep's outcomes.
#
# usage: powercut/bench/corrupted-blocks-bench.sh [-c COMMITS] [-M MODELS]
#   defaults: 100 commits, models block,file
# needs: /dev/fuse; for the block model root, free loop devices, mkfs.ext4; for the file model without root,
# fusermount3; builds the module (package, no tests, no install)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"
commits=100 models=block,file
while getopts "c:M:h" opt; do
    case $opt in
        c) commits=$OPTARG ;;
        M) models=$OPTARG ;;
        *) bench_usage ;;
    esac
done
[[ $models != *block* ]] || bench_need_root "the block model"
bench_need_fuse
cd "$bench_root"
cp=$(bench_classpath powercut powercut test corrupted-blocks-bench)
bench_load before
java -cp "$cp" "$bench_root/powercut/bench/CorruptedBlocksBench.java" "$commits" "$models"
bench_load after

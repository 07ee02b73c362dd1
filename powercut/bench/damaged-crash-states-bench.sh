#!/usr/bin/env bash
# The crash states of one recorded run of SQLite WAL+FULL (COMMITS one-row commits) checked undamaged and with up
# to BLOCKS damaged blocks of 4096 bytes a state (bit rot and zeroed, CrashStates.damaged), the two checks of the
# same recording alternating over ROUNDS rounds, on the file model (64 MiB, journaled rules) and the block model
# (32 MiB ext4 with 4 KiB blocks); printed, not asserted: the medians and their ratio, and what the damaged checks'
# reads came to (intact, detected, silent loss, silent corruption).
#
# usage: powercut/bench/damaged-crash-states-bench.sh [-c COMMITS] [-m MAX_STATES] [-b BLOCKS] [-M MODELS] [-r ROUNDS]
#   defaults: 100 commits, at most 300 states, 4 blocks a state, models file,block, 3 rounds
# needs: /dev/fuse; for the block model root, free loop devices, mkfs.ext4; for the file model without root,
# fusermount3; builds the sqlite module and what it needs (package, no tests, no install)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"
commits=100 max=300 blocks=4 models=file,block rounds=3
while getopts "c:m:b:M:r:h" opt; do
    case $opt in
        c) commits=$OPTARG ;;
        m) max=$OPTARG ;;
        b) blocks=$OPTARG ;;
        M) models=$OPTARG ;;
        r) rounds=$OPTARG ;;
        *) bench_usage ;;
    esac
done
bench_whole "-c, -m, -b and -r" "$commits" "$max" "$blocks" "$rounds"
[[ $models =~ ^(block|file)(,(block|file))?$ ]] || bench_fail "-M: block, file or both, comma-separated, not '$models'"
[[ $models != *block* ]] || bench_need_root "the block model"
bench_need_fuse
cd "$bench_root"
cp=$(bench_classpath sqlite sqlite runtime damaged-crash-states-bench)
bench_load before
java -cp "$cp" "$bench_root/powercut/bench/DamagedCrashStatesBench.java" "$commits" "$max" "$blocks" "$models" "$rounds"
bench_load after

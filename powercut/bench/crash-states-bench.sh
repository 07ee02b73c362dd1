#!/usr/bin/env bash
# Every crash state of one recorded run against the sweep that re-runs the workload for each crash point, side
# by side in one run, printed, not asserted: a record a flush (FLUSHES records) and SQLite WAL+FULL (COMMITS
# one-row commits), on the block model (32 MiB ext4 with 4 KiB blocks) and the file model (64 MiB, journaled
# rules). Target: 1,000 states of a 100-flush workload in under 30 s. The states are checked once for each count
# of workers in WORKERS (states checked at once, each on a loop device of its own, or on the file model in a
# directory of its own), side by side, the counts alternating over ROUNDS rounds (after an untimed round that
# warms the JVM up where the sweep does not); the medians are printed with their ratio to the first count's.
# -s SLOW_MS makes each check sleep that long first, as a slow check would (a server to start, a process to run).
#
# usage: powercut/bench/crash-states-bench.sh [-f FLUSHES] [-c COMMITS] [-m MAX_STATES] [-M MODELS] [-j WORKERS]
#                                             [-r ROUNDS] [-s SLOW_MS] [-S]
#   defaults: 100 flushes, 100 commits, at most 5000 states, models block,file; 0 skips that workload; workers
#   1 and the machine's default (twice its processors), e.g. -j 1,2,4; 1 round; no sleep; -S leaves the sweep out
# needs: /dev/fuse; for the block model root, free loop devices, mkfs.ext4; for the file model without root,
# fusermount3; builds the sqlite module and what it needs (package, no tests, no install)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"
flushes=100 commits=100 max=5000 models=block,file workers="1,$(( 2 * $(nproc) ))" rounds=1 sweep=true slow=0
while getopts "f:c:m:M:j:r:s:Sh" opt; do
    case $opt in
        f) flushes=$OPTARG ;;
        c) commits=$OPTARG ;;
        m) max=$OPTARG ;;
        M) models=$OPTARG ;;
        j) workers=$OPTARG ;;
        r) rounds=$OPTARG ;;
        s) slow=$OPTARG ;;
        S) sweep=false ;;
        *) bench_usage ;;
    esac
done
for v in "$flushes" "$commits" "$slow"; do
    [[ $v =~ ^[0-9]+$ ]] || bench_fail "-f, -c and -s: whole numbers from 0, not '$v'"
done
bench_whole "-m and -r" "$max" "$rounds"
[[ $workers =~ ^[^,]+(,[^,]+)*$ ]] || bench_fail "-j: a comma list of whole numbers, not '$workers'"
bench_whole "-j (a comma list)" ${workers//,/ }
[[ $models =~ ^(block|file)(,(block|file))?$ ]] || bench_fail "-M: block, file or both, comma-separated, not '$models'"
[[ $models != *block* ]] || bench_need_root "the block model"
bench_need_fuse
cd "$bench_root"
cp=$(bench_classpath sqlite sqlite runtime crash-states-bench)
bench_load before
java -cp "$cp" "$bench_root/powercut/bench/CrashStatesBench.java" "$flushes" "$commits" "$max" "$models" "$workers" "$rounds" "$sweep" "$slow"
bench_load after

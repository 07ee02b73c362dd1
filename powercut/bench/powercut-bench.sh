#!/usr/bin/env bash
# The power-cut figures, printed, not asserted: the median cost of a cut-and-verify cycle beyond its
# workload, on the block model (make a 32 MiB ext4 on the simulated drive, cut, mount and read the
# survivor, undo it all) and on the file model (serve an empty tree, cut, write out and read the
# survivor, undo), alternated cycle by cycle (target: block < 50 ms); a sweep of every flush of a
# workload of F flushes on the block model (target: 100 flushes < 15 s); the time of
# `flushcheck powercut sqlite --model block --cuts N` (target: N = 20 < 20 s); and the WAL+FULL one-row
# commit rate on the simulated disk against the same ext4 on a plain loop device over a file on the real
# disk (REAL_DIR) and over one in /dev/shm, alternated round by round in one run (target: simulated/plain >= 0.5).
#
# usage: powercut/bench/powercut-bench.sh [-c CYCLES] [-f FLUSHES] [-n CUTS] [-m COMMITS] [-r ROUNDS] [-d REAL_DIR]
#   defaults: 15 cycles, 100 flushes, 20 cuts a cell, 500 commits, 5 rounds, REAL_DIR the repository's
#   target directory; 0 skips that part
# needs: root, /dev/fuse, free loop devices, mkfs.ext4; builds the reactor (package, no tests, no install)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"
cycles=15 flushes=100 cuts=20 commits=500 rounds=5
root=$bench_root
real=$root/target
while getopts "c:f:n:m:r:d:h" opt; do
    case $opt in
        c) cycles=$OPTARG ;;
        f) flushes=$OPTARG ;;
        n) cuts=$OPTARG ;;
        m) commits=$OPTARG ;;
        r) rounds=$OPTARG ;;
        d) real=$OPTARG ;;
        *) bench_usage ;;
    esac
done
bench_need_root
bench_need_fuse

cd "$root"
mkdir -p "$real"
# The command is built for its part below; the Java file runs on the sqlite module's classes.
cp=$(bench_classpath cli sqlite runtime powercut-bench)
bench_load before
java -cp "$cp" "$root/powercut/bench/PowerCutBench.java" "$cycles" "$flushes" "$commits" "$rounds" "$real"
if ((cuts > 0)); then
    start=$(date +%s%N)
    java -jar cli/target/flushcheck.jar powercut sqlite --model block --cuts "$cuts" >/dev/null
    awk -v n="$cuts" -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "flushcheck powercut sqlite --model block --cuts %d (8 cells, %d cuts): %.1f s; target < 20 s for 20\n", n, 8 * n, ns / 1e9 }'
fi
bench_load after

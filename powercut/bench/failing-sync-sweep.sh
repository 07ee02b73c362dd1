#!/usr/bin/env bash
# What a fault sweep costs, printed, not asserted: one fault point per flush of a journal of RECORDS synced
# records (RECORDS + 1 points), each on a fresh disk (make, fail flushes from the point on, run, cut, read the
# survivor, undo), on the block model (32 MiB ext4) and then on the file model: the median time a point.
#
# usage: powercut/bench/failing-sync-sweep.sh [RECORDS]   (default 10)
# needs: root, /dev/fuse, a free loop device, mkfs.ext4; builds the powercut module's classes (no install)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"
[[ ${1:-} != -* ]] || bench_usage
records=${1:-10}
bench_whole RECORDS "$records"
bench_need_root
bench_need_fuse
cd "$bench_root"
cp=$(bench_classpath powercut powercut runtime failing-sync-sweep)
bench_load before
java -cp "$cp" "$bench_root/powercut/bench/FailingSyncSweepBench.java" "$records"
bench_load after

#!/usr/bin/env bash
# What failing a survivor's reads costs, printed, not asserted: cycles of a disk with a synced 64 KiB file, cut, the
# survivor's file read, closed, alternately without a read fault on the survivor and with a bad sector armed as the
# cut returns (the survivor then served through a drive whose reads can fail), side by side in one run. Prints the
# medians of the cut, the first failReads after it, the read and the close, and the ratio of the two cycles.
#
# usage: powercut/bench/survivor-reads-bench.sh [-c CYCLES] [-M MODELS] [-d DIR]
#   defaults: 15 cycles of each, models block,file, DIR /dev/shm
# needs: /dev/fuse; for the block model root, free loop devices, mkfs.ext4; for the file model without root,
# fusermount3; builds the powercut module and what it needs (package, no tests, no install)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"
cycles=15 models=block,file dir=/dev/shm
while getopts "c:M:d:h" opt; do
    case $opt in
        c) cycles=$OPTARG ;;
        M) models=$OPTARG ;;
        d) dir=$OPTARG ;;
        *) bench_usage ;;
    esac
done
bench_whole "-c" "$cycles"
[[ $models =~ ^(block|file)(,(block|file))?$ ]] || bench_fail "-M: block, file or both, comma-separated, not '$models'"
[[ -d $dir ]] || bench_fail "-d: not a directory: '$dir'"
dir=$(cd "$dir" && pwd)
[[ $models != *block* ]] || bench_need_root "the block model"
bench_need_fuse
cd "$bench_root"
cp=$(bench_classpath powercut powercut runtime survivor-reads-bench)
bench_load before
java -cp "$cp" "$bench_root/powercut/bench/SurvivorReadsBench.java" "$cycles" "$models" "$dir"
bench_load after

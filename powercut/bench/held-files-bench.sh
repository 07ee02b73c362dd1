#!/usr/bin/env bash
# A class of 20 @RepeatedPowerCut invocations over a store that keeps its file open across the cut (and past
# its invocation, as a cut leaves an embedded store open), on the block model (32 MiB ext4) and the file
# model, with the block model's class again closing its files at the end of each invocation, alternated
# round by round in one run; printed, not asserted: wall time per invocation and the loop devices of the
# run attached during a class, after it and once its files are closed. Target: the block model's
# invocation within 2x of the file model's; no loop device attached once the files are closed.
#
# usage: powercut/bench/held-files-bench.sh [-r ROUNDS]   (default 1 round: 20 invocations of each class)
# needs: root, /dev/fuse, mkfs.ext4; builds the reactor (package, no tests, no install)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"
rounds=1
while getopts "r:h" opt; do
    case $opt in
        r) rounds=$OPTARG ;;
        *) bench_usage ;;
    esac
done
bench_need_root
bench_need_fuse
cd "$bench_root"
cp=$(bench_classpath powercut powercut test held-files-bench)
bench_load before
java -cp "$cp" "$bench_root/powercut/bench/HeldFilesBench.java" "$rounds"
bench_load after

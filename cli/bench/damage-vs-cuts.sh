#!/usr/bin/env bash
# Side-by-side benchmark: `flushcheck powercut damage --blocks N` (a run that lists the blocks, then N checks, each a
# fresh disk, the command, a cut at its exit, one block damaged and VERIFY) against `flushcheck powercut --cuts N+1`
# cut at the command's exit (as many fresh disks, commands, cuts and VERIFYs, nothing damaged), of the same
# program: SQLite in WAL mode, COMMITS one-row commits (cli/src/test/resources/.../sqlite-wal.sh), read back by one
# sqlite3. Runs alternate the two; prints per model the median wall time of each, per run of the command, and the
# damage sweep's time over the cuts'. Load is printed before and after.
#
# usage: cli/bench/damage-vs-cuts.sh [-r RUNS] [-n BLOCKS] [-c COMMITS] [-M MODELS] [-j JAR]
#   defaults: 3 runs each, 40 blocks, 30 commits, models file (-M file,block for both)
# needs: /dev/fuse, sqlite3, java 17, GNU time is not needed; cli/target/flushcheck.jar
#   (mvn -q -B -pl cli -am package -DskipTests); for the block model root, free loop devices, mkfs.ext4
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jar="$(dirname "$here")/target/flushcheck.jar"
scripts="$(dirname "$here")/src/test/resources/io/flushcheck/cli/powercut"
runs=3 blocks=40 commits=30 models=file
while getopts "r:n:c:M:j:h" opt; do
    case $opt in
        r) runs=$OPTARG ;;
        n) blocks=$OPTARG ;;
        c) commits=$OPTARG ;;
        M) models=$OPTARG ;;
        j) jar=$OPTARG ;;
        *) bench_usage ;;
    esac
done
bench_whole "-r, -n and -c" "$runs" "$blocks" "$commits"
bench_need_jar "$jar"
bench_need_tool sqlite3 sqlite3
[[ $models != *block* ]] || bench_need_root "the block model"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
median() { sort -g | awk '{v[NR]=$1} END {if (NR % 2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2}'; }
# The cuts have no $FLUSHCHECK_ACKS: the command then logs its acknowledgements to a file of its own.
command=(sh -c 'if [ -z "${FLUSHCHECK_ACKS:-}" ]; then FLUSHCHECK_ACKS=$(mktemp "$2/acks.XXXXXX"); export FLUSHCHECK_ACKS; fi
exec sh "$0" "$1" "$3"' "$scripts/sqlite-wal.sh" {dir} "$work" "$commits")

seconds() { # the wall time of "$@" in seconds; its exit code must be one of 0 1
    local t0 t1 rc=0
    t0=$(date +%s.%N)
    "$@" >"$work/out" 2>"$work/err" || rc=$?
    t1=$(date +%s.%N)
    if [[ $rc -gt 1 ]]; then
        echo "bench: exit $rc: $*" >&2
        tail -3 "$work/err" >&2
        exit 1
    fi
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", b - a}'
}

echo "bench: $jar; $runs runs each, $blocks blocks (+ the listing run) against $((blocks + 1)) cuts, $commits commits"
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
IFS=, read -ra list <<<"$models"
for model in "${list[@]}"; do
    : >"$work/damage" && : >"$work/cuts"
    for ((i = 1; i <= runs; i++)); do
        seconds java -jar "$jar" powercut damage --model "$model" -q --blocks "$blocks" \
            --verify "sh $scripts/sqlite-read.sh {dir}" -- "${command[@]}" >>"$work/damage"
        checks=$(grep -cE '^check [0-9]+: ' "$work/out")
        seconds java -jar "$jar" powercut --model "$model" -q --cuts $((blocks + 1)) --after-flushes 1000000 \
            --verify 'sqlite3 {dir}/db "SELECT count(*) FROM t" >/dev/null' -- "${command[@]}" >>"$work/cuts"
    done
    d=$(median <"$work/damage") c=$(median <"$work/cuts")
    awk -v m="$model" -v d="$d" -v c="$c" -v k="$checks" -v n=$((blocks + 1)) 'BEGIN {
        printf "%s model: damage %s s for %d checks (%.3f s each); cuts %s s for %d cuts (%.3f s each); damage/cuts %.2f\n",
            m, d, k, d / k, c, n, c / n, d / c }'
done
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)"

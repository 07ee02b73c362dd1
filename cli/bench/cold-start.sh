#!/usr/bin/env bash
# Cold wall time of the command against another build of it, side by side: runs `java -jar A/flushcheck.jar
# ARGS...` and `java -jar B/flushcheck.jar ARGS...` alternately (each jar beside its lib/), and prints the
# median and the spread of each and their difference. Every run is a fresh JVM, which is what a user pays
# for a one-shot check; on a loaded machine compare only figures measured in the same run.
#
# usage: cli/bench/cold-start.sh [-n PAIRS] DIR_A DIR_B [ARGS...]
#   PAIRS  alternating runs (default 21); ARGS default: --json /dev/shm
#   DIR_A, DIR_B  directories holding flushcheck.jar and its lib/ (cli/target is one; copy another build's
#                 flushcheck.jar and lib/ elsewhere to compare with it)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"

pairs=21
while getopts "n:h" opt; do
    case $opt in
        n) pairs=$OPTARG ;;
        *) bench_usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -ge 2 && $pairs =~ ^[1-9][0-9]*$ ]] || bench_usage
a=$1
b=$2
shift 2
args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(--json /dev/shm)
for d in "$a" "$b"; do
    [[ -f $d/flushcheck.jar ]] || { echo "cold-start.sh: no flushcheck.jar in $d" >&2; exit 2; }
done

run() { # prints the wall milliseconds of one cold run
    local t0 t1
    t0=$(date +%s%N)
    java -jar "$1/flushcheck.jar" "${args[@]}" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}

stats() { # median, min and max of the numbers on stdin
    sort -n | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2; printf "median %s ms (min %s, max %s, n=%d)", m, v[1], v[NR], NR}'
}

ta=()
tb=()
run "$a" >/dev/null # one untimed run each: the page cache holds both jars and their lib/ afterwards
run "$b" >/dev/null
for ((i = 0; i < pairs; i++)); do
    if ((i % 2)); then
        tb+=("$(run "$b")")
        ta+=("$(run "$a")")
    else
        ta+=("$(run "$a")")
        tb+=("$(run "$b")")
    fi
done
ma=$(printf '%s\n' "${ta[@]}" | stats)
mb=$(printf '%s\n' "${tb[@]}" | stats)
echo "args: ${args[*]}"
echo "A $a: $ma"
echo "B $b: $mb"
med() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
echo "B - A: $(awk -v x="$(med "${tb[@]}")" -v y="$(med "${ta[@]}")" 'BEGIN {printf "%+.1f ms", x - y}')"

#!/usr/bin/env bash
# Side-by-side benchmark: `flushcheck powercut explore --max-states 5` of a program that makes N files (each
# written once) and syncs once, on the file model and on the block model, for each N, in one run. Prints per N and
# model the median wall time of the whole command (record, enumerate, check), its peak RSS, the states the command
# said it checked, and the file model's time over the block model's. Target: the file model within 2x of the block
# model at N = 100,000.
#
# usage: cli/bench/explore-files.sh [-r RUNS] [-m MAX_STATES] [-t TIMEOUT_S] [-M MODELS] [-j JAR] [N...]
#   RUNS runs per N and model, alternating the models (default 1); N defaults to 1000 10000 100000
#   MAX_STATES the bound (default 5); TIMEOUT_S a run's limit, past which it is reported as such (default 1800)
#   MODELS file,block (default), or one of them; JAR another build of the command, to compare (a copy of
#   cli/target's flushcheck.jar with its lib directory beside it)
# needs: root (the block model mounts), /dev/fuse, gcc, GNU time (/usr/bin/time), java 17,
#   cli/target/flushcheck.jar (mvn -q -B -pl cli -am package -DskipTests)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jar="$(dirname "$here")/target/flushcheck.jar"
runs=1 max=5 limit=1800 models=file,block
while getopts "r:m:t:M:j:h" opt; do
    case $opt in
        r) runs=$OPTARG ;;
        m) max=$OPTARG ;;
        t) limit=$OPTARG ;;
        M) models=$OPTARG ;;
        j) jar=$OPTARG ;;
        *) bench_usage ;;
    esac
done
shift $((OPTIND - 1))
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1000 10000 100000)
bench_whole "-r, -m, -t and each N" "$runs" "$max" "$limit" "${sizes[@]}"
bench_need_jar "$jar"
echo "bench: $jar"
[[ $models != *block* ]] || bench_need_root "the block model"
[[ -x /usr/bin/time ]] || { echo "bench: GNU time is needed (apt-get install time)" >&2; exit 2; }
bench_need_tool gcc gcc

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
gcc -O2 -Wall -o "$work/make-files" "$here/make-files.c"
median() { sort -g | awk '{v[NR]=$1} END {if (NR % 2) print v[(NR+1)/2]; else printf "%.2f\n", (v[NR/2]+v[NR/2+1])/2}'; }

# One run: "SECONDS RSS_MIB CHECKED" ("timeout" for the seconds past the limit).
one() {
    local model=$1 n=$2 out="$work/out" err="$work/err" times="$work/time"
    # A disk large enough for N files on ext4 (mkfs.ext4 gives an inode per 16 KiB; each file takes one and a 4 KiB
    # block) and for the file model's blocks.
    local mib=$(( 64 + n * 24 / 1024 ))
    if timeout "$limit" /usr/bin/time -o "$times" -f "%e %M" java -jar "$jar" powercut explore --model "$model" \
            --size-mib "$mib" --max-states "$max" --verify 'test -d {dir}' -- "$work/make-files" {dir} "$n" \
            >"$out" 2>"$err"; then
        local checked
        checked=$(grep -oE '^[0-9]+ states checked' "$out" | awk '{print $1}')
        awk -v c="$checked" '{printf "%s %.0f %s\n", $1, $2 / 1024, c}' "$times"
    elif [[ $? == 124 ]]; then
        echo "timeout - -"
    else
        echo "bench: $model, $n files failed:" >&2
        tail -5 "$err" >&2
        echo "failed - -"
    fi
}

echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
printf '%-9s %-6s %10s %10s %8s %6s\n' files model seconds "peak MiB" checked ratio
for n in "${sizes[@]}"; do
    declare -A secs=() rss=() seen=()
    for ((r = 0; r < runs; r++)); do
        # Alternating which model goes first: neither always runs on a warmer machine.
        order=(${models//,/ })
        if (( r % 2 )) && [[ ${#order[@]} == 2 ]]; then order=("${order[1]}" "${order[0]}"); fi
        for m in "${order[@]}"; do
            read -r s k c < <(one "$m" "$n")
            secs[$m]+="$s "
            rss[$m]+="$k "
            seen[$m]=$c
        done
    done
    for m in ${models//,/ }; do
        if [[ ${secs[$m]} == *timeout* || ${secs[$m]} == *failed* ]]; then
            printf '%-9s %-6s %10s %10s %8s\n' "$n" "$m" "$(echo "${secs[$m]}" | awk '{print $1}')" - -
            continue
        fi
        s=$(echo "${secs[$m]}" | tr ' ' '\n' | grep . | median)
        k=$(echo "${rss[$m]}" | tr ' ' '\n' | grep . | median)
        ratio=-
        if [[ $m == file && $models == *block* && ${secs[block]} != *timeout* && ${secs[block]} != *failed* ]]; then
            b=$(echo "${secs[block]}" | tr ' ' '\n' | grep . | median)
            ratio=$(awk -v f="$s" -v b="$b" 'BEGIN {printf "%.2f", f / b}')
        fi
        printf '%-9s %-6s %10s %10s %8s %6s\n' "$n" "$m" "$s" "$k" "${seen[$m]}" "$ratio"
    done
    unset secs rss seen
done
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)"

#!/usr/bin/env bash
# Side-by-side benchmark: `flushcheck powercut explore --max-states 5` of a program that makes N files (each
# written once) and syncs once, on the file model and on the block model, for each N, in one run. Prints per N,
# model and --workers (-w) the median wall time of the whole command (record, enumerate, check), its peak RSS, the
# states the command said it checked, and the file model's time over the block model's on as many workers. Target: the file model within 2x of the block
# model at N = 100,000.
#
# usage: cli/bench/explore-files.sh [-r RUNS] [-m MAX_STATES] [-t TIMEOUT_S] [-M MODELS] [-w WORKERS] [-j JAR] [N...]
#   RUNS runs per N and model, alternating the models (default 1); N defaults to 1000 10000 100000
#   MAX_STATES the bound (default 5); TIMEOUT_S a run's limit, past which it is reported as such (default 1800)
#   MODELS file,block (default), or one of them; WORKERS a comma list of --workers, each a case of each model
#   (default: none given, the command's own default); JAR another build of the command, to compare (a copy of
#   cli/target's flushcheck.jar with its lib directory beside it)
# needs: root (the block model mounts), /dev/fuse, gcc, GNU time (/usr/bin/time), java 17,
#   cli/target/flushcheck.jar (mvn -q -B -pl cli -am package -DskipTests)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jar="$(dirname "$here")/target/flushcheck.jar"
runs=1 max=5 limit=1800 models=file,block workers=
while getopts "r:m:t:M:w:j:h" opt; do
    case $opt in
        r) runs=$OPTARG ;;
        m) max=$OPTARG ;;
        t) limit=$OPTARG ;;
        M) models=$OPTARG ;;
        w) workers=$OPTARG ;;
        j) jar=$OPTARG ;;
        *) bench_usage ;;
    esac
done
shift $((OPTIND - 1))
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1000 10000 100000)
bench_whole "-r, -m, -t and each N" "$runs" "$max" "$limit" "${sizes[@]}"
[[ -z $workers || $workers =~ ^[^,]+(,[^,]+)*$ ]] || bench_fail "-w: a comma list of whole numbers, not '$workers'"
[[ -z $workers ]] || bench_whole "-w (a comma list)" ${workers//,/ }
[[ $models =~ ^(file|block)(,(file|block))?$ ]] || { echo "bench: -M takes file, block or file,block, not '$models'" >&2; exit 2; }
# Each case is MODEL/WORKERS, "-" for the command's default.
cases=()
for m in ${models//,/ }; do
    for w in ${workers//,/ }; do cases+=("$m/$w"); done
    [[ -n $workers ]] || cases+=("$m/-")
done
bench_need_jar "$jar"
echo "bench: $jar"
[[ $models != *block* ]] || bench_need_root "the block model"
[[ -x /usr/bin/time ]] || { echo "bench: GNU time is needed (apt-get install time)" >&2; exit 2; }
bench_need_tool gcc gcc

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
gcc -O2 -Wall -o "$work/make-files" "$here/make-files.c"
median() { sort -g | awk '{v[NR]=$1} END {if (NR % 2) print v[(NR+1)/2]; else printf "%.2f\n", (v[NR/2]+v[NR/2+1])/2}'; }

# One run of a case: "SECONDS RSS_MIB CHECKED" ("timeout" for the seconds past the limit).
one() {
    local model=${1%/*} w=${1#*/} n=$2 out="$work/out" err="$work/err" times="$work/time"
    local given=()
    [[ $w == - ]] || given=(--workers "$w")
    # A disk large enough for N files on ext4 (mkfs.ext4 gives an inode per 16 KiB; each file takes one and a 4 KiB
    # block) and for the file model's blocks.
    local mib=$(( 64 + n * 24 / 1024 ))
    if timeout "$limit" /usr/bin/time -o "$times" -f "%e %M" java -jar "$jar" powercut explore --model "$model" \
            --size-mib "$mib" --max-states "$max" "${given[@]}" --verify 'test -d {dir}' -- "$work/make-files" {dir} "$n" \
            >"$out" 2>"$err"; then
        local checked
        checked=$(grep -oE '^[0-9]+ states checked' "$out" | awk '{print $1}')
        awk -v c="$checked" '{printf "%s %.0f %s\n", $1, $2 / 1024, c}' "$times"
    elif [[ $? == 124 ]]; then
        echo "timeout - -"
    else
        echo "bench: $1, $n files failed:" >&2
        tail -5 "$err" >&2
        echo "failed - -"
    fi
}

echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
printf '%-9s %-9s %10s %10s %8s %6s\n' files model/w seconds "peak MiB" checked ratio
for n in "${sizes[@]}"; do
    declare -A secs=() rss=() seen=()
    for ((r = 0; r < runs; r++)); do
        # Turning which case goes first: none always runs on a warmer machine.
        order=("${cases[@]:r % ${#cases[@]}}" "${cases[@]:0:r % ${#cases[@]}}")
        for m in "${order[@]}"; do
            read -r s k c < <(one "$m" "$n")
            secs[$m]+="$s "
            rss[$m]+="$k "
            seen[$m]=$c
        done
    done
    for m in "${cases[@]}"; do
        if [[ ${secs[$m]} == *timeout* || ${secs[$m]} == *failed* ]]; then
            printf '%-9s %-9s %10s %10s %8s\n' "$n" "$m" "$(echo "${secs[$m]}" | awk '{print $1}')" - -
            continue
        fi
        s=$(echo "${secs[$m]}" | tr ' ' '\n' | grep . | median)
        k=$(echo "${rss[$m]}" | tr ' ' '\n' | grep . | median)
        ratio=-
        blk=block/${m#*/}
        if [[ $m == file/* && $models == *block* && ${secs[$blk]} != *timeout* && ${secs[$blk]} != *failed* ]]; then
            b=$(echo "${secs[$blk]}" | tr ' ' '\n' | grep . | median)
            ratio=$(awk -v f="$s" -v b="$b" 'BEGIN {printf "%.2f", f / b}')
        fi
        printf '%-9s %-9s %10s %10s %8s %6s\n' "$n" "$m" "$s" "$k" "${seen[$m]}" "$ratio"
    done
    unset secs rss seen
done
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)"

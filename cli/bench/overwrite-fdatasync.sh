#!/usr/bin/env bash
# Side-by-side benchmark: a plain C loop and flushcheck, interleaved on the same
# directory, both doing overwrite-fdatasync at 4 KiB (preallocated, synced file; every
# round rewrites one block and calls fdatasync). Prints both medians (median of the per-run
# medians), their ratio, and the time to a verdict on tmpfs, under eatmydata and on the disk.
#
# usage: cli/bench/overwrite-fdatasync.sh [-p PAIRS] [-n ROUNDS] [-v RUNS] [DISK_DIR]
#   PAIRS   alternating C/flushcheck runs (default 5), ROUNDS per run (default 1000)
#   RUNS    cold JVMs timed per verdict the facts decide, tmpfs and eatmydata (default 11; from 2 on, each
#           alternates with a run without the warm-up thread)
#   DISK_DIR  a directory on the disk (default: cli/target/bench, created)
# needs: gcc, java 17, cli/target/flushcheck.jar (mvn -q -B -pl cli -am package -DskipTests)
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ext=$(dirname "$here")
jar="$ext/target/flushcheck.jar"
pairs=5
rounds=1000
verdict_runs=11
while getopts "p:n:v:h" opt; do
    case $opt in
        p) pairs=$OPTARG ;;
        n) rounds=$OPTARG ;;
        v) verdict_runs=$OPTARG ;;
        *) bench_usage ;;
    esac
done
shift $((OPTIND - 1))
bench_whole "-p, -n and -v" "$pairs" "$rounds" "$verdict_runs"
disk=${1:-$ext/target/bench}
shm=/dev/shm

bench_need_jar "$jar"
bench_need_tool gcc gcc
mkdir -p "$disk"

work=$(mktemp -d)
trap 'rm -rf "$work"; rm -f "$disk"/.bench-loop-*.probe "$shm"/.bench-loop-*.probe' EXIT INT TERM
gcc -O2 -Wall -o "$work/sync-loop" "$here/sync-loop.c"
# The C loop: sync-loop.c's overwrite layout (N 4 KiB blocks written and fsync'd, then N rounds of pwrite of one of
# them + fdatasync), its median round (write + fdatasync) in microseconds, as flushcheck's p50Micros times a round.
c_loop() { "$work/sync-loop" "$1" overwrite 4096 $(($2 * 4096)) | awk '{print $4}'; }

# Pulls one number out of flushcheck's JSON: the first "key": <number> (evidence strings are quoted, so skipped).
json_num() { grep -m1 -oE "\"$1\": [0-9][0-9.]*" "$2" | awk '{print $2}'; }
median() { sort -g | awk '{v[NR]=$1} END {if (NR % 2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2}'; }
now_ms() { date +%s%3N; }

echo "== overwrite-fdatasync, 4 KiB, $pairs pairs x $rounds rounds, C and flushcheck alternating"
echo "   disk dir: $disk ($(df -T "$disk" | awk 'NR==2 {print $2" on "$1}'))"
: > "$work/c"; : > "$work/j"; : > "$work/r"
for ((i = 1; i <= pairs; i++)); do
    c=$(c_loop "$disk" "$rounds")
    java -jar "$jar" --json --quiet --modes overwrite-fdatasync --rounds "$rounds" "$disk" > "$work/run.json"
    j=$(json_num p50Micros "$work/run.json")
    flushes=$(json_num flushes "$work/run.json")
    printf "   pair %d: C p50 %8.1f us   flushcheck p50 %8.1f us   (flushcheck counted %s flushes)\n" "$i" "$c" "$j" "$flushes"
    echo "$c" >> "$work/c"; echo "$j" >> "$work/j"
    awk -v c="$c" -v j="$j" 'BEGIN {print j/c}' >> "$work/r"
done
cm=$(median < "$work/c"); jm=$(median < "$work/j"); rm_=$(median < "$work/r")
awk -v c="$cm" -v j="$jm" 'BEGIN {printf "   median of medians: C %.1f us, flushcheck %.1f us, flushcheck/C = %.3f (%+.1f%%)\n", c, j, j/c, (j/c-1)*100}'
awk -v r="$rm_" 'BEGIN {printf "   median of per-pair ratios flushcheck/C = %.3f (%+.1f%%; robust to load that drifts between pairs)\n", r, (r-1)*100}'

# The same loops on tmpfs, where no device is involved: what is left is each side's own overhead per round.
: > "$work/tc"; : > "$work/tj"
for ((i = 1; i <= 3; i++)); do
    c_loop "$shm" "$rounds" >> "$work/tc"
    java -jar "$jar" --json --quiet --always-probe --modes overwrite-fdatasync --rounds "$rounds" "$shm" > "$work/run.json"
    json_num p50Micros "$work/run.json" >> "$work/tj"
done
awk -v c="$(median < "$work/tc")" -v j="$(median < "$work/tj")" \
    'BEGIN {printf "   on tmpfs (no device, 3 pairs): C %.2f us, flushcheck %.2f us: flushcheck adds %.2f us per round\n", c, j, j-c}'

echo "== time to a verdict, each run a cold JVM (default check: all modes where a probe is needed, --rounds $rounds)"
echo "   elapsedMillis is the check itself, from Flushcheck.check to its verdict; wall clock adds the JVM's start"
# Where the facts decide (tmpfs, eatmydata) no probe runs, so the figures are all JVM and class loading: take
# the median of several runs, alternating with the warm-up thread turned off, which loads the check's classes
# while the arguments are parsed; that shows what it moves out of the check, and what it saves overall.
timed_verdict() { # label runs dir [wrapper...]
    local label=$1 n=$2 dir=$3; shift 3
    : > "$work/ve"; : > "$work/vw"; : > "$work/ve0"; : > "$work/vw0"
    for ((i = 1; i <= n; i++)); do
        for warm in true false; do
            [[ $warm == false && $n -eq 1 ]] && continue
            local suffix=$([[ $warm == true ]] || echo 0)
            t0=$(now_ms)
            "$@" java -Dflushcheck.warmup=$warm -jar "$jar" --json --quiet --rounds "$rounds" "$dir" > "$work/v.json"
            t1=$(now_ms)
            json_num elapsedMillis "$work/v.json" >> "$work/ve$suffix"
            echo $((t1 - t0)) >> "$work/vw$suffix"
            [[ $warm == true ]] && verdict=$(grep -m1 -o '"verdict": "[A-Z_]*"' "$work/v.json" | cut -d'"' -f4)
        done
    done
    printf "   %-22s %-14s elapsedMillis %6s   wall clock %6s ms   (%s of %d runs)\n" "$label" "$verdict" \
        "$(median < "$work/ve")" "$(median < "$work/vw")" "$([[ $n -gt 1 ]] && echo median || echo one)" "$n"
    if ((n > 1)); then
        echo "     elapsedMillis of each run, sorted: $(sort -n "$work/ve" | tr '\n' ' ')"
        printf "   %-22s %-14s elapsedMillis %6s   wall clock %6s ms   (median, -Dflushcheck.warmup=false, alternating)\n" \
            "$label" "" "$(median < "$work/ve0")" "$(median < "$work/vw0")"
    fi
}
timed_verdict "tmpfs $shm" "$verdict_runs" "$shm"
if command -v eatmydata >/dev/null; then
    timed_verdict "eatmydata, disk dir" "$verdict_runs" "$disk" eatmydata
else
    echo "   (eatmydata is not installed: no interposer case)"
fi
timed_verdict "disk dir" 1 "$disk"

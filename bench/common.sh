# Sourced by the benchmark scripts under */bench/ (not run on its own): what every one of them does alike.
# A script's usage is its leading comment block, printed from the file itself, so that it stays whole however
# the block grows; figures are printed with the load they were measured under.

bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

bench_usage() { # prints the calling script's leading comment block (after the #! line) and exits 2
    awk 'NR == 1 { next } /^#/ { print; next } { exit }' "$0"
    exit 2
}

bench_fail() { # MESSAGE...: says it on stderr as the benchmark's and exits 2
    echo "bench: $*" >&2
    exit 2
}

bench_whole() { # NAMES VALUE...: every VALUE a whole number from 1, or says so of NAMES (the options) and exits 2
    local names=$1 v
    shift
    for v in "$@"; do
        [[ $v =~ ^[1-9][0-9]*$ ]] || bench_fail "$names: whole numbers from 1, not '$v'"
    done
}

bench_need_root() { # [WHAT]: root, or says that WHAT (default: the benchmark) needs root for its mounts and exits 2
    [[ $(id -u) == 0 ]] || bench_fail "${1:+$1 }needs root (mount, losetup)"
}

bench_need_fuse() {
    [[ -e /dev/fuse ]] || bench_fail "needs /dev/fuse"
}

bench_load() { # WHEN: the load average, on stderr ("before", "after")
    echo "bench: load $1: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
}

bench_classpath() { # BUILD MODULE SCOPE NAME: builds module BUILD and what it needs (package, no tests, no install)
    # and prints MODULE's classes with its SCOPE dependencies (MODULE is BUILD or one BUILD needs): what a bench's
    # Java file runs on. Called as cp=$(bench_classpath ...), a failed build ends the script under set -e.
    echo "bench: building $1 and what it needs (package, no tests, no install)" >&2
    (cd "$bench_root" && mvn -B -q -Dstyle.color=never -pl "$1" -am package -DskipTests dependency:build-classpath \
        -Dmdep.includeScope="$3" -Dmdep.outputFile="target/$4.classpath" >/dev/null) || bench_fail "building $1 failed"
    echo "$bench_root/$2/target/classes:$(cat "$bench_root/$2/target/$4.classpath")"
}

bench_need_jar() { # JAR: the command's jar, or says how to build it and exits 2
    [[ -f $1 ]] || bench_fail "$1 is missing; run: mvn -q -B -pl cli -am package -DskipTests"
}

bench_need_tool() { # COMMAND PACKAGE: COMMAND on the PATH, or says which Debian package brings it and exits 2
    command -v "$1" >/dev/null || bench_fail "$1 is needed (apt-get install $2)"
}

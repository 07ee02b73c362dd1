#!/usr/bin/env bash
# What @RequiresRealFlush costs a suite: a separate Maven project that depends only on the
# installed flushcheck-junit runs 1,000 bare @Test methods and 1,000 annotated ones, alternately,
# and prints the medians of Surefire's own test times. The annotated suite should cost one probe,
# not 1,000. Then it runs the annotated suite with java.io.tmpdir on /dev/shm and under eatmydata,
# where every test must fail with the evidence, and checks the messages.
#
# usage: cli/bench/annotation-overhead.sh [-r RUNS] [-n TESTS] [-j JUNIT_VERSION]
# needs: mvn -B -q install -DskipTests (installs flushcheck-junit), eatmydata for the last check
set -euo pipefail

runs=3
tests=1000
junit=6.1.3
while getopts "r:n:j:h" opt; do
    case $opt in
        r) runs=$OPTARG ;;
        n) tests=$OPTARG ;;
        j) junit=$OPTARG ;;
        *) sed -n '2,10p' "$0"; exit 2 ;;
    esac
done
version=0.1.0-SNAPSHOT
[[ -f ~/.m2/repository/io/flushcheck/flushcheck-junit/$version/flushcheck-junit-$version.jar ]] || {
    echo "bench: flushcheck-junit $version is not installed; run: mvn -B -q install -DskipTests" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/src/test/java/demo"
cat > "$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId><artifactId>overhead</artifactId><version>1</version>
  <properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
  <dependencies>
    <dependency><groupId>io.flushcheck</groupId><artifactId>flushcheck-junit</artifactId><version>$version</version><scope>test</scope></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>$junit</version><scope>test</scope></dependency>
  </dependencies>
  <build><plugins><plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.14.0</version></plugin><plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin></plugins></build>
</project>
POM
gen() { # class, annotation
    { echo "package demo;"
      echo "class $1 {"
      for ((i = 0; i < tests; i++)); do
          echo "  @org.junit.jupiter.api.Test $2 void t$i() { }"
      done
      echo "}"; } > "$work/src/test/java/demo/$1.java"
}
gen PlainTest ""
gen AnnotatedTest "@io.flushcheck.jupiter.RequiresRealFlush"
(cd "$work" && mvn -B -q test-compile) || { echo "bench: the generated project does not compile" >&2; exit 1; }

suite_seconds() { # class [extra maven args...]
    local cls=$1; shift
    (cd "$work" && mvn -B -q -o surefire:test -Dtest="$cls" "$@" >/dev/null 2>&1) || true
    grep -m1 -oE 'testsuite [^>]*time="[0-9.]+"' "$work/target/surefire-reports/TEST-demo.$cls.xml" \
        | grep -oE 'time="[0-9.]+"' | tr -dc '0-9.'
}
median() { sort -g | awk '{v[NR]=$1} END {if (NR % 2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2}'; }

echo "== $tests tests, JUnit $junit, $runs alternating runs (Surefire's test time, JVM start excluded)"
plain=(); annotated=()
for ((r = 1; r <= runs; r++)); do
    p=$(suite_seconds PlainTest); a=$(suite_seconds AnnotatedTest)
    plain+=("$p"); annotated+=("$a")
    printf '   run %d: plain %7.3f s   annotated %7.3f s\n' "$r" "$p" "$a"
done
mp=$(printf '%s\n' "${plain[@]}" | median); ma=$(printf '%s\n' "${annotated[@]}" | median)
awk -v p="$mp" -v a="$ma" -v n="$tests" 'BEGIN {
    printf "   median: plain %.3f s, annotated %.3f s: +%.0f ms for the suite, %.1f us per test (ratio %.2f)\n",
           p, a, (a - p) * 1000, (a - p) * 1e6 / n, a / p }'

echo "== the annotated suite where syncs reach no device"
check() { # label expected-text [maven args / wrapper]
    local label=$1 want=$2; shift 2
    local out
    out=$(cd "$work" && "$@" 2>&1 || true)
    local failed
    failed=$(grep -m1 -oE 'Tests run: [0-9]+, Failures: [0-9]+' <<<"$out" | tail -1)
    if grep -q -- "$want" <<<"$out"; then
        echo "   $label: ok ($failed): $(grep -m1 -oE '@RequiresRealFlush: [^(]*\([^)]*\)[^(]*' <<<"$out" | head -1)"
    else
        echo "   $label: FAILED: expected '$want' in the output"; return 1
    fi
}
check "java.io.tmpdir=/dev/shm" "is on tmpfs" mvn -B -o surefire:test -Dtest=AnnotatedTest -DargLine=-Djava.io.tmpdir=/dev/shm
if command -v eatmydata >/dev/null; then
    check "eatmydata" "eatmydata is loaded in this process" eatmydata mvn -B -o surefire:test -Dtest=AnnotatedTest
else
    echo "   eatmydata: not installed (apt-get install eatmydata)"
fi

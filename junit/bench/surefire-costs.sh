#!/usr/bin/env bash
# What @RequiresRealFlush costs a Maven build, measured with a real Surefire on a generated project that
# uses this checkout's flushcheck-junit (built in the reactor, nothing installed):
#   per test: 1,000 plain @Test methods against the same 1,000 annotated, one JVM each (Surefire's own
#             suite time, so JVM start is left out), then the same in one JVM through JUnit's launcher alone;
#   per fork: CLASSES classes of one test each with reuseForks=false, one JVM per class, plain against
#             annotated at class level, every annotated fork reading the verdict that an untimed fork
#             shared just before: the whole mvn run's wall time and the sum of Surefire's suite times (the
#             part of each fork that runs the class, less noisy), divided by the classes; with -b, the
#             annotated forks of the build in BEFORE (another checkout, built there the same way) run in
#             the same rounds, so that two builds compare side by side.
# "cold" runs the same annotated forks with no shared verdict, so that the first fork probes and the rest
# read its verdict: the probe amortized over the classes, as a build from clean pays it.
# Plain and annotated runs alternate; every figure is the median of RUNS runs, with the spread (lowest to highest)
# and the load average. It then runs an annotated
# class with flushcheck.on-no-real-flush=skip and java.io.tmpdir=/dev/shm and shows what Surefire prints.
#
# usage: junit/bench/surefire-costs.sh [-r RUNS] [-n TESTS] [-c CLASSES] [-j JUNIT_VERSION] [-b BEFORE]
set -euo pipefail
. "$(dirname "$0")/../../bench/common.sh"

runs=5
tests=1000
classes=10
junit=5.14.1
before=""
while getopts "r:n:c:j:b:h" opt; do
    case $opt in
        r) runs=$OPTARG ;;
        n) tests=$OPTARG ;;
        c) classes=$OPTARG ;;
        j) junit=$OPTARG ;;
        b) before=$(cd "$OPTARG" && pwd) ;;
        *) bench_usage ;;
    esac
done
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT INT TERM; echo "   (work directory $work)"

echo "== building flushcheck-junit in $repo (mvn -pl junit -am package -DskipTests)"
(cd "$repo" && mvn -B -q -o -Dstyle.color=never -pl junit -am package -DskipTests dependency:build-classpath \
    -DincludeScope=runtime -Dmdep.outputFile="$work/cp.txt" >/dev/null) \
    || { echo "bench: the build failed" >&2; exit 1; }
jar_of() { ls "$1/$2/target/flushcheck-$2-"*[0-9T].jar; } # checkout, module
# flushcheck's own jars are properties, so that a run can swap in another build's (-b)
deps="<dependency><groupId>bench</groupId><artifactId>flushcheck-junit</artifactId><version>1</version><scope>system</scope><systemPath>\${fc.junit}</systemPath></dependency>"
deps+="<dependency><groupId>bench</groupId><artifactId>flushcheck-core</artifactId><version>1</version><scope>system</scope><systemPath>\${fc.core}</systemPath></dependency>"
IFS=: read -r -a rest < "$work/cp.txt" || true
i=0
for jar in "${rest[@]}"; do
    [[ $jar == *.jar ]] || continue # the core module, as the reactor names it: its jar is above
    i=$((i + 1))
    deps+="<dependency><groupId>bench</groupId><artifactId>dep$i</artifactId><version>1</version><scope>system</scope><systemPath>$jar</systemPath></dependency>"
done
if [[ -n $before ]]; then
    echo "== building flushcheck-junit in $before, to compare"
    (cd "$before" && mvn -B -q -o -Dstyle.color=never -pl junit -am package -DskipTests >/dev/null) \
        || { echo "bench: the build in $before failed" >&2; exit 1; }
    before_jars=(-Dfc.junit="$(jar_of "$before" junit)" -Dfc.core="$(jar_of "$before" core)")
fi

mkdir -p "$work/src/test/java/demo" "$work/src/test/resources"
cat > "$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId><artifactId>surefire-costs</artifactId><version>1</version>
  <properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <fc.junit>$(jar_of "$repo" junit)</fc.junit><fc.core>$(jar_of "$repo" core)</fc.core></properties>
  <dependencies>
    $deps
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>$junit</version><scope>test</scope></dependency>
    <dependency><groupId>org.junit.platform</groupId><artifactId>junit-platform-launcher</artifactId><scope>test</scope></dependency>
  </dependencies>
  <dependencyManagement><dependencies><dependency><groupId>org.junit</groupId><artifactId>junit-bom</artifactId><version>$junit</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.14.0</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.8.1</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
  </plugins></build>
</project>
POM
gen() { # class, annotation on the class, annotation on each method, methods
    { echo "package demo;"
      echo "$2 class $1 {"
      for ((t = 0; t < $4; t++)); do
          echo "  @org.junit.jupiter.api.Test $3 void t$t() { }"
      done
      echo "}"; } > "$work/src/test/java/demo/$1.java"
}
gen PlainTest "" "" "$tests"
gen AnnotatedTest "" "@io.flushcheck.jupiter.RequiresRealFlush" "$tests"
for ((c = 0; c < classes; c++)); do
    gen "ForkPlain${c}Test" "" "" 1
    gen "ForkAnnotated${c}Test" "@io.flushcheck.jupiter.RequiresRealFlush" "" 1
done
gen SkippedTest "@io.flushcheck.jupiter.RequiresRealFlush" "" 3
cat > "$work/src/test/java/demo/InJvm.java" <<'JAVA'
package demo;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Arrays;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/** Runs PlainTest and AnnotatedTest alternately in this one JVM; prints the first runs and the medians of the rest. */
public class InJvm {
    static double run(Launcher launcher, Class<?> c) {
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        long start = System.nanoTime();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(c)).build(), summary);
        double s = (System.nanoTime() - start) / 1e9;
        if (summary.getSummary().getTestsSucceededCount() != summary.getSummary().getTestsFoundCount()) {
            throw new AssertionError(c + ": not every test passed");
        }
        return s;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    public static void main(String[] args) {
        int runs = Integer.parseInt(args[0]);
        Launcher launcher = LauncherFactory.create();
        double firstPlain = run(launcher, PlainTest.class);
        double firstAnnotated = run(launcher, AnnotatedTest.class);
        double[] plain = new double[runs];
        double[] annotated = new double[runs];
        for (int r = 0; r < runs; r++) {
            plain[r] = run(launcher, PlainTest.class);
            annotated[r] = run(launcher, AnnotatedTest.class);
        }
        System.out.printf("   first runs (cold JVM): plain %.3f s, annotated %.3f s (the first check included): +%.3f s%n",
                firstPlain, firstAnnotated, firstAnnotated - firstPlain);
        System.out.printf("   then %d alternating runs, medians: plain %.3f s, annotated %.3f s: +%.3f s, %.1f us per annotated test%n",
                runs, median(plain), median(annotated), median(annotated) - median(plain),
                (median(annotated) - median(plain)) * 1e6 / Integer.parseInt(args[1]));
    }
}
JAVA
(cd "$work" && mvn -B -q -o -Dstyle.color=never test-compile >"$work/compile.log" 2>&1) \
    || { echo "bench: the generated project does not compile:" >&2; tail -20 "$work/compile.log" >&2; exit 1; }

suite_seconds() { # class
    (cd "$work" && mvn -B -q -o -Dstyle.color=never surefire:test -Dtest="$1" >/dev/null 2>&1) || true
    grep -m1 -oE 'testsuite [^>]*time="[0-9.]+"' "$work/target/surefire-reports/TEST-demo.$1.xml" \
        | grep -oE 'time="[0-9.]+"' | tr -dc '0-9.'
}
wall_seconds() { # test pattern, mvn options...: the run's wall time and the sum of its suites' times
    local start end pattern=$1
    shift
    rm -f "$work"/target/surefire-reports/TEST-demo.Fork*.xml
    start=$(date +%s.%N)
    (cd "$work" && mvn -B -q -o -Dstyle.color=never surefire:test -Dtest="$pattern" -DreuseForks=false -DforkCount=1 "$@" >/dev/null 2>&1) || true
    end=$(date +%s.%N)
    cat "$work"/target/surefire-reports/TEST-demo.Fork*.xml | grep -oE 'testsuite [^>]*time="[0-9.]+"' \
        | grep -oE 'time="[0-9.]+"' | tr -dc '0-9.\n' | awk -v s="$start" -v e="$end" '{ t += $1 } END { printf "%.3f %.3f\n", e - s, t }'
}
median() { sort -g | awk '{v[NR]=$1} END {if (NR % 2) print v[(NR+1)/2]; else printf "%.3f\n", (v[NR/2]+v[NR/2+1])/2}'; }
spread() { sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.3f to %.3f", lo, hi}'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "== per test: $tests tests in one JVM, JUnit $junit, $runs alternating runs (Surefire's suite time)"
plain=(); annotated=()
for ((r = 1; r <= runs; r++)); do
    p=$(suite_seconds PlainTest); a=$(suite_seconds AnnotatedTest)
    plain+=("$p"); annotated+=("$a")
    printf '   run %d: plain %7.3f s   annotated %7.3f s   (load %s)\n' "$r" "$p" "$a" "$(load)"
done
mp=$(printf '%s\n' "${plain[@]}" | median); ma=$(printf '%s\n' "${annotated[@]}" | median)
awk -v p="$mp" -v a="$ma" -v n="$tests" 'BEGIN {
    printf "   median: plain %.3f s, annotated %.3f s: +%.3f s for %d tests (target: within 0.3 s), %.1f us per test\n",
           p, a, a - p, n, (a - p) * 1e6 / n }'
echo "   spread: plain $(printf '%s\n' "${plain[@]}" | spread) s, annotated $(printf '%s\n' "${annotated[@]}" | spread) s; load average now $(load)"

echo "== per test in one JVM, JUnit's launcher alone (no Surefire): $tests tests, 1 + $runs runs each"
(cd "$work" && mvn -B -q -o -Dstyle.color=never dependency:build-classpath -Dmdep.outputFile="$work/test-cp.txt" >/dev/null 2>&1)
for shared in 0 300; do
    echo "   flushcheck.shared-verdict-seconds=$shared$([[ $shared == 0 ]] && echo ' (every JVM probes)' || echo ' (a later JVM reuses the verdict of an earlier one)')"
    (cd "$work" && java -Dflushcheck.shared-verdict-seconds=$shared -cp "target/test-classes:$(cat "$work/test-cp.txt")" demo.InJvm "$runs" "$tests" 2>/dev/null)
done

echo "== per fork: $classes classes, one test each, reuseForks=false, $runs alternating runs (wall time of mvn; sum of suite times)"
echo "   (each annotated run reads the verdict an untimed fork shared just before it: no fork of it probes)"
declare -A wall suites
kinds=(plain annotated); [[ -n $before ]] && kinds+=(before)
kinds+=(cold)
fork_run() { # kind
    case $1 in
        plain) wall_seconds 'ForkPlain*Test' ;;
        annotated) wall_seconds 'ForkAnnotated*Test' ;;
        cold) rm -rf "$work/target/flushcheck"; wall_seconds 'ForkAnnotated*Test'
              # -b's build shares its own verdict again, untimed, for its forks later in the round
              [[ -z $before ]] || wall_seconds 'ForkAnnotated0Test' "${before_jars[@]}" >/dev/null ;;
        before) wall_seconds 'ForkAnnotated*Test' "${before_jars[@]}" ;;
    esac
}
for ((r = 1; r <= runs; r++)); do
    rm -rf "$work/target/flushcheck"
    wall_seconds 'ForkAnnotated0Test' >/dev/null
    [[ -z $before ]] || wall_seconds 'ForkAnnotated0Test' "${before_jars[@]}" >/dev/null
    line="   run $r (load $(load)):"
    order=("${kinds[@]}")
    (( r % 2 == 0 )) && order=($(printf '%s\n' "${kinds[@]}" | tac))
    for k in "${order[@]}"; do
        read -r w t < <(fork_run "$k")
        wall[$k]+="$w "; suites[$k]+="$t "
        line+=$(printf '  %s %7.3f s (%6.3f s)' "$k" "$w" "$t")
    done
    echo "$line"
done
m() { printf '%s\n' $1 | median; }
for k in "${kinds[@]}"; do
    [[ $k == plain ]] && continue
    label=$(case $k in before) echo "annotated, the build in $before" ;; cold) echo "annotated, the first fork probing" ;; *) echo "annotated" ;; esac)
    awk -v p="$(m "${wall[plain]}")" -v a="$(m "${wall[$k]}")" -v ps="$(m "${suites[plain]}")" -v as="$(m "${suites[$k]}")" \
        -v n="$classes" -v l="$label" 'BEGIN {
        printf "   median, %s: wall %.3f s against plain %.3f s: +%.0f ms per fork; suites %.3f s against %.3f s: +%.0f ms per fork\n",
               l, a, p, (a - p) * 1000 / n, as, ps, (as - ps) * 1000 / n }'
done
for k in "${kinds[@]}"; do
    echo "   spread, $k: wall $(printf '%s\n' ${wall[$k]} | spread) s, suites $(printf '%s\n' ${suites[$k]} | spread) s"
done
echo "   load average now $(load)"

echo "== a skipped class as Surefire shows it (java.io.tmpdir=/dev/shm, flushcheck.on-no-real-flush=skip)"
(cd "$work" && JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=/dev/shm mvn -B -o -Dstyle.color=never surefire:test -Dtest=SkippedTest \
    -Dflushcheck.on-no-real-flush=skip 2>&1) | grep -E "Tests run:|flushcheck:|SKIPPED|skipped" | grep -v "Picked up" | sed 's/^/   /' | head -8

// The checks of an example's runs (examples/pom.xml), read from its Surefire reports. Each spring-boot-*/verify.N.groovy
// evaluates this file, which defines the closures below in the script's binding, and calls one.
import groovy.xml.XmlSlurper

// Each test class the example has, and how many tests it reports when all of them run.
expectedTests = [
        'com.example.notes.NotesVerdictTest'       : 1,
        'com.example.notes.NoteStoreDurabilityTest': 1,
        'com.example.notes.NotesPowerCutTest'      : 6,   // @RepeatedPowerCut(times = 6)
        'com.example.notes.NotesInContainersTest'  : 2,   // host, .../volume
]

check = { boolean ok, String what ->
    if (!ok) {
        throw new AssertionError(what)
    }
}

report = { File basedir, String testClass, String suffix ->
    File xml = new File(basedir, "target/surefire-reports/TEST-${testClass}${suffix ? '-' + suffix : ''}.xml")
    check(xml.isFile(), "no Surefire report ${xml}")
    new XmlSlurper().parse(xml)
}

// The run on a disk: every test of every class passed, on the JUnit and Testcontainers lines the example's Spring
// Boot parent manages. None may be skipped where flushcheck.missing-tool=fail (CI): the tools are there. With
// skip, the default, a class whose tool is missing here (root or FUSE, Docker) may be skipped, as elsewhere in
// this build; it is named.
diskRun = { File basedir, String junitLine, String testcontainersLine ->
    boolean skipsAllowed = missingTool != 'fail'
    def skippedClasses = []
    expectedTests.each { testClass, count ->
        def suite = report(basedir, testClass, null)
        def counts = "tests ${suite.@tests}, failures ${suite.@failures}, errors ${suite.@errors}, skipped ${suite.@skipped}"
        int skipped = suite.@skipped.toInteger()
        check(suite.@tests.toInteger() == count && suite.@failures.toInteger() == 0 && suite.@errors.toInteger() == 0
                && (skipped == 0 || skipsAllowed),
                "${testClass}: expected ${count} tests passed, none skipped (flushcheck.missing-tool=${missingTool}); ${counts}")
        if (skipped > 0) {
            skippedClasses << testClass
        }
        println "checks: ${testClass}: ${counts}"
    }
    if (skippedClasses) {
        println "checks: skipped in ${skippedClasses} (flushcheck.missing-tool=${missingTool}: each says what it lacks)"
    }
    if (!skippedClasses.contains('com.example.notes.NotesInContainersTest')) {
        def containers = report(basedir, 'com.example.notes.NotesInContainersTest', null).testcase.'system-err'.text()
        ['host: 1 tests, 1 succeeded', '/volume: 1 tests, 1 succeeded'].each {
            check(containers.contains(it), "NotesInContainersTest's output does not say '${it}': ${containers}")
        }
    }
    // Surefire reports the test JVM's properties once, with the first class that JVM ran.
    def classPath = expectedTests.keySet().collect { report(basedir, it, null).properties.property
            .find { it.@name == 'java.class.path' }?.@value?.toString() }.find { it } ?: ''
    def jar = { String artifact ->
        def m = classPath =~ /(?:^|[\/\\])${artifact}-(\d[^\/\\:]*)\.jar/
        check(m.find(), "${artifact} is not on the test class path: ${classPath}")
        m.group(1)
    }
    def junit = jar('junit-jupiter-api')
    def testcontainers = jar('testcontainers')
    check(junit.startsWith(junitLine), "JUnit Jupiter ${junit}, expected the ${junitLine}x the parent manages")
    check(testcontainers.startsWith(testcontainersLine),
            "Testcontainers ${testcontainers}, expected the ${testcontainersLine}x the parent manages")
    // One JUnit Platform: the launcher flushcheck-testcontainers brings at the version of the engine the parent manages.
    def engine = jar('junit-platform-engine')
    def launcher = jar('junit-platform-launcher')
    check(launcher == engine, "junit-platform-launcher ${launcher} beside junit-platform-engine ${engine}")
    println "checks: the disk run passed on JUnit Jupiter ${junit} (Platform ${engine}) and Testcontainers ${testcontainers}"
}

// The run on tmpfs: the @RequiresRealFlush test failed, with flushcheck's evidence.
tmpfsRun = { File basedir ->
    def suite = report(basedir, 'com.example.notes.NotesVerdictTest', 'tmpfs')
    def counts = "tests ${suite.@tests}, failures ${suite.@failures}, errors ${suite.@errors}, skipped ${suite.@skipped}"
    check(suite.@tests.toInteger() == 1 && suite.@failures.toInteger() == 1, "NotesVerdictTest on tmpfs: expected 1 failure; ${counts}")
    def failure = suite.testcase.failure
    def message = failure.@message.toString()
    check(failure.@type.toString() == 'io.flushcheck.jupiter.NoRealFlushError',
            "NotesVerdictTest on tmpfs failed, but not with NoRealFlushError: ${failure.@type}: ${message}")
    ['NO_REAL_FLUSH', 'tmpfs', '/dev/shm'].each {
        check(message.contains(it), "NotesVerdictTest's failure on tmpfs does not say ${it}: ${message}")
    }
    println "checks: on tmpfs, NotesVerdictTest failed as it should: ${message}"
}

// After the run on a disk (invoker.properties): Spring Boot 4.0's JUnit 6.0 and Testcontainers 2.0.
evaluate(new File(checks))
diskRun(basedir, '6.0.', '2.0.')

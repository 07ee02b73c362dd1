// After the run on a disk (invoker.properties): Spring Boot 3.5's JUnit 5.12 and Testcontainers 1.21.
evaluate(new File(checks))
diskRun(basedir, '5.12.', '1.21.')

// After the run on tmpfs (invoker.properties).
evaluate(new File(checks))
tmpfsRun(basedir)

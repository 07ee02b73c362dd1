# A settings store, as a user would write one: each value goes to a temporary file that is renamed over
# the last one, and is acknowledged (appended to ACKS, outside the disk) once the store says it is saved.
# usage: store.py DIR ACKS MODE VALUES, MODE one of
#   honest     fsync the file, rename, fsync the directory, acknowledge
#   nodirsync  fsync the file, rename, acknowledge (the rename may not be durable)
#   nosync     write, rename, acknowledge (nothing is durable)
#   carryon    as honest, but an fsync that fails is logged and the store carries on and acknowledges
#   ackfirst   append the value to a log and fsync it, acknowledge, and only then rename the value into place,
#              without a sync (a crash before the next sync undoes the last acknowledged value)
import os
import sys

directory, acks, mode, values = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
if mode == "ackfirst":
    log = os.open(os.path.join(directory, "log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    fd = os.open(directory, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
    for i in range(1, values + 1):
        os.write(log, b"value %d\n" % i)
        os.fsync(log)
        with open(acks, "a") as a:
            a.write("%d\n" % i)
        tmp = os.path.join(directory, "value.tmp")
        with open(tmp, "w") as f:
            f.write("value %d\n" % i)
        os.rename(tmp, os.path.join(directory, "value"))
    sys.exit(0)
for i in range(1, values + 1):
    tmp = os.path.join(directory, "value.tmp")
    with open(tmp, "w") as f:
        f.write("value %d\n" % i)
        f.flush()
        if mode != "nosync":
            try:
                os.fsync(f.fileno())
            except OSError as e:
                if mode != "carryon":
                    raise
                print("value %d: fsync failed (%s), carrying on" % (i, e), file=sys.stderr)
    os.rename(tmp, os.path.join(directory, "value"))
    if mode in ("honest", "carryon"):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        except OSError as e:
            if mode != "carryon":
                raise
            print("value %d: directory fsync failed (%s), carrying on" % (i, e), file=sys.stderr)
        finally:
            os.close(fd)
    with open(acks, "a") as a:
        a.write("%d\n" % i)

# The verify: what DIR holds must be at least the last value the store acknowledged in ACKS. It then
# removes ACKS, so that the next cut starts with none.
# usage: check.py DIR ACKS
import os
import sys

directory, acks = sys.argv[1], sys.argv[2]
acked = [int(line) for line in open(acks)] if os.path.exists(acks) else []
if os.path.exists(acks):
    os.remove(acks)
last = acked[-1] if acked else 0
path = os.path.join(directory, "value")
try:
    have = int(open(path).read().split()[1]) if os.path.exists(path) else 0
except (IndexError, ValueError):
    print("acknowledged value %d, found an unreadable file" % last)
    sys.exit(1)
if have < last:
    print("acknowledged value %d, found %s" % (last, have if have else "none"))
    sys.exit(1)
print("acknowledged value %d, found %d" % (last, have))

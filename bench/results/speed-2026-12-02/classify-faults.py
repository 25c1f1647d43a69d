#!/usr/bin/python3
"""Classifies a harness's page faults by the mapping they hit (README.md).

  perf record -c 1 -e page-faults -d -o pf.data mosaic generate ...
  (while it runs: cat /proc/$(pgrep -x harness | head -1)/maps > harness.maps)
  perf script -i pf.data -F comm,addr,ip,sym | python3 classify-faults.py harness.maps

The server disables address randomisation, so one server's maps name the
addresses of every child's faults; what a test mapped itself is outside
them ("mapped during a test").
"""
import bisect
import collections
import sys

maps = []
for line in open(sys.argv[1]):
    f = line.split()
    lo, hi = (int(x, 16) for x in f[0].split("-"))
    name = f[5].split("/")[-1] if len(f) > 5 else "anon"
    maps.append((lo, hi, f[1], name))
maps.sort()
starts = [m[0] for m in maps]
where, inside = collections.Counter(), collections.Counter()
for line in sys.stdin:
    f = line.split()
    if len(f) < 3 or f[0] != "harness":
        continue
    addr, sym = int(f[1], 16), f[-1]
    i = bisect.bisect_right(starts, addr) - 1
    if i >= 0 and maps[i][0] <= addr < maps[i][1]:
        where[(maps[i][3], maps[i][2])] += 1
    else:
        where[("mapped during a test", "")] += 1
        inside[sym] += 1
total = sum(where.values())
print(f"{total} faults")
for (name, perms), n in where.most_common():
    print(f"{n:9d} {100 * n / total:5.1f}%  {name} {perms}")
print("mapped during a test, by the faulting function:")
for sym, n in inside.most_common(10):
    print(f"{n:9d} {100 * n / total:5.1f}%  {sym}")

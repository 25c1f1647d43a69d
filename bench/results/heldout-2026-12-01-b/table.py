#!/usr/bin/python3
"""The README's first -> last table: per library, totals over its units of two
held-out runs (heldout.py's OUT folders, or their held.json as kept here: run-*.json).
Usage: table.py FIRST[,FIRST2...] LAST[,LAST2...]"""
import glob, json, os, sys

def records(outs):
    """{library: {unit: record}} from OUT folders or their held.json files
    (runs/*.json here); a later one's unit replaces an earlier one's."""
    by = {}
    for out in outs.split(","):
        if out.endswith(".json"):
            for lib in json.load(open(out)):
                by.setdefault(lib["name"], {}).update(lib.get("units", {}))
            continue
        for sj in glob.glob(os.path.join(out, "*", "*", "sweep.json")):
            lib = os.path.basename(os.path.dirname(os.path.dirname(sj)))
            by.setdefault(lib, {})[os.path.basename(os.path.dirname(sj))] = json.load(open(sj))
    return by

def totals(units):
    t = dict(units=len(units), written=0, compiled=0, passed=0, defect=0, robustness=0, misuse=0, exit2=0, exit3=0)
    for r in units.values():
        for k in ("written", "compiled", "passed"):
            t[k] += r.get(k) or 0
        for k, v in (r.get("failing_classes") or {}).items():
            t[k] += v
        t["exit2"] += r.get("exit") == 2
        t["exit3"] += r.get("exit") == 3
    return t

first, last = records(sys.argv[1]), records(sys.argv[2])
keys = ["units", "written", "compiled", "passed", "defect", "robustness", "misuse", "exit2", "exit3"]
print("| library | " + " | ".join(keys) + " |")
print("|---" * (len(keys) + 1) + "|")
allf, alll = {k: 0 for k in keys}, {k: 0 for k in keys}
for lib in sorted(set(first) | set(last)):
    f, l = totals(first.get(lib, {})), totals(last.get(lib, {}))
    for k in keys:
        allf[k] += f[k]
        alll[k] += l[k]
    print(f"| {lib} | " + " | ".join(f"{f[k]} → {l[k]}" for k in keys) + " |")
print("| all | " + " | ".join(f"{allf[k]} → {alll[k]}" for k in keys) + " |")

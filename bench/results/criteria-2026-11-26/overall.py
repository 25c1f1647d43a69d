#!/usr/bin/env python3
"""Seed 001's statistic over every run of this folder: per algorithm and over all, for each pair of
selections, on how many unit x criterion cells the first's A12 against the second is above 0.5,
below, or equal (bench/criteria.py's A12 over the three seeds' coverages; for exception coverage,
the number of failure modes found)."""
import json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
from criteria import CRITERIA, a12, percent  # noqa: E402

runs = {}
for name in ("dynamosa", "dynamosa-more", "mosa-ws", "mosa-ws-more"):
    runs.update(json.load(open(os.path.join(HERE, name + ".json"))))
cells = {}  # (algorithm, unit, criterion) -> selection -> [coverage per seed]
for key, r in runs.items():
    unit, algorithm, selection, _seed = key.split("|")
    if "error" in r:
        continue
    for c in CRITERIA:
        # Exception goals exist once found: their count is the measure (the
        # tables' "N found"), their percentage always 100.
        v = r["measured"].get(c, {}).get("covered") if c == "exception" else percent(r, c)
        if v is not None:
            cells.setdefault((algorithm, unit, c), {}).setdefault(selection, []).append(v)
pairs = [("smart", "branch"), ("smart", "all"), ("all", "branch")]
algorithms = sorted({k[0] for k in cells})
print("| algorithm | units | " + " | ".join(f"{a} vs {b}: better / worse / equal" for a, b in pairs) + " |")
print("|---|---|" + "---|" * len(pairs))
for algorithm in algorithms + ["all"]:
    row = []
    for a, b in pairs:
        n = [0, 0, 0]
        for (alg, _u, _c), sel in cells.items():
            if (algorithm != "all" and alg != algorithm) or a not in sel or b not in sel:
                continue
            x = a12(sel[a], sel[b])
            n[0 if x > 0.5 else 1 if x < 0.5 else 2] += 1
        row.append(" / ".join(map(str, n)))
    units = len({u for (alg, u, _c) in cells if algorithm in ("all", alg)})
    print(f"| {algorithm} | {units} | " + " | ".join(row) + " |")

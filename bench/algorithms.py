#!/usr/bin/env python3
"""Search algorithms compared at equal budget: DynaMOSA, MOSA, whole-suite,
MIO and random, on the search fixtures and on cJSON.c, over several seeds.

Coverage is llvm-cov's branch coverage of the unit by the generated suite
(mosaic generate builds it with clang source-based coverage and runs it), not
mosaic's own counters. Not part of CI: run it by hand (`make bench-algorithms`)
after `make build` and, for cJSON, after the subject was fetched
(`ctest --test-dir build -R subject.cjson.fetch`).

Writes OUT/results.json (every run) and OUT/results.md (one table).
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALGORITHMS = ["dynamosa", "mosa", "ws", "mio", "random"]


def units(build):
    search_db = os.path.join(build, "tests/fixtures/search-db")
    fixtures = os.path.join(ROOT, "tests/fixtures/search")
    cjson = os.path.join(build, "subjects/cjson")
    return {
        "hard.c": (search_db, os.path.join(fixtures, "hard.c")),
        "door.cpp": (search_db, os.path.join(fixtures, "door.cpp")),
        "cJSON.c": (os.path.join(cjson, "build"), os.path.join(cjson, "src/cJSON.c")),
    }


def run_one(mosaic, db, unit, algorithm, seed, budget, executions, out):
    """One generate run; a run whose statistics exist already is read back (resumable)."""
    os.makedirs(out, exist_ok=True)
    stats = os.path.join(out, "stats.json")
    if not os.path.exists(stats):
        cmd = [mosaic, "generate", "-p", db, unit, "-o", os.path.join(out, "suite"), "--algorithm", algorithm,
               "--seed", str(seed), "--budget", f"{budget}s", "--json", stats, "--no-progress"]
        if executions:
            cmd += ["--max-executions", str(executions)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        with open(os.path.join(out, "log.txt"), "w") as f:
            f.write(" ".join(cmd) + "\n" + r.stdout + r.stderr)
        if r.returncode not in (0, 1) or not os.path.exists(stats):
            return {"error": f"exit {r.returncode}", "algorithm": algorithm, "seed": seed}
    with open(stats) as f:
        j = json.load(f)
    cov = j.get("llvm_cov", {})
    return {
        "algorithm": algorithm, "seed": seed, "executions": j["executions"],
        "executions_per_second": j["executions_per_second"],
        "own_branches": j["goals"]["branch"]["covered"], "own_branches_total": j["goals"]["branch"]["total"],
        "branches": cov.get("branches_covered"), "branches_total": cov.get("branches"),
        "lines": cov.get("lines_covered"), "lines_total": cov.get("lines"),
        "written": j["tests"]["written"], "passed": j["tests"]["passed"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--units", default="hard.c,door.cpp,cJSON.c")
    ap.add_argument("--algorithms", default=",".join(ALGORITHMS))
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--budget", type=float, default=20, help="search seconds per run (fixtures get a quarter)")
    ap.add_argument("--executions", type=int, default=0,
                    help="cJSON: stop at this many executions instead (the budget then only caps the time): "
                         "equal work even when the machine is shared")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/results", "algorithms-" + datetime.date.today().isoformat()))
    a = ap.parse_args()
    mosaic = os.path.join(a.build, "tools/mosaic")
    known = units(a.build)
    results = {}
    for name in a.units.split(","):
        db, unit = known[name]
        if not os.path.exists(unit):
            print(f"skipped {name}: {unit} does not exist (fetch the subject first)", file=sys.stderr)
            continue
        budget = a.budget if name == "cJSON.c" else max(1.0, a.budget / 4)
        executions = a.executions if name == "cJSON.c" else 0
        for algorithm in a.algorithms.split(","):
            for seed in (int(s) for s in a.seeds.split(",")):
                out = os.path.join(a.out, name, algorithm, str(seed))
                r = run_one(mosaic, db, unit, algorithm, seed, budget, executions, out)
                r["budget"] = f"{executions} executions" if executions else f"{budget:.0f} s"
                results.setdefault(name, []).append(r)
                print(f"{name:9} {algorithm:9} seed {seed}: llvm-cov branches {r.get('branches')}/{r.get('branches_total')}"
                      f", {r.get('executions')} executions", flush=True)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    lines = ["| unit | budget | algorithm | llvm-cov branch % mean (min-max) | own branch goals mean | executions/s mean | tests passed mean |",
             "|---|---|---|---|---|---|---|"]
    for name, runs in results.items():
        for algorithm in a.algorithms.split(","):
            mine = [r for r in runs if r["algorithm"] == algorithm and r.get("branches") is not None]
            if not mine:
                lines.append(f"| {name} | | {algorithm} | no result | | | |")
                continue
            pct = [100.0 * r["branches"] / r["branches_total"] for r in mine]
            lines.append(
                f"| {name} | {mine[0]['budget']} | {algorithm} | {statistics.mean(pct):.1f} ({min(pct):.1f}-{max(pct):.1f})"
                f" | {statistics.mean(r['own_branches'] for r in mine):.1f} / {mine[0]['own_branches_total']}"
                f" | {statistics.mean(r['executions_per_second'] for r in mine):.0f}"
                f" | {statistics.mean(r['passed'] for r in mine):.1f} |")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write(f"Seeds {a.seeds}; llvm-cov branch coverage of the unit by the generated suite.\n\n" + table)
    print(table)


if __name__ == "__main__":
    main()

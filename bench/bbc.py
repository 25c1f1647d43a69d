#!/usr/bin/env python3
"""Seed 003's BBC experiment for unit test generation on C and C++ units:
branch coverage of DynaMOSA's suites with `--secondary length` (off) and
`--secondary bbc` (on), over seeds, on units where failures are frequent.

Each run is `mosaic generate` with verification: its coverage is llvm-cov's
(clang source-based coverage of the written suite, independent of mosaic's
instrumentation), with mosaic's own branch counter beside it. Per unit the
two conditions are compared with the exact Mann-Whitney U test and the
Vargha-Delaney A12 (bench/criteria.py's), and the mean difference in points
is the seed's +1.6 to compare with.

Units are SUBJECT:PATH, PATH relative to the subject's source in CACHE
(bench/run's cache). Not part of CI: run by hand. Resumable: a run whose
statistics exist is read back. Writes OUT/results.json and OUT/results.md.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib.generate import branch_coverage, condition_jobs, generate_once, run_all, save_results  # noqa: E402
from criteria import a12, mann_whitney_p  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONDITIONS = ["length", "bbc"]


def run_one(mosaic, db, unit, secondary, seed, budget, out, work):
    j, error = generate_once(mosaic, db, unit, seed, budget, out, work, ["--secondary", secondary])
    if error:
        return {"error": error}
    llvm, own = branch_coverage(j)
    return {"llvm_branch": llvm, "own_branch": own, "failures": len(j.get("failures", [])),
            "executions": j["executions"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mosaic", default=os.path.join(ROOT, "build/tools/mosaic"))
    ap.add_argument("--cache", default=os.path.join(ROOT, "build/bench-cache"))
    ap.add_argument("--units", required=True, help="SUBJECT:PATH,...")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--budget", type=float, default=60)
    ap.add_argument("-j", type=int, default=1, help="runs at once")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    results = run_all(run_one, condition_jobs(a, CONDITIONS), a.j)
    save_results(a.out, results)
    write_table(a, results)


def write_table(a, results):
    seeds = a.seeds.split(",")
    lines = [f"# BBC on/off: DynaMOSA, {a.budget:.0f} s, seeds {a.seeds}", "",
             "Branch coverage (llvm-cov, %) of the verified suite; mosaic's own branch counter in brackets; "
             "failures met during the search (mean). A12 > 0.5: BBC higher.", "",
             "| unit | length | bbc | difference | A12 | p | failures length / bbc |", "|---|---|---|---|---|---|---|"]
    diffs = []
    for spec in a.units.split(","):
        cols = {}
        for c in CONDITIONS:
            runs = [results.get(f"{spec}|{c}|{s}", {}) for s in seeds]
            cols[c] = runs
        xs = [r["llvm_branch"] for r in cols["bbc"] if r.get("llvm_branch") is not None]
        ys = [r["llvm_branch"] for r in cols["length"] if r.get("llvm_branch") is not None]
        if not xs or not ys:
            lines.append(f"| {spec} | (missing runs) | | | | | |")
            continue
        own = {c: [r["own_branch"] for r in cols[c] if r.get("own_branch") is not None] for c in CONDITIONS}
        fails = {c: [r["failures"] for r in cols[c] if "failures" in r] for c in CONDITIONS}
        mean = lambda v: sum(v) / len(v) if v else float("nan")  # noqa: E731
        d = mean(xs) - mean(ys)
        diffs.append(d)
        lines.append(f"| {spec} | {mean(ys):.1f} [{mean(own['length']):.1f}] | {mean(xs):.1f} [{mean(own['bbc']):.1f}] | "
                     f"{d:+.1f} | {a12(xs, ys):.2f} | {mann_whitney_p(xs, ys):.2f} | "
                     f"{mean(fails['length']):.0f} / {mean(fails['bbc']):.0f} |")
    if diffs:
        lines += ["", f"Mean difference over {len(diffs)} units: {sum(diffs) / len(diffs):+.2f} points "
                      f"(seed 003: +1.6 on Java classes)."]
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

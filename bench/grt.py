#!/usr/bin/env python3
"""Seed 002's comparison for C and C++ units (issue 24): GRT (every
component on) against plain feedback-directed random testing (GRT with
every component off) and DynaMOSA, and the ablation (each component off in
turn), over seeds: llvm-cov's branch coverage of the verified suite,
mosaic's own branch counter, executions, and the likely defects found
(class (a) of the failing suite: "defect").

Each run is `mosaic generate` with verification. Units are SUBJECT:PATH,
PATH relative to the subject's source in CACHE (bench/run's cache). Not
part of CI: run by hand. Resumable: a run whose statistics exist is read
back. Writes OUT/results.json and OUT/results.md.

  bench/grt.py --units cjson:cJSON.c,expat:expat/lib/xmlparse.c --out bench/results/grt-DATE -j 2
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib.generate import branch_coverage, condition_jobs, generate_once, run_all, save_results  # noqa: E402
from criteria import a12, mann_whitney_p  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMPONENTS = ["constant-mining", "impurity", "elephant-brain", "detective", "orienteering", "bloodhound"]
# Condition -> generate's options.
CONDITIONS = {"dynamosa": ["--algorithm", "dynamosa"],
              "plain": ["--algorithm", "grt", "--grt-components", "none"],
              "grt": ["--algorithm", "grt", "--grt-components", "all"],
              # DynaMOSA with GRT's constant mining (TF-IDF weights of the literals).
              "dynamosa+mining": ["--algorithm", "dynamosa", "--search-components", "constant-mining"],
              # DynaMOSA whose random tests and insertions call what GRT's bloodhound chooses.
              "dynamosa+bloodhound": ["--algorithm", "dynamosa", "--search-components", "bloodhound"]}
for _c in COMPONENTS:
    CONDITIONS[f"-{_c}"] = ["--algorithm", "grt", "--grt-components", ",".join(x for x in COMPONENTS if x != _c)]


def run_one(mosaic, db, unit, condition, seed, budget, out, work):
    j, error = generate_once(mosaic, db, unit, seed, budget, out, work, CONDITIONS[condition])
    if error:
        return {"error": error}
    llvm, own = branch_coverage(j)
    return {"llvm_branch": llvm, "own_branch": own, "executions": j["executions"],
            "defects": j.get("failing_classes", {}).get("defect", 0)}


def write_table(a, conditions, results):
    seeds = a.seeds.split(",")
    mean = lambda v: sum(v) / len(v) if v else float("nan")  # noqa: E731
    lines = [f"# GRT (seed 002): {a.budget:.0f} s a run, seeds {a.seeds}", "",
             "Branch coverage (llvm-cov, %) of the verified suite, mean over seeds; mosaic's own branch counter "
             "in brackets; likely defects (failing tests of class (a)) summed over seeds. A12 and p: grt against "
             "each other condition over all units' runs.", "",
             "| unit | " + " | ".join(conditions) + " |", "|---|" + "---|" * len(conditions)]
    pooled = {c: [] for c in conditions}
    for spec in a.units.split(","):
        cells = []
        for c in conditions:
            runs = [results.get(f"{spec}|{c}|{s}", {}) for s in seeds]
            cov = [r["llvm_branch"] for r in runs if r.get("llvm_branch") is not None]
            own = [r["own_branch"] for r in runs if r.get("own_branch") is not None]
            defects = sum(r.get("defects", 0) for r in runs)
            pooled[c] += cov
            cells.append(f"{mean(cov):.1f} [{mean(own):.1f}] {defects}d" if cov else "-")
        lines.append(f"| {spec} | " + " | ".join(cells) + " |")
    if "grt" in conditions:
        lines += ["", "| grt against | A12 | p |", "|---|---|---|"]
        for c in conditions:
            if c != "grt" and pooled[c] and pooled["grt"]:
                lines.append(f"| {c} | {a12(pooled['grt'], pooled[c]):.2f} | "
                             f"{mann_whitney_p(pooled['grt'], pooled[c]):.3f} |")
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mosaic", default=os.path.join(ROOT, "build/tools/mosaic"))
    ap.add_argument("--cache", default=os.path.join(ROOT, "build/bench-cache"))
    ap.add_argument("--units", required=True, help="SUBJECT:PATH,...")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--budget", type=float, default=60)
    ap.add_argument("-j", type=int, default=1, help="runs at once")
    ap.add_argument("--out", required=True)
    ap.add_argument("--conditions", default=",".join(CONDITIONS), help="of " + ", ".join(CONDITIONS))
    a = ap.parse_args()
    conditions = [c for c in a.conditions.split(",") if c in CONDITIONS]
    results = run_all(run_one, condition_jobs(a, conditions), a.j)
    save_results(a.out, results)
    write_table(a, conditions, results)


if __name__ == "__main__":
    main()

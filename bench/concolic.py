#!/usr/bin/env python3
"""Seed 004's comparison for C and C++ units (issue 22): branch coverage of
DynaMOSA alone (off), with concolic execution choosing branches in the
order found (fifo), and with TARDIS's learned selection (knn), over seeds,
with the concolic side's own counters: path conditions collected, solver
queries and their answers (sat, unsat, unknown), tests from models that
covered a goal first, and the share of executions run in the symbolic
harness. KNN's claim is fewer queries wasted on infeasible conditions than
FIFO's (unsat per query).

Each run is `mosaic generate` with verification: coverage is llvm-cov's
(clang source-based coverage of the written suite), mosaic's own branch
counter beside it. Units are SUBJECT:PATH, PATH relative to the subject's
source in CACHE. Not part of CI: run by hand. Resumable: a run whose
statistics exist is read back. Writes OUT/results.json and OUT/results.md.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib.generate import branch_coverage, condition_jobs, generate_once, run_all, save_results  # noqa: E402
from criteria import a12, mann_whitney_p  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONDITIONS = ["off", "fifo", "knn"]


def run_one(mosaic, db, unit, condition, seed, budget, out, work):
    extra = [] if condition == "off" else ["--concolic", "--concolic-selection", condition]
    j, error = generate_once(mosaic, db, unit, seed, budget, out, work, extra)
    if error:
        return {"error": error}
    llvm, own = branch_coverage(j)
    return {"llvm_branch": llvm, "own_branch": own, "executions": j["executions"], "concolic": j.get("concolic", {})}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mosaic", default=os.path.join(ROOT, "build/tools/mosaic"))
    ap.add_argument("--cache", default=os.path.join(ROOT, "build/bench-cache"))
    ap.add_argument("--units", required=True, help="SUBJECT:PATH,...")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--budget", type=float, default=60)
    ap.add_argument("-j", type=int, default=1, help="runs at once")
    ap.add_argument("--out", required=True)
    ap.add_argument("--conditions", default=",".join(CONDITIONS), help="of off,fifo,knn: the ones to run")
    a = ap.parse_args()
    conditions = [c for c in a.conditions.split(",") if c in CONDITIONS]
    results = run_all(run_one, condition_jobs(a, conditions), a.j)
    save_results(a.out, results)
    write_table(a, results)


def write_table(a, results):
    seeds = a.seeds.split(",")
    mean = lambda v: sum(v) / len(v) if v else float("nan")  # noqa: E731
    lines = [f"# Concolic execution: DynaMOSA alone, + concolic (FIFO), + concolic (KNN); {a.budget:.0f} s, "
             f"seeds {a.seeds}", "",
             "Branch coverage (llvm-cov, %) of the verified suite, mean over seeds; mosaic's own branch counter "
             "in brackets. A12 and p: knn against off.", "",
             "| unit | off | fifo | knn | A12 | p |", "|---|---|---|---|---|---|"]
    counters = ["| unit | selection | path conditions | queries | sat | unsat | unknown | unsat/query | "
                "tests from models | new goals (stuck) | final share | symbolic share of executions |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for spec in a.units.split(","):
        cols = {c: [results.get(f"{spec}|{c}|{s}", {}) for s in seeds] for c in CONDITIONS}
        cov = {c: [r["llvm_branch"] for r in cols[c] if r.get("llvm_branch") is not None] for c in CONDITIONS}
        own = {c: [r["own_branch"] for r in cols[c] if r.get("own_branch") is not None] for c in CONDITIONS}
        if not any(cov.values()):
            lines.append(f"| {spec} | (missing runs) | | | | |")
            continue
        cell = lambda c: f"{mean(cov[c]):.1f} [{mean(own[c]):.1f}]" if cov[c] else "-"  # noqa: E731
        versus = (f"{a12(cov['knn'], cov['off']):.2f} | {mann_whitney_p(cov['knn'], cov['off']):.2f}"
                  if cov["knn"] and cov["off"] else "- | -")
        lines.append(f"| {spec} | {cell('off')} | {cell('fifo')} | {cell('knn')} | {versus} |")
        for c in ("fifo", "knn"):
            cs = [r["concolic"] for r in cols[c] if r.get("concolic", {}).get("on")]
            if not cols[c][0]:
                continue
            if not cs:
                counters.append(f"| {spec} | {c} | (off: {cols[c][0].get('concolic', {}).get('why', '?')}) |" + " |" * 9)
                continue
            m = lambda k: mean([x[k] for x in cs])  # noqa: E731
            share = mean([x["symbolic_runs"] / max(1, x["symbolic_runs"] + x["executions"]) for x in cs])
            counters.append(f"| {spec} | {c} | {m('path_conditions'):.0f} | {m('queries'):.0f} | {m('sat'):.0f} | "
                            f"{m('unsat'):.0f} | {m('unknown'):.0f} | {m('unsat') / max(1, m('queries')):.2f} | "
                            f"{m('tests_from_models'):.0f} | {m('new_goals'):.0f} ({mean([x.get('stuck_goals', 0) for x in cs]):.0f}) | "
                            f"{m('share'):.2f} | {100 * share:.2f}% |")
    lines += ["", "The concolic side's counters (means over seeds):", ""] + counters
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Seed 001's experiment on C and C++ units: the coverage of each of the
eight criteria by suites generated with branch-only, all-goals and smart
selection, for DynaMOSA, MOSA and whole-suite, over seeds.

Every run is `mosaic generate --measure-criteria`: after the search and its
stages, the suite's tests run once more against every goal of the eight
criteria, whatever the run's --criteria was (mosaic's own counters: there is
no independent measure of weak mutation or output goals; `mosaic mutate`
gives the independent mutation score, bench/mutation.py). Selections are
compared per unit, criterion and algorithm with the Mann-Whitney U test
(exact, two-sided) and the Vargha-Delaney A12, as the seed does; with three
seeds an exact two-sided p is at least 0.1, so the A12 effect size carries
the comparison and the seeds' counts are reported as they are.

Units are SUBJECT:PATH, PATH relative to the subject's source in CACHE
(bench/run's cache: CACHE/SUBJECT/{src,build}). Not part of CI: run by hand.
Resumable: a run whose statistics exist is read back.
Writes OUT/results.json (every run) and OUT/results.md (the tables).
"""
import argparse
import concurrent.futures
import itertools
import json
import os
import subprocess

from benchlib.generate import units_of

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SELECTIONS = {"branch": ["--criteria", "branch"], "all": ["--criteria", "all"], "smart": ["--criteria", "smart"]}
CRITERIA = ["branch", "direct-branch", "line", "wm", "top-level", "no-exception", "exception", "output"]


def a12(xs, ys):
    """Vargha-Delaney A12: the probability that a value of xs exceeds one of ys (ties count half)."""
    wins = sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in xs for y in ys)
    return wins / (len(xs) * len(ys))


def mann_whitney_p(xs, ys):
    """Exact two-sided p of the Mann-Whitney U test: every split of the pooled values into groups of
    len(xs) and len(ys) equally likely (ties by midranks); small samples only."""
    pooled = xs + ys
    order = sorted(range(len(pooled)), key=lambda i: pooled[i])
    ranks = [0.0] * len(pooled)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and pooled[order[j + 1]] == pooled[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    m = len(xs)
    expected = m * (len(pooled) + 1) / 2.0
    observed = abs(sum(ranks[:m]) - expected)
    splits = list(itertools.combinations(range(len(pooled)), m))
    extreme = sum(1 for s in splits if abs(sum(ranks[k] for k in s) - expected) >= observed - 1e-9)
    return extreme / len(splits)


def run_one(mosaic, db, unit, selection, algorithm, seed, budget, out, work):
    os.makedirs(out, exist_ok=True)
    stats = os.path.join(out, "stats.json")
    if not os.path.exists(stats):
        cmd = [mosaic, "generate", "-p", db, unit, "-o", os.path.join(out, "suite"), "--algorithm", algorithm,
               "--seed", str(seed), "--budget", f"{budget}s", "--json", stats, "--no-progress", "--no-verify",
               "--measure-criteria", "--work-dir", work] + SELECTIONS[selection]
        r = subprocess.run(cmd, capture_output=True, text=True)
        with open(os.path.join(out, "log.txt"), "w") as f:
            f.write(" ".join(cmd) + "\n" + r.stdout + r.stderr)
        if r.returncode not in (0, 1) or not os.path.exists(stats):
            return {"error": f"exit {r.returncode}"}
    with open(stats) as f:
        j = json.load(f)
    return {"executions": j["executions"], "measured": j.get("measured_criteria", {}),
            "tests": len(j.get("suite", [])) or j["tests"]["kept"]}


def percent(run, criterion):
    m = run["measured"].get(criterion)
    if not m:
        return None
    return 100.0 * m["covered"] / m["total"] if m["total"] else 100.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mosaic", default=os.path.join(ROOT, "build/tools/mosaic"))
    ap.add_argument("--cache", default=os.path.join(ROOT, "build/bench-cache"))
    ap.add_argument("--units", required=True, help="SUBJECT:PATH,... (PATH relative to the subject's source)")
    ap.add_argument("--selections", default="branch,all,smart")
    ap.add_argument("--algorithms", default="dynamosa,mosa,ws")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--budget", type=float, default=60)
    ap.add_argument("-j", type=int, default=1, help="runs at once")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    jobs = []
    # Algorithm by algorithm (DynaMOSA's table is complete first), the
    # selections of a unit and seed one after another (a shared machine's
    # changing load falls on them alike).
    for algorithm in a.algorithms.split(","):
        for spec, subject, path, db, unit in units_of(a):
            for seed in (int(s) for s in a.seeds.split(",")):
                for selection in a.selections.split(","):
                    out = os.path.join(a.out, "runs", subject, os.path.basename(path), algorithm, selection, str(seed))
                    # One work folder a unit: its harness (the same for every
                    # selection: --measure-criteria probes the mutants) is built once.
                    work = os.path.join(a.out, "work", subject)
                    jobs.append(((spec, algorithm, selection, seed), (a.mosaic, db, unit, selection, algorithm, seed,
                                                                      a.budget, out, work)))
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as pool:
        futures = {pool.submit(run_one, *args): key for key, args in jobs}
        for f in concurrent.futures.as_completed(futures):
            key = futures[f]
            results["|".join(map(str, key))] = r = f.result()
            print(f"{key}: {r.get('error') or ', '.join(f'{c} {percent(r, c) or 0:.1f}' for c in CRITERIA)}",
                  flush=True)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    write_tables(a, results)


def write_tables(a, results):
    selections, algorithms = a.selections.split(","), a.algorithms.split(",")
    seeds = [int(s) for s in a.seeds.split(",")]
    units = a.units.split(",")
    lines = [f"Budget {a.budget:.0f} s a run, seeds {a.seeds}; each cell: the mean coverage (%) of the criterion's "
             "goals by the suite (`--measure-criteria`), over the seeds.", ""]
    wins = {}  # (selection pair) -> [better, worse, equal] over unit x criterion x algorithm
    for algorithm in algorithms:
        lines += [f"### {algorithm}", "",
                  "| unit | selection | tests | " + " | ".join(CRITERIA) + " |",
                  "|---|---|---|" + "---|" * len(CRITERIA)]
        for spec in units:
            runs = {s: [results.get(f"{spec}|{algorithm}|{s}|{seed}") for seed in seeds] for s in selections}
            for s in selections:
                ok = [r for r in runs[s] if r and "error" not in r]
                if not ok:
                    lines.append(f"| {spec} | {s} | no result |" + " |" * len(CRITERIA))
                    continue
                cells = []
                for c in CRITERIA:
                    vals = [percent(r, c) for r in ok if percent(r, c) is not None]
                    if c == "exception":  # goals exist once found: report how many kinds
                        vals = [r["measured"].get(c, {}).get("covered", 0) for r in ok]
                        cells.append(f"{sum(vals) / len(vals):.1f} found")
                    else:
                        cells.append(f"{sum(vals) / len(vals):.1f}" if vals else "-")
                lines.append(f"| {spec} | {s} | {sum(r['tests'] for r in ok) / len(ok):.0f} | " + " | ".join(cells) + " |")
            for x, y in itertools.combinations(selections, 2):
                for c in CRITERIA:
                    key = "exception" if c == "exception" else None
                    xs = [(r["measured"].get(c, {}).get("covered", 0) if key else percent(r, c)) for r in runs[x]
                          if r and "error" not in r]
                    ys = [(r["measured"].get(c, {}).get("covered", 0) if key else percent(r, c)) for r in runs[y]
                          if r and "error" not in r]
                    xs, ys = [v for v in xs if v is not None], [v for v in ys if v is not None]
                    if not xs or not ys:
                        continue
                    e = a12(xs, ys)
                    w = wins.setdefault((x, y), [0, 0, 0, 0])
                    w[0 if e > 0.5 else 1 if e < 0.5 else 2] += 1
                    w[3] += mann_whitney_p(xs, ys) <= 0.1 and e != 0.5
        lines.append("")
    lines += ["### Selections compared", "",
              "Over every unit, criterion and algorithm: how often the first selection's A12 against the second "
              "is above 0.5 (better), below (worse) or 0.5 (equal), and how often the exact two-sided "
              "Mann-Whitney p reaches its floor for these seeds (0.1 with three a side).", "",
              "| first vs second | better | worse | equal | p at its floor |", "|---|---|---|---|---|"]
    for (x, y), w in wins.items():
        lines.append(f"| {x} vs {y} | {w[0]} | {w[1]} | {w[2]} | {w[3]} |")
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

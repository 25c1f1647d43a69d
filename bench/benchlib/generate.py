"""`mosaic generate` runs of the by-hand experiments (bench/bbc.py,
bench/concolic.py, bench/grt.py): one run into its folder, read back when it already
ran, and a pool that runs many side by side."""
import concurrent.futures
import json
import os
import subprocess
import sys


def generate_once(mosaic, db, unit, seed, budget, out, work, extra=()):
    """OUT/stats.json of `mosaic generate` on UNIT (run now unless it
    exists; the command and its output in OUT/log.txt): (statistics, None),
    or (None, "exit N") when it did not finish with 0 or 1."""
    os.makedirs(out, exist_ok=True)
    stats = os.path.join(out, "stats.json")
    if not os.path.exists(stats):
        cmd = [mosaic, "generate", "-p", db, unit, "-o", os.path.join(out, "suite"), "--seed", str(seed),
               "--budget", f"{budget}s", "--json", stats, "--no-progress", "--work-dir", work, *extra]
        r = subprocess.run(cmd, capture_output=True, text=True)
        with open(os.path.join(out, "log.txt"), "w") as f:
            f.write(" ".join(cmd) + "\n" + r.stdout + r.stderr)
        if r.returncode not in (0, 1) or not os.path.exists(stats):
            return None, f"exit {r.returncode}"
    with open(stats) as f:
        return json.load(f), None


def branch_coverage(stats):
    """(llvm-cov's branch coverage of the verified suite, mosaic's own
    branch counter), in percent; None where not measured."""
    cov = stats.get("llvm_cov") or {}
    own = stats.get("goals", {}).get("branch", {})
    return (100.0 * cov["branches_covered"] / cov["branches"] if cov.get("branches") else None,
            100.0 * own["covered"] / own["total"] if own.get("total") else None)


def run_all(run, jobs, workers):
    """run(*args) for each (key, args) of JOBS, WORKERS at a time; each
    result printed as it comes; {"|".join(key): result}."""
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(run, *args): key for key, args in jobs}
        for f in concurrent.futures.as_completed(futures):
            key = futures[f]
            results["|".join(map(str, key))] = r = f.result()
            print(f"{key}: {r}", flush=True)
    return results


def units_of(a):
    """(spec, subject, path, db, unit) for each SUBJECT:PATH of a.units, PATH
    in the subject's source under a.cache; a missing one skipped with a
    line."""
    for spec in a.units.split(","):
        subject, path = spec.split(":", 1)
        db, unit = os.path.join(a.cache, subject, "build"), os.path.join(a.cache, subject, "src", path)
        if not os.path.exists(unit):
            print(f"skipped {spec}: {unit} does not exist", file=sys.stderr)
            continue
        yield spec, subject, path, db, unit


def condition_jobs(a, conditions):
    """Jobs for run_all: every unit of a.units (SUBJECT:PATH, PATH in the
    subject's source under a.cache; a missing one skipped with a line) ×
    seed of a.seeds × condition, the conditions of a unit and seed side by
    side (a shared machine's load falls on them alike). Key (spec,
    condition, seed); args (mosaic, db, unit, condition, seed, budget,
    out, work), one work folder a subject."""
    jobs = []
    for spec, subject, path, db, unit in units_of(a):
        for seed in (int(s) for s in a.seeds.split(",")):
            for c in conditions:
                out = os.path.join(a.out, "runs", subject, os.path.basename(path), c, str(seed))
                jobs.append(((spec, c, seed), (a.mosaic, db, unit, c, seed, a.budget, out,
                                               os.path.join(a.out, "work", subject))))
    return jobs


def save_results(out, results):
    """OUT/results.json."""
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(results, f, indent=2)

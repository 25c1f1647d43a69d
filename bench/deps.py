#!/usr/bin/env python3
"""Before and after a change of the LLVM pass's description (the control
dependences it writes): branch coverage of DynaMOSA's suites on the same
units, seeds and number of tests, with two builds of mosaic run one after
the other (`--label before` with the old build, `--label after` with the
new one; the pass is compiled into the build, so the two cannot run side
by side). With `--max-executions` a seed's run does not depend on the
machine's load, so the two labels compare the change alone.

Each run is `mosaic generate --max-executions N` with verification: its
coverage is llvm-cov's (clang source-based coverage of the written suite),
with mosaic's own branch counter beside it. Units are SUBJECT:PATH, PATH
relative to the subject's source in CACHE (fetched and built as bench/run
does). Not part of CI: run by hand. Resumable: a run whose statistics exist
is read back. Writes OUT/results-LABEL.json and OUT/results.md (every label
found under OUT).

  bench/deps.py --mosaic OLD --label before --units tinyxml2:tinyxml2.cpp --out OUT
  bench/deps.py --mosaic NEW --label after  --units tinyxml2:tinyxml2.cpp --out OUT
"""
import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import build as builds  # noqa: E402
from benchlib.generate import branch_coverage, generate_once, run_all  # noqa: E402
from benchlib.subjects import SUBJECTS  # noqa: E402
from criteria import a12  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_one(mosaic, db, unit, executions, seed, out, work):
    j, error = generate_once(mosaic, db, unit, seed, 3600, out, work, ["--max-executions", str(executions)])
    if error:
        return {"error": error}
    llvm, own = branch_coverage(j)
    return {"llvm_branch": llvm, "own_branch": own, "executions": j["executions"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mosaic", default=os.path.join(ROOT, "build/tools/mosaic"))
    ap.add_argument("--cache", default=os.path.join(ROOT, "build/bench-cache"))
    ap.add_argument("--label", required=True, help="before or after (any name: a column of the table)")
    ap.add_argument("--units", required=True, help="SUBJECT:PATH,...")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--executions", type=int, default=20000)
    ap.add_argument("-j", type=int, default=2, help="runs at once")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    a.out = os.path.abspath(a.out)
    jobs = []
    for spec in a.units.split(","):
        subject, path = spec.split(":", 1)
        root = os.path.join(os.path.abspath(a.cache), subject)
        builds.fetch(SUBJECTS[subject], root)
        db = builds.build(SUBJECTS[subject], root)
        for seed in (int(s) for s in a.seeds.split(",")):
            out = os.path.join(a.out, "runs", subject, os.path.basename(path), a.label, str(seed))
            work = os.path.join(a.out, "work", a.label, subject)
            jobs.append(((spec, a.label, seed), (a.mosaic, db, os.path.join(root, "src", path), a.executions, seed,
                                                 out, work)))
    results = run_all(run_one, jobs, a.j)
    with open(os.path.join(a.out, f"results-{a.label}.json"), "w") as f:
        json.dump(results, f, indent=2)
    write_table(a)


def write_table(a):
    results = {}
    for path in sorted(glob.glob(os.path.join(a.out, "results-*.json"))):
        with open(path) as f:
            results.update(json.load(f))
    labels = sorted({k.split("|")[1] for k in results}, key=lambda l: (l != "before", l))
    specs = sorted({k.split("|")[0] for k in results})
    mean = lambda v: sum(v) / len(v) if v else float("nan")  # noqa: E731
    lines = [f"# Control dependences: {', '.join(labels)}; DynaMOSA, {a.executions} tests a run", "",
             "Branch coverage (llvm-cov, %) of the verified suite per seed, mosaic's own branch counter in "
             "brackets (means).", "",
             "| unit | " + " | ".join(labels) + " | difference | A12 |", "|---|" + "---|" * (len(labels) + 2)]
    for spec in specs:
        cols = {}
        for l in labels:
            runs = sorted((k, r) for k, r in results.items() if k.startswith(spec + "|" + l + "|"))
            cols[l] = [r for _, r in runs if r.get("llvm_branch") is not None]
        cells = [", ".join(f"{r['llvm_branch']:.1f}" for r in cols[l]) +
                 f" [{mean([r['own_branch'] for r in cols[l]]):.1f}]" for l in labels]
        diff, effect = "", ""
        if len(labels) == 2 and all(cols[l] for l in labels):
            x = [r["llvm_branch"] for r in cols[labels[1]]]
            y = [r["llvm_branch"] for r in cols[labels[0]]]
            diff, effect = f"{mean(x) - mean(y):+.1f}", f"{a12(x, y):.2f}"
        lines.append(f"| {spec} | " + " | ".join(cells) + f" | {diff} | {effect} |")
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

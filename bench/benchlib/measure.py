"""One subject end to end: its build, its own tests, mosaic on each unit at
each seed, libFuzzer on each shipped harness at each seed; everything
measured with llvm-cov on the same unit files. Each measurement is written
as JSON next to the run it measures, and read back when it exists."""
import json
import os
import shutil
import re

from . import build as builds
from . import llvmcov, tools


def _load(path):
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return None


def _save(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=1)
    return value


def _cov(c):
    return c.as_dict() if c else None


def slug(unit):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", unit)


def own_tests(subject, root, out, units, timeout):
    path = os.path.join(out, "own.json")
    done = _load(path)
    if done and all(u in done.get("coverage", {}) for u in units):
        return done
    if done and os.path.exists(done.get("profdata", "")):
        # The tests ran already: measure the units asked for this time too.
        profdata, objects, passed = done["profdata"], done["objects"], done["passed"]
    else:
        profdata, objects, passed = builds.run_own_tests(subject, root, out, timeout)
    cov = llvmcov.measure(profdata, objects, units)
    coverage = dict(done.get("coverage", {})) if done else {}
    coverage.update({u: _cov(c) for u, c in cov.items()})
    return _save(path, {"passed": passed, "objects": objects, "profdata": profdata, "coverage": coverage})


def mosaic_unit(mosaic, build_dir, unit, seed, budget, out, own, work=None):
    """mosaic on one unit at one seed, measured alone and with the own tests."""
    path = os.path.join(out, "measure.json")
    done = _load(path)
    if done:
        return done
    stats = tools.run_mosaic(mosaic, build_dir, unit, seed, budget, out, work=work)
    if "error" in stats:
        return _save(path, {"error": stats["error"]})
    binary = tools.suite_binary(os.path.join(out, "suite"))
    if not binary:
        return _save(path, {"error": "the generated suite has no coverage build", "stats": stats})
    profdata = tools.replay_suite(binary, None, out, "suite")
    alone = llvmcov.measure(profdata, [binary], [unit])[unit]
    union = None
    if own.get("profdata") and profdata:
        merged = llvmcov.merge([own["profdata"], profdata], os.path.join(out, "union.profdata"))
        union = llvmcov.measure(merged, own["objects"] + [binary], [unit])[unit]
    over_time = tools.mosaic_over_time(stats, binary, unit, budget, out)
    for f in ("suite.profdata", "union.profdata", "over-time.profdata"):
        if os.path.exists(os.path.join(out, f)):
            os.remove(os.path.join(out, f))
    return _save(path, {"stats": _summary(stats), "mosaic": _cov(alone), "union": _cov(union),
                        "over_time": over_time})


def _summary(stats):
    t = stats.get("tests", {})
    failures = [f for f in stats.get("failures", []) if f.get("reproducible")]
    return {
        "executions": stats.get("executions"), "executions_per_second": stats.get("executions_per_second"),
        "written": t.get("written"), "compiled": t.get("compiled"), "passed": t.get("passed"),
        "flaky": t.get("flaky_assertions"), "repaired": t.get("repaired"), "removed": t.get("removed"),
        "failing": t.get("failing"), "crash_sites": len({(f["outcome"], f["where"]) for f in failures}),
        "wall_seconds": stats.get("wall_seconds"), "peak_mib": stats.get("peak_mib"),
        "mosaic_llvm_cov": stats.get("llvm_cov"),
    }


def fuzzer_run(subject, fuzzer, root, seed, budget, out, units):
    """libFuzzer on one harness at one seed: final and over-time coverage of
    `units` (absolute) by the corpus and crash inputs."""
    path = os.path.join(out, "measure.json")
    done = _load(path)
    if done:
        return done
    os.makedirs(out, exist_ok=True)
    fuzz = builds.build_fuzzer(subject, fuzzer, root, "fuzz")
    cov_binary = builds.build_fuzzer(subject, fuzzer, root, "cov")
    stats = tools.run_libfuzzer(fuzz, seed, budget, out)
    files = tools.corpus_files(out)
    profdata = tools.replay_corpus(cov_binary, [p for p, _ in files], out, "corpus")
    final = llvmcov.measure(profdata, [cov_binary], units)
    over_time = {u: [] for u in units}
    for k in range(1, tools.TIME_POINTS + 1):
        t = budget * k / tools.TIME_POINTS
        prof = tools.replay_corpus(cov_binary, [p for p, when in files if when <= t], out, "over-time")
        cov = llvmcov.measure(prof, [cov_binary], units) if prof else {u: None for u in units}
        for u in units:
            over_time[u].append({"seconds": t, "branches_covered": cov[u].branches_covered if cov[u] else 0})
    for f in ("corpus.profdata", "over-time.profdata"):
        if os.path.exists(os.path.join(out, f)):
            os.remove(os.path.join(out, f))
    return _save(path, {"stats": stats, "coverage": {u: _cov(c) for u, c in final.items()},
                        "over_time": over_time})


def subject(subject, cache, out, mosaic, budget, seeds, log):
    """Everything for one subject; returns its record for the report."""
    root = os.path.join(cache, subject.name)
    out = os.path.join(out, subject.name)
    os.makedirs(out, exist_ok=True)
    record = {"name": subject.name, "units": {}, "fuzzers": {}, "no_fuzzer": subject.no_fuzzer}
    try:
        log(f"{subject.name}: fetching and building")
        record["version"] = builds.fetch(subject, root)
        build_dir = builds.build(subject, root)
        builds.build_coverage(subject, root)
    except (builds.StepFailed, OSError) as e:
        record["error"] = str(e)
        return record
    units = [os.path.join(root, "src", u) for u in subject.units]
    log(f"{subject.name}: own tests")
    own = own_tests(subject, root, out, units, timeout=1800)
    record["own_passed"] = own["passed"]
    # One work folder for the subject's units: the project's compiled files
    # are built once, not once a unit.
    work = os.path.join(out, "work")
    for rel, unit in zip(subject.units, units):
        entry = {"own": own["coverage"].get(unit), "mosaic": {}, "fuzzer": {}}
        for seed in seeds:
            log(f"{subject.name}: mosaic on {rel}, seed {seed}")
            entry["mosaic"][seed] = mosaic_unit(mosaic, build_dir, unit, seed, budget,
                                                os.path.join(out, slug(rel), f"mosaic-seed{seed}"), own, work)
        record["units"][rel] = entry
    shutil.rmtree(work, ignore_errors=True)
    for fuzzer in subject.fuzzers:
        fuzz_units = [os.path.join(root, "src", u) for u in fuzzer.sources]
        for seed in seeds:
            log(f"{subject.name}: libFuzzer {fuzzer.name}, seed {seed}")
            try:
                run = fuzzer_run(subject, fuzzer, root, seed, budget,
                                 os.path.join(out, f"fuzz-{fuzzer.name}-seed{seed}"), fuzz_units)
            except (builds.StepFailed, OSError) as e:
                run = {"error": str(e)}
            record["fuzzers"].setdefault(fuzzer.name, {})[seed] = run
            for rel, unit in zip(fuzzer.sources, fuzz_units):
                if rel in record["units"] and "error" not in run:
                    record["units"][rel]["fuzzer"].setdefault(fuzzer.name, {})[seed] = {
                        "coverage": run["coverage"].get(unit), "over_time": run["over_time"].get(unit),
                        "executions_per_second": run["stats"]["executions_per_second"],
                        "crash_artifacts": run["stats"]["crash_artifacts"]}
    return record

"""The sweep: every unit of every subject, one short `mosaic generate` each,
and what it shows about mosaic's generality rather than its coverage: did
the harness build (and why not), how many of the unit's callables a test can
call (and why not the rest), how many written tests compile as written,
pass, and fail (by class, where mosaic classifies failures).

A run is bounded by executions, not seconds (`--max-executions`), so that a
loaded machine gives the same figures. Each unit's record is written as
OUT/SUBJECT/UNIT/sweep.json and read back when it exists: a second sweep
resumes where the first stopped."""
import json
import os
import re
import shutil
from collections import Counter

from . import build as builds
from . import tools


def slug(unit):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", unit)


def reason_class(reason):
    """A reason without the names in it, so that the same cause in two
    callables counts once: `parameter 2 (va_list): unsupported type` ->
    `parameter: unsupported type`."""
    r = re.sub(r"^(parameter|result|receiver) [^:]*: ", r"\1: ", reason)
    r = re.sub(r"'[^']*'", "'…'", r)
    return r.strip()


def first_error(log_path):
    """The first `mosaic: error:` line of a run's log, and the next line
    (the compiler's first diagnostic when the harness does not build)."""
    try:
        with open(log_path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return "no log"
    for i, line in enumerate(lines):
        if line.startswith("mosaic: error:"):
            detail = next((l.strip() for l in lines[i + 1:i + 6] if ": error:" in l), "")
            return line[len("mosaic: error: "):] + (f" [{detail}]" if detail else "")
    return "no error line (see the log)"


# The record of a unit a report-only sweep found not yet run.
PENDING = {"pending": True}


def interrupted(stats, exit_code):
    """Whether mosaic's --json and exit code say its run was cut short (a
    signal ended the search, or verification, so the suite was written but
    not verified, and mosaic exited 0 or 1 rather than 3, its own failure,
    which a suite that does not build is): such a unit is run again when
    the sweep resumes, not recorded."""
    t = stats.get("tests", {})
    return bool(stats.get("interrupted")) or (bool(t.get("written")) and not t.get("verified") and exit_code in (0, 1))


def unit(mosaic, build_dir, unit_path, out, executions, timeout_seconds, work=None, report_only=False):
    """One unit: its record (a dict), from the file when it exists. `work`:
    the subject's shared work folder (else one of its own, removed).
    `report_only`: a unit not yet run is PENDING, not run."""
    path = os.path.join(out, "sweep.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    if report_only:
        return dict(PENDING)
    os.makedirs(out, exist_ok=True)
    stats = os.path.join(out, "generate.json")
    log = os.path.join(out, "generate.log")
    if os.path.exists(stats):
        os.remove(stats)
    # The budget in seconds only bounds a pathological unit; executions
    # decide. The suite stays for reading, its build folders do not.
    cmd = [mosaic, "generate", "-p", build_dir, unit_path, "-o", os.path.join(out, "suite"),
           "--max-executions", str(executions), "--budget", f"{timeout_seconds}s", "--seed", "1",
           "--json", stats, "--no-progress", "--work-dir", work or os.path.join(out, "work")]
    code, wall, _ = tools.timed(cmd, log)
    record = {"exit": code, "seconds": round(wall, 1)}
    if os.path.exists(stats):
        with open(stats) as f:
            j = json.load(f)
        if interrupted(j, code):
            record["interrupted"] = True
            return record
        c, t = j.get("callables", {}), j.get("tests", {})
        record.update({
            "harness": True,
            "targets": c.get("targets"), "callable": c.get("callable"),
            "not_callable": dict(Counter(reason_class(n["reason"]) for n in c.get("not_callable", []))),
            "skipped": dict(Counter(f"{s['what']}: {reason_class(s['reason'])}" for s in c.get("skipped", []))),
            "written": t.get("written"), "compiled": t.get("compiled"), "passed": t.get("passed"),
            "removed": t.get("removed"), "failing": t.get("failing"),
            "failing_classes": j.get("failing_classes"),
            "executions": j.get("executions"),
        })
    else:
        record.update({"harness": False, "why": first_error(log)})
    for folder in ("work", "suite/build", "suite/build-coverage"):
        shutil.rmtree(os.path.join(out, folder), ignore_errors=True)
    with open(path, "w") as f:
        json.dump(record, f, indent=1)
    return record


def subject(subject, cache, out, mosaic, executions, timeout_seconds, log, report_only=False):
    """Every unit of one subject; returns {"name", "version", "units": {rel: record}} or with "error".
    `report_only`: reads back the units already run, builds and runs nothing."""
    root = os.path.join(cache, subject.name)
    result = {"name": subject.name, "units": {}}
    if report_only:
        for rel in subject.units:
            result["units"][rel] = unit(None, None, None, os.path.join(out, subject.name, slug(rel)), executions,
                                        timeout_seconds, report_only=True)
        return result
    try:
        result["version"] = builds.fetch(subject, root)
        build_dir = builds.build(subject, root)
    except (builds.StepFailed, OSError) as e:
        result["error"] = str(e)
        return result
    # One work folder for the subject: the project's compiled files are
    # built once, not once a unit.
    work = os.path.join(out, subject.name, "work")
    for rel in subject.units:
        log(f"{subject.name}: {rel}")
        result["units"][rel] = unit(mosaic, build_dir, os.path.join(root, "src", rel),
                                    os.path.join(out, subject.name, slug(rel)), executions, timeout_seconds, work)
    shutil.rmtree(work, ignore_errors=True)
    return result


def _sum(records, key):
    return sum(r.get(key) or 0 for r in records)


def _pct(part, whole):
    return f"{100.0 * part / whole:.1f}" if whole else "—"


CLASSES = ("defect", "robustness", "misuse")


def nothing_to_test(record):
    return not record.get("harness") and str(record.get("why", "")).startswith("nothing to test")


def summary(records):
    """The totals of a list of unit records. Failures by class when mosaic
    classifies them (its --json has failing_classes: distinct failures,
    misuse included though not written), else None."""
    pending = [r for r in records if r.get("pending")]
    # A unit that defines nothing to test (data tables only, or main) says
    # so; it is not a harness that failed.
    nothing = [r for r in records if not r.get("pending") and nothing_to_test(r)]
    records = [r for r in records if not r.get("pending") and not nothing_to_test(r)]
    built = [r for r in records if r.get("harness")]
    classified = [r for r in built if r.get("failing_classes") is not None]
    return {
        "units": len(records), "harness": len(built), "pending": len(pending), "nothing": len(nothing),
        "targets": _sum(built, "targets"), "callable": _sum(built, "callable"),
        "written": _sum(built, "written"), "compiled": _sum(built, "compiled"), "passed": _sum(built, "passed"),
        "failing": _sum(built, "failing"),
        "classes": {c: sum((r["failing_classes"] or {}).get(c, 0) for r in classified) for c in CLASSES}
        if classified else None,
    }


def _classes_cell(s):
    c = s.get("classes")
    return " / ".join(str(c[k]) for k in CLASSES) if c else "—"


def _row(name, s):
    not_run = f" ({s['pending']} not run yet)" if s.get("pending") else ""
    if s.get("nothing"):
        not_run += f" (+{s['nothing']} with nothing to test)"
    return (f"| {name} | {s['harness']} / {s['units']}{not_run} | {s['callable']} / {s['targets']} | {s['written']} | "
            f"{s['compiled']} ({_pct(s['compiled'], s['written'])}%) | {s['passed']} ({_pct(s['passed'], s['written'])}%) | "
            f"{s['failing']} | {_classes_cell(s)} |")


def _classes(r):
    c = r.get("failing_classes")
    if not c:
        return str(r.get("failing", "—"))
    return f"{r.get('failing')} (" + ", ".join(f"{k} {v}" for k, v in sorted(c.items())) + ")"


def write_report(out, results, executions):
    """OUT/sweep.md (a table per subject, a summary row each and overall) and OUT/sweep.json."""
    with open(os.path.join(out, "sweep.json"), "w") as f:
        json.dump(results, f, indent=1)
    header = ("| subject | harness built | callable / targets | written | compiling as written | passing | "
              "failing tests written | failures: defect / robustness / misuse |\n"
              "|---|---|---|---|---|---|---|---|")
    lines = [f"# bench/sweep, {executions} executions a unit, seed 1", "", "## Summary", "", header]
    every = []
    for res in results:
        recs = list(res["units"].values())
        every += recs
        if "error" in res:
            lines.append(f"| {res['name']} | not built: {res['error'].splitlines()[0]} | | | | | | |")
        else:
            lines.append(_row(res["name"], summary(recs)))
    lines.append(_row("**all**", summary(every)))
    for res in results:
        lines += ["", f"## {res['name']} {res.get('version', '')}", ""]
        if "error" in res:
            lines += ["```", res["error"][-1500:], "```"]
            continue
        lines += ["| unit | harness | callable / targets | written | compiled | passed | failing | not callable, skipped |",
                  "|---|---|---|---|---|---|---|---|"]
        for rel, r in res["units"].items():
            if r.get("pending"):
                lines.append(f"| {rel} | not run yet | | | | | | |")
                continue
            if not r.get("harness"):
                lines.append(f"| {rel} | no: {r.get('why', '?')} | | | | | | |")
                continue
            reasons = Counter(r.get("not_callable") or {})
            reasons.update(r.get("skipped") or {})
            shown = "; ".join(f"{n}× {k}" for k, n in reasons.most_common(3))
            lines.append(f"| {rel} | yes | {r['callable']} / {r['targets']} | {r['written']} | {r['compiled']} | "
                         f"{r['passed']} | {_classes(r)} | {shown} |")
    with open(os.path.join(out, "sweep.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def _arrow(before, after, fmt=str):
    return fmt(before) if before == after else f"{fmt(before)} → {fmt(after)}"


def _compiled_cell(s):
    return f"{s['compiled']} / {s['written']} ({_pct(s['compiled'], s['written'])}%)"


def comparison_lines(before, after):
    """The table of two sweeps over the same subjects (each a list of
    subject results as subject() returns them), before → after per subject
    and overall, then the failing tests written per unit where either side
    has any. Units one side has not run are left out of both sides' sums,
    so that each row compares the same units."""
    prior = {r["name"]: r for r in before}
    rows = ["| subject | units | harness built | callable / targets | compiling as written / written | passing | "
            "failing tests written | failures: defect / robustness / misuse |",
            "|---|---|---|---|---|---|---|---|"]
    units = ["| subject | unit | failing tests written, before → after | after: defect / robustness / misuse |",
             "|---|---|---|---|"]
    every_b, every_a = [], []

    def add(name, b, a):
        sb, sa = summary(b), summary(a)
        rows.append(f"| {name} | {sa['units'] + sa['nothing']} | {_arrow(sb['harness'], sa['harness'])} | "
                    f"{_arrow(sb['callable'], sa['callable'])} / {_arrow(sb['targets'], sa['targets'])} | "
                    f"{_arrow(_compiled_cell(sb), _compiled_cell(sa))} | {_arrow(sb['passed'], sa['passed'])} | "
                    f"{_arrow(sb['failing'], sa['failing'])} | {_arrow(_classes_cell(sb), _classes_cell(sa))} |")

    for res in after:
        old = prior.get(res["name"], {"units": {}})
        both = [rel for rel, r in res["units"].items()
                if not r.get("pending") and not old["units"].get(rel, PENDING).get("pending")]
        b = [old["units"][rel] for rel in both]
        a = [res["units"][rel] for rel in both]
        every_b += b
        every_a += a
        add(res["name"], b, a)
        for rel in both:
            rb, ra = old["units"][rel], res["units"][rel]
            if rb.get("failing") or ra.get("failing"):
                c = ra.get("failing_classes") or {}
                units.append(f"| {res['name']} | {rel} | {_arrow(rb.get('failing') or 0, ra.get('failing') or 0)} | "
                             f"{' / '.join(str(c.get(k, 0)) for k in CLASSES)} |")
    add("**all**", every_b, every_a)
    return rows, units


def write_comparison(out, before, after, before_label, after_label):
    """OUT/compare.md: comparison_lines() under a heading naming both sides."""
    rows, units = comparison_lines(before, after)
    text = [f"# bench/sweep: {before_label} → {after_label}", "",
            "Each row sums only the units both sweeps ran. Failing tests written: the failing suite's tests "
            "(misuse is counted by class but written only with --misuse-tests); a sweep from before failures "
            "were classed has no classes (—).", ""] + rows + ["", "## Failing tests written per unit", ""] + units
    with open(os.path.join(out, "compare.md"), "w") as f:
        f.write("\n".join(text) + "\n")


def held_out(held, argv, root):
    """The held-out sweeps' command line (bench/results/heldout-*/heldout.py):
    LIBRARY[,LIBRARY...] OUT [EXECUTIONS [MOSAIC]], each library of `held`
    (name -> Subject) run as `subject` runs one, into OUT, its record
    appended to OUT/held.json as it ends. The libraries are fetched and
    built in $MOSAIC_HELDOUT_CACHE (default ROOT/build/heldout-cache);
    MOSAIC defaults to ROOT/build/tools/mosaic."""
    import time
    names, out = argv[1].split(","), argv[2]
    execs = int(argv[3]) if len(argv) > 3 else 3000
    mosaic = argv[4] if len(argv) > 4 else os.path.join(root, "build", "tools", "mosaic")
    cache = os.environ.get("MOSAIC_HELDOUT_CACHE", os.path.join(root, "build", "heldout-cache"))
    start = time.monotonic()
    log = lambda m: print(f"[{time.monotonic()-start:7.1f}s] {m}", flush=True)
    res = []
    os.makedirs(out, exist_ok=True)
    for n in names:
        r = subject(held[n], cache, out, mosaic, execs, 600, log)
        res.append(r)
        with open(os.path.join(out, "held.json"), "w") as f:
            json.dump(res, f, indent=1)
        print(json.dumps({k: v for k, v in r.items() if k != "units"}), flush=True)

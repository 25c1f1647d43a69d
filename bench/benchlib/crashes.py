"""The crash benchmark (bench/crashes, issue 21): real crashes of the
subjects, each a folder with crash.json, its proof of concept (poc.c or
poc.cpp), the sanitizer report the PoC printed against the unfixed version
(trace.txt) and, when Debian's package does not carry the fix, our own
minimal fix (fix.patch).

A crash is reproduced by a run of `mosaic reproduce` when the test it wrote
crashes the unfixed version with the trace's failure (kind and top frames in
the library) and passes on the fixed one. The test checked is the
reproducing test's regression twin (DISABLED_<name>_Regression: the same
calls run directly), built with the suite's own CMake file and
-DMOSAIC_SANITIZE=ON against each version.
"""
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess

from . import bugs
from . import build as builds

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "crashes")

SYMBOLIZER = "/usr/lib/llvm-19/bin/llvm-symbolizer"  # Debian's llvm-19 (not on PATH by that name)
# ClusterFuzz's crash state: the top three frames in the project.
STATE_FRAMES = 3
# Runs of a regression test whose crash report has no library frame (ours).
UNWIND_RUNS = 3
FRAME = re.compile(r"^\s*#\d+\s+0x[0-9a-f]+\s+in\s+(.+?)\s+(/\S+?):(\d+)(?::\d+)?\s*$", re.M)
ASAN_KIND = re.compile(r"ERROR: (\w+Sanitizer): ([\w-]+)")
UBSAN_KIND = re.compile(r"runtime error: ([^\n]*)")


def entries(keys=None):
    """The crash entries (crash.json dicts, with "dir"), in key order."""
    out = []
    for path in sorted(glob.glob(os.path.join(HERE, "*", "crash.json"))):
        with open(path) as f:
            e = json.load(f)
        e["dir"] = os.path.dirname(path)
        if not keys or e["key"] in keys:
            out.append(e)
    return out


def _stem(patch):
    return os.path.splitext(patch)[0]


def versions(subject, cache, e):
    """(unfixed root, fixed root) of an entry, built (bugs._patched's
    folders: Debian's source with the named patches applied)."""
    shipped = os.path.join(cache, subject.name)
    builds.fetch(subject, shipped)  # a cache that never held the subject gets it first
    builds.build(subject, shipped)
    has_series = os.path.exists(os.path.join(shipped, "src", "debian", "patches", "series"))
    series = bugs._series(os.path.join(shipped, "src")) if has_series else []
    u, f = e["unfixed"], e["fixed"]
    if u == "shipped":
        unfixed, applied = shipped, series
    elif "without" in u:
        applied = [p for p in series if p != u["without"]]
        unfixed = bugs._patched(subject, cache, f"{subject.name}-without-{_stem(u['without'])}", applied)
    else:
        applied = series[:series.index(u["before"])]
        unfixed = bugs._patched(subject, cache, f"{subject.name}-before-{_stem(u['before'])}", applied)
    if f == "shipped":
        fixed = shipped
    elif "upto" in f:
        fixed = bugs._patched(subject, cache, f"{subject.name}-upto-{_stem(f['upto'])}",
                              series[:series.index(f["upto"]) + 1])
    else:
        fixed = bugs._patched(subject, cache, f"{subject.name}-fix-{e['key']}",
                              applied + [os.path.join(e["dir"], f["patch"])])
    if not unfixed or not fixed:
        raise builds.StepFailed(f"{e['key']}: a version does not build")
    return unfixed, fixed


def failure(report):
    """(kind, [(function, file, line)] of frames in a library source under
    /src/) of a sanitizer report; kind without numbers or addresses."""
    found = [(m.start(), m.group(2)) for m in [ASAN_KIND.search(report)] if m]
    found += [(u.start(), re.sub(r"0x[0-9a-f]+|-?\d+", "N", u.group(1)).strip()) for u in [UBSAN_KIND.search(report)] if u]
    kind = min(found)[1] if found else None  # the first report: the one that ended the run
    # The failing stack: the first block of frame lines (not where the
    # memory was allocated or freed, which follow it).
    block, started = [], False
    for line in report.splitlines():
        is_frame = re.match(r"^\s*#\d+\s+0x", line) is not None
        if is_frame:
            started = True
            block.append(line)
        elif started:
            break
    frames = [(fn, path, int(line)) for fn, path, line in FRAME.findall("\n".join(block))
              if "/src/" in path and not os.path.basename(path).startswith("poc.")]
    return kind, frames


def _same_frame(a, b):
    """One function at one line of one file (named by its path under src/)."""
    return a[0] == b[0] and a[2] == b[2] and a[1].split("/src/", 1)[-1] == b[1].split("/src/", 1)[-1]


def matches(trace, report):
    """Whether a run's sanitizer report is the trace's failure: the same
    kind, and the trace's top library frames in its stack, in order."""
    want_kind, want = failure(trace)
    got_kind, got = failure(report)
    if want_kind != got_kind:
        return False
    i = 0
    for w in want[:STATE_FRAMES]:
        while i < len(got) and not _same_frame(w, got[i]):
            i += 1
        if i == len(got):
            return False
        i += 1
    return True


def _run_regression(suite, build_dir, log):
    """Builds the suite's failing tests with -DMOSAIC_SANITIZE=ON and runs
    the regression twins; (exit code, output) or None when it does not build."""
    exe = [os.path.basename(p)[:-4] for p in glob.glob(os.path.join(suite, "*_failing_test*.cpp"))]
    if not exe:
        return None
    try:
        builds.sh(["cmake", "-S", suite, "-B", build_dir, "-G", "Ninja", "-DMOSAIC_SANITIZE=ON",
                   "-DCMAKE_BUILD_TYPE="], suite, log)
        builds.sh(["cmake", "--build", build_dir, "--target"] + exe, suite, log)
    except builds.StepFailed:
        return None
    # The slow unwinder at a fatal error: a stack overflow's report has no
    # frames with the fast one when the overflowing frame has no frame pointer.
    env = dict(os.environ, ASAN_OPTIONS=f"detect_leaks=0:handle_abort=1:fast_unwind_on_fatal=0:"
                                        f"external_symbolizer_path={SYMBOLIZER}",
               UBSAN_OPTIONS=f"print_stacktrace=1:halt_on_error=1:external_symbolizer_path={SYMBOLIZER}")
    code, out = 0, ""
    for name in exe:
        r = subprocess.run([os.path.join(build_dir, name), "--gtest_also_run_disabled_tests",
                            "--gtest_filter=*_Regression"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=env, timeout=120, text=True, errors="replace")
        code, out = code or r.returncode, out + r.stdout
    with open(log, "a") as f:
        f.write(out)
    return code, out


def confirm(e, suite, unfixed, fixed, out, verdicts):
    """{"unfixed": "crashes as traced" | "crashes otherwise" | "passes" |
    "does not build", "fixed": ...} of a written suite; cached in `verdicts`
    by the failing test's text (seeds often write the same test)."""
    files = sorted(glob.glob(os.path.join(suite, "*_failing_test*.cpp")))
    digest = hashlib.sha256(b"".join(open(p, "rb").read() for p in files)).hexdigest()
    cache_key = f"{e['key']}:{digest}"
    if cache_key in verdicts:
        return verdicts[cache_key]
    trace = open(os.path.join(e["dir"], "trace.txt"), errors="replace").read()
    verdict = {}
    for name, root, copy in (("unfixed", unfixed, suite), ("fixed", fixed, None)):
        if copy is None:
            copy = bugs._rebase(suite, os.path.join(out, "suite-fixed"), unfixed, root)
        ran = _run_regression(copy, os.path.join(out, f"check-{name}"), os.path.join(out, f"check-{name}.log"))
        # A stack overflow's report sometimes has no frames at all, when the
        # guard page is hit inside the unwinder itself: two more runs
        # (UNWIND_RUNS) before the crash is called another one.
        for _ in range(UNWIND_RUNS - 1):
            if ran is None or ran[0] == 0 or failure(ran[1])[1]:
                break
            ran = _run_regression(copy, os.path.join(out, f"check-{name}"), os.path.join(out, f"check-{name}.log"))
        if ran is None:
            verdict[name] = "does not build"
        elif ran[0] == 0:
            verdict[name] = "passes"
        else:
            verdict[name] = "crashes as traced" if matches(trace, ran[1]) else "crashes otherwise"
    for d in ("check-unfixed", "check-fixed", "suite-fixed"):
        shutil.rmtree(os.path.join(out, d), ignore_errors=True)
    verdicts[cache_key] = verdict
    return verdict


def reproduced(verdict):
    return verdict.get("unfixed") == "crashes as traced" and verdict.get("fixed") == "passes"


SEARCH = re.compile(r"^search\s+\S+ for ([\d.]+) s: (\d+) executions", re.M)


def parse_output(text):
    """What `mosaic reproduce` printed: {"claimed", "seconds", "executions", "closest", "concolic"}
    (the last: the concolic side's line, with --concolic)."""
    m = SEARCH.search(text)
    closest = re.search(r"^closest\s+(.*)$", text, re.M)
    concolic = re.search(r"^concolic\s+(.*)$", text, re.M)
    return {"claimed": "\nreproduced   " in "\n" + text, "seconds": float(m.group(1)) if m else None,
            "executions": int(m.group(2)) if m else None, "closest": closest.group(1) if closest else None,
            "concolic": concolic.group(1) if concolic else None}

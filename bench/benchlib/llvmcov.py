"""Branch and line coverage of one source file from clang source-based
coverage, as the union over every binary that compiled it.

Why not `llvm-cov report`: its file summary takes, per function, the best
single copy (FunctionCoverageSummary over an instantiation group), so a file
compiled into several binaries (cJSON's tests #include cJSON.c; the generated
suite and the library's own tests are different binaries) is reported as its
best copy, not as the union a user gets by running all of them. Here:

- branches: every branch region of the functions defined in the file,
  including those inside macro expansions, from the `functions` of
  llvm-cov's JSON export; a side (true or false) is covered when any copy
  (another binary, another template instantiation) took it. A region is
  keyed by where its function starts, its virtual file (the function body
  or one macro expansion in it: numbered alike in copies compiled alike),
  its span, and its rank among regions with the same key, because distinct
  regions can share a span: those placed at a macro's expansion point, or
  one macro expanded twice inside another's expansion (the file view's
  `expansions`, keyed by call site and span, merged those: http_parser.c
  1502 sides instead of 1812). On one binary this equals llvm-cov's own
  branch count (http_parser.c: 1812 sides, 1367 covered; cJSON.c: 1038,
  468; both ways).
- lines: llvm-cov's per-file line view (the one `llvm-cov show` and its lcov
  export print), computed from the file's segments with llvm's
  LineCoverageStats rule. Regions with the same span are summed by llvm-cov
  across copies, so this is a union too. It counts the lines of macros
  defined in the file, which the per-function summary does not (cJSON.c:
  2261 lines instead of 2236).
"""
import functools
import json
import os
import shutil
import subprocess

LLVM_COV = "llvm-cov-19"
LLVM_PROFDATA = "llvm-profdata-19"


def has_coverage_map(path):
    """Whether `path` is an ELF file with clang coverage mapping in it."""
    try:
        with open(path, "rb") as f:
            if f.read(4) != b"\x7fELF":
                return False
            return b"__llvm_covmap" in f.read()
    except OSError:
        return False


def instrumented_objects(root):
    """Every instrumented executable or shared library under `root`."""
    found = []
    for d, _, files in os.walk(root):
        for name in files:
            p = os.path.join(d, name)
            if (os.access(p, os.X_OK) or ".so" in name) and not os.path.islink(p) and has_coverage_map(p):
                found.append(p)
    return sorted(found)


def merge(raw_files, out):
    """llvm-profdata merge; returns `out`, or None when nothing was profiled."""
    raw_files = [f for f in raw_files if os.path.exists(f) and os.path.getsize(f) > 0]
    if not raw_files:
        return None
    list_file = out + ".inputs"
    with open(list_file, "w") as f:
        f.write("\n".join(raw_files) + "\n")
    subprocess.run([LLVM_PROFDATA, "merge", "-sparse", "-f", list_file, "-o", out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out


def profiled(out, name, run, pattern="%p.profraw"):
    """Calls run(env), whose processes write their raw profiles into a
    scratch folder (env's LLVM_PROFILE_FILE, file names `pattern`); returns
    them merged into OUT/NAME.profdata (None when nothing was profiled)."""
    prof_dir = os.path.join(out, f"{name}-profraw")
    shutil.rmtree(prof_dir, ignore_errors=True)
    os.makedirs(prof_dir)
    run(dict(os.environ, LLVM_PROFILE_FILE=os.path.join(prof_dir, pattern)))
    profdata = merge([os.path.join(prof_dir, f) for f in os.listdir(prof_dir)], os.path.join(out, f"{name}.profdata"))
    shutil.rmtree(prof_dir, ignore_errors=True)
    return profdata


def export(profdata, objects, sources):
    """llvm-cov's JSON export of `sources` over `objects`."""
    cmd = [LLVM_COV, "export", "-instr-profile=" + profdata, objects[0]]
    for o in objects[1:]:
        cmd += ["-object", o]
    cmd += list(sources)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"llvm-cov export failed: {r.stderr.strip()[:500]}")
    return json.loads(r.stdout)


# Resolved paths, memoised: an export names the same few files in every one
# of its (many thousand) functions.
_real = functools.lru_cache(maxsize=None)(os.path.realpath)


def _branch_sides(exported, real):
    """{key: (true count, false count)} summed over the copies of every
    branch region of the functions whose file is `real` (resolved path);
    keys as the module's docstring says. A branch is [line, col, end line,
    end col, true count, false count, file id, expanded file id, kind]."""
    sides = {}
    for d in exported.get("data", []):
        for fn in d.get("functions", []):
            names = fn.get("filenames") or [""]
            if not fn.get("regions") or _real(names[0]) != real:
                continue
            start, rank = tuple(fn["regions"][0][:4]), {}
            for b in fn.get("branches", []):
                where = (b[6],) + tuple(b[:4])
                rank[where] = rank.get(where, 0) + 1
                key = (start, rank[where]) + where
                t, f = sides.get(key, (0, 0))
                sides[key] = (t + b[4], f + b[5])
    return sides


def _lines(segments):
    """(mapped, covered) lines: llvm's LineCoverageStats over the segments
    [line, col, count, hasCount, isRegionEntry, isGapRegion]."""
    mapped = covered = 0
    i, n = 0, len(segments)
    if n == 0:
        return 0, 0
    line, wrapped, current = segments[0][0], None, []
    while i < n:
        if current:
            wrapped = current[-1]
        current = []
        while i < n and segments[i][0] == line:
            current.append(segments[i])
            i += 1
        starts = [s for s in current if s[3] and s[4] and not s[5]]
        skipped = bool(current) and not current[0][3] and current[0][4]
        is_mapped = (not skipped) and ((wrapped is not None and wrapped[3]) or bool(starts))
        is_mapped = is_mapped or any(s[4] and s[3] for s in current)
        if is_mapped:
            count = wrapped[2] if wrapped is not None else 0
            if starts:
                count = max([count] + [s[2] for s in starts])
            mapped += 1
            covered += count > 0
        line += 1
    return mapped, covered


class FileCoverage:
    def __init__(self, branches=0, branches_covered=0, lines=0, lines_covered=0):
        self.branches, self.branches_covered = branches, branches_covered
        self.lines, self.lines_covered = lines, lines_covered

    def branch_percent(self):
        return 100.0 * self.branches_covered / self.branches if self.branches else None

    def line_percent(self):
        return 100.0 * self.lines_covered / self.lines if self.lines else None

    def as_dict(self):
        return {"branches": self.branches, "branches_covered": self.branches_covered,
                "lines": self.lines, "lines_covered": self.lines_covered}


def file_coverage(exported, source):
    """Coverage of `source` (absolute path) in an export; None when absent."""
    real = os.path.realpath(source)
    for d in exported.get("data", []):
        for f in d.get("files", []):
            if os.path.realpath(f["filename"]) != real:
                continue
            sides = _branch_sides(exported, real)
            lines, lines_covered = _lines(f.get("segments", []))
            return FileCoverage(2 * len(sides), sum((t > 0) + (fa > 0) for t, fa in sides.values()),
                                lines, lines_covered)
    return None


def measure(profdata, objects, sources):
    """{source: FileCoverage or None} for the given profile and binaries."""
    if not profdata or not objects:
        return {s: None for s in sources}
    exported = export(profdata, objects, sources)
    return {s: file_coverage(exported, s) for s in sources}

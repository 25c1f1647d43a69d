"""Real bugs from Debian's patches: a patch in debian/patches/series that
changes a unit file is a fix; the fixed version is the package as Debian
ships it (every patch applied), the buggy one the same source with every
patch but that one (or, when a later patch depends on it, the series
up to it without and with it). A tool finds the bug when what it produced on
one version tells the two apart:

- mosaic: a suite generated (with an ASan + UBSan harness) on either
  version, built with -DMOSAIC_SANITIZE=ON against both versions; a test
  (regression or failing suite, disabled ones included) whose verdict differs
  between the two builds distinguishes them. What of the suite does not
  compile against the other version (it names API the fix added) is
  dropped from that build, and its tests from the comparison;
- libFuzzer: a crash input found on the buggy version that crashes the buggy
  build and not the fixed one (both with ASan).
"""
import glob
import json
import os
import re
import shutil
import subprocess

from . import build as builds
from . import tools

CVE = re.compile(r"CVE-\d{4}-\d{4,}")


def candidates(subject, src):
    """[(patch, [unit files it changes], [CVE ids in its text])] in series order."""
    if not os.path.exists(os.path.join(src, "debian", "patches", "series")):
        return []
    found = []
    for name in _series(src):
        text = open(os.path.join(src, "debian", "patches", name), errors="replace").read()
        touched = set(re.findall(r"^\+\+\+ [^/\s]+/(\S+)", text, re.M))
        units = [u for u in subject.units if u in touched]
        if units:
            found.append((name, units, sorted(set(CVE.findall(name + "\n" + text)))))
    return found


def _series(src):
    with open(os.path.join(src, "debian", "patches", "series")) as f:
        return [n for n in (line.split("#")[0].strip().split(" ")[0] for line in f) if n]


def _patched(subject, cache, name, patches):
    """CACHE/NAME: the unpatched source with `patches` applied in order,
    built; None when one does not apply."""
    fixed = os.path.join(cache, subject.name)
    root = os.path.join(cache, name)
    def step():
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(os.path.join(root, "fetch"))
        for f in glob.glob(os.path.join(fixed, "fetch", "*")):
            shutil.copy(f, os.path.join(root, "fetch"))
        dsc = sorted(glob.glob(os.path.join(root, "fetch", "*.dsc")))[-1]
        src, log = os.path.join(root, "src"), os.path.join(root, "patch.log")
        builds.sh(["dpkg-source", "-x", "--skip-patches", dsc, src], root, log)
        for p in patches:
            builds.sh(["patch", "-p1", "--forward", "-i", os.path.join("debian", "patches", p)], src, log)
        open(os.path.join(root, ".fetched"), "w").close()
    try:
        builds.cached(os.path.join(root, ".patched"), step)
    except builds.StepFailed:
        return None
    builds.build(subject, root)
    return root


def versions(subject, cache, patch):
    """(buggy, fixed) roots for one fix: every patch but `patch` against the
    package as shipped; when a later patch needs this one (its context
    moved), the series up to `patch` without and with it."""
    shipped = os.path.join(cache, subject.name)
    series = _series(os.path.join(shipped, "src"))
    stem = os.path.splitext(patch)[0]
    buggy = _patched(subject, cache, f"{subject.name}-without-{stem}", [p for p in series if p != patch])
    if buggy:
        return buggy, shipped
    i = series.index(patch)
    buggy = _patched(subject, cache, f"{subject.name}-before-{stem}", series[:i])
    fixed = _patched(subject, cache, f"{subject.name}-upto-{stem}", series[:i + 1])
    if not buggy or not fixed:
        raise builds.StepFailed(f"the series up to {patch} does not apply")
    return buggy, fixed


# A portable suite's default project folders (emit/Portable.cpp,
# cmakeDefaults): relative to the suite's own folder.
PORTABLE_DEFAULT = re.compile(r'set\((MOSAIC_PROJECT_ROOT|MOSAIC_BUILD_DIR) "\$\{CMAKE_CURRENT_SOURCE_DIR\}/([^"]*)"\)')


def _absolute_defaults(text, suite):
    """`text` of a suite's CMake file with its portable defaults (relative
    to `suite`) made absolute, so that a copy elsewhere still finds them."""
    return PORTABLE_DEFAULT.sub(
        lambda m: f'set({m.group(1)} "{os.path.realpath(os.path.join(suite, m.group(2)))}")', text)


def _rebase(suite, out, old_root, new_root):
    """A copy of a generated suite that builds against the other version:
    every path under `old_root` now points under `new_root` (absolute ones,
    and a portable suite's project folders, which are relative to it)."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    new = new_root.rstrip("/")
    for name in os.listdir(suite):
        path = os.path.join(suite, name)
        if os.path.isfile(path):
            text = open(path, errors="surrogateescape").read()
            if name == "CMakeLists.txt":
                text = _absolute_defaults(text, suite)
            for old in {old_root.rstrip("/"), os.path.realpath(old_root)}:
                text = text.replace(old + "/", new + "/").replace(f'"{old}"', f'"{new}"')
            with open(os.path.join(out, name), "w", errors="surrogateescape") as f:
                f.write(text)
    return out


# A compile error in a generated test file, as clang prints it.
TEST_FILE_ERROR = re.compile(r"^(/\S+?_(?:failing_)?test(?:_\d+)?\.cpp):(\d+):\d+: error:", re.M)
# Rounds of dropping the tests that do not compile: one usually does it (a
# fix that adds API breaks only the tests that call it); clang stops
# reporting after 20 errors per file, hence more than one.
PRUNE_ROUNDS = 4
# How a generated test starts (emit/Suite.cpp); it ends at a line "}".
TEST_START = ("TEST(", "TEST_F(")


def drop_tests_at(path, lines):
    """Removes from a generated test file every TEST holding one of `lines`
    (1-based), with the comment lines right above it; how many it removed."""
    text = open(path, errors="surrogateescape").read().split("\n")
    starts = [i for i, l in enumerate(text) if l.startswith(TEST_START)]
    doomed = {max((s for s in starts if s <= n - 1), default=None) for n in lines} - {None}
    keep, i = [], 0
    while i < len(text):
        if i in doomed:
            while keep and keep[-1].startswith("//"):
                keep.pop()
            while i < len(text) and text[i] != "}":
                i += 1
            i += 2 if i + 1 < len(text) and text[i + 1] == "" else 1
            continue
        keep.append(text[i])
        i += 1
    with open(path, "w", errors="surrogateescape") as f:
        f.write("\n".join(keep))
    return len(doomed)


# A compile error in a suite's wrapper (the unit library's source).
WRAPPER_ERROR = re.compile(r"^(/\S+?_wrapper\.c(?:pp)?):(\d+):\d+: error:", re.M)
# A wrapper function that calls a static function of the unit by name
# (emit/Suite.cpp: `__typeof__(R) mosaic_NAME_ID(...) {`).
TRAMPOLINE = re.compile(r"\b(mosaic_\w+_\d+)\(")


def drop_wrapper_lines(path, lines):
    """Removes from a suite's wrapper what names what this version lacks:
    the trampoline holding an error line (a static function the fix added),
    or the line itself (saving or restoring a variable the fix added). The
    names of the trampolines removed."""
    text = open(path, errors="surrogateescape").read().split("\n")
    removed, doomed = set(), set()
    for n in sorted(set(lines)):
        i = n - 1
        head = i - 1
        if i > 0 and text[head].endswith("{") and not text[head].startswith(" "):
            m = TRAMPOLINE.search(text[head])
            if m:
                end = i
                while end < len(text) and text[end] != "}":
                    end += 1
                doomed.update(range(head, end + 1))
                removed.add(m.group(1))
                continue
        doomed.add(i)
    with open(path, "w", errors="surrogateescape") as f:
        f.write("\n".join(l for k, l in enumerate(text) if k not in doomed))
    return removed


def tests_calling(path, names):
    """Lines (1-based) inside the TESTs of a test file that call one of `names`."""
    lines, inside = [], False
    for k, l in enumerate(open(path, errors="surrogateescape").read().split("\n")):
        if l.startswith(TEST_START):
            inside = True
        elif l == "}":
            inside = False
        if inside and any(n + "(" in l for n in names):
            lines.append(k + 1)
    return lines


def _prune(suite_dir, log_text, log):
    """Drops what does not compile on this version (module doc); whether
    anything was dropped."""
    wrapper = WRAPPER_ERROR.findall(log_text)
    tests = TEST_FILE_ERROR.findall(log_text)
    dropped = False
    for path in sorted({p for p, _ in wrapper}):
        names = drop_wrapper_lines(path, [int(line) for p, line in wrapper if p == path])
        dropped = True
        for test_file in sorted(glob.glob(os.path.join(suite_dir, "*_test*.cpp"))):
            at = tests_calling(test_file, names)
            if at:
                tests.extend((test_file, str(n)) for n in at)
        with open(log, "a") as f:
            f.write(f"# dropped from {path} what this version lacks (trampolines: {', '.join(sorted(names)) or 'none'})\n")
    for path in sorted({p for p, _ in tests}):
        n = drop_tests_at(path, [int(line) for p, line in tests if p == path])
        dropped = dropped or n > 0
        with open(log, "a") as f:
            f.write(f"# dropped {n} test(s) of {path} that do not compile on this version\n")
    return dropped


def _verdicts(suite_dir, log, prune=False):
    """Builds a suite with the sanitizers and runs each of its tests alone
    (disabled ones too); {test name: exit code}, or None when it does not build.
    With `prune`, what does not compile (it names what this version lacks)
    is dropped first, each round logged: the tests with a compile error, the
    wrapper's trampolines of static functions this version does not have and
    the tests calling them, the wrapper's lines saving its missing variables."""
    b = os.path.join(suite_dir, "build-sanitize")
    try:
        builds.sh(["cmake", "-S", suite_dir, "-B", b, "-G", "Ninja", "-DMOSAIC_SANITIZE=ON",
                   f"-DCMAKE_C_COMPILER={builds.CC}", f"-DCMAKE_CXX_COMPILER={builds.CXX}"], suite_dir, log)
    except builds.StepFailed:
        return None
    for round_ in range(PRUNE_ROUNDS + 1):
        start = os.path.getsize(log)
        try:
            builds.sh(["cmake", "--build", b], suite_dir, log)
            break
        except builds.StepFailed:
            with open(log, errors="replace") as f:
                f.seek(start)
                built = f.read()
            if not prune or round_ == PRUNE_ROUNDS or not _prune(suite_dir, built, log):
                return None
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    verdicts = {}
    for binary in sorted(glob.glob(os.path.join(b, "*_test"))):
        listed = subprocess.run([binary, "--gtest_list_tests", "--gtest_also_run_disabled_tests"],
                                capture_output=True, text=True, env=env).stdout
        suite = None
        for line in listed.splitlines():
            if not line.startswith(" "):
                suite = line.strip()
                continue
            name = suite + line.split("#")[0].strip()
            try:
                r = subprocess.run([binary, "--gtest_filter=" + name, "--gtest_also_run_disabled_tests"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, timeout=60)
                verdicts[name] = r.returncode
            except subprocess.TimeoutExpired:
                verdicts[name] = "timeout"
    return verdicts


# The claim a distinguishing test makes, read from its GoogleTest suite's
# name (emit/TestFile.cpp, failingSuiteName: one suite per class,
# `<Unit>Test_DefectDeathTest` ...): a failing test classed by mosaic, or a
# regression test that pins behaviour one version changes.
CLAIM = re.compile(r"_(Defect|Robustness|Misuse)DeathTest\.")
CLAIM_NAMES = {"Defect": "likely defect", "Robustness": "robustness", "Misuse": "misuse"}


def claim(test):
    """'likely defect', 'robustness', 'misuse', 'unclassed failure' (a death
    test of a suite from before classes) or 'regression' for a test name."""
    m = CLAIM.search(test)
    if m:
        return CLAIM_NAMES[m.group(1)]
    return "unclassed failure" if "_DeathTest." in test else "regression"


def mosaic_distinguishes(suite, generated_root, other_root, out):
    """Tests of `suite` (generated on `generated_root`) whose verdict differs
    when built against `other_root`; None when a build failed. Tests that do
    not compile against the other version are left out of the comparison
    (a fix that adds API: expat's CVE-2023-52425)."""
    log = os.path.join(out, "cross.log")
    mine = _verdicts(_rebase(suite, os.path.join(out, "on-own"), generated_root, generated_root), log)
    theirs = _verdicts(_rebase(suite, os.path.join(out, "on-other"), generated_root, other_root), log, prune=True)
    if mine is None or theirs is None:
        return None
    return sorted(n for n in mine if n in theirs and (mine[n] == 0) != (theirs[n] == 0))


def libfuzzer_finds(subject, fuzzer, buggy, fixed, seed, budget, out):
    """Crash inputs of libFuzzer on the buggy version that crash it and not
    the fixed version."""
    path = os.path.join(out, "found.json")
    if os.path.exists(path):
        return json.load(open(path))
    os.makedirs(out, exist_ok=True)
    fuzz_buggy = builds.build_fuzzer(subject, fuzzer, buggy, "fuzz")
    fuzz_fixed = builds.build_fuzzer(subject, fuzzer, fixed, "fuzz")
    tools.run_libfuzzer(fuzz_buggy, seed, budget, out)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    found = []
    for crash in sorted(glob.glob(os.path.join(out, "crashes", "*"))):
        run = lambda b: subprocess.run([b, crash], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                                       timeout=60).returncode
        if run(fuzz_buggy) != 0 and run(fuzz_fixed) == 0:
            found.append(os.path.basename(crash))
    json.dump(found, open(path, "w"))
    return found

"""Running the two tools on a unit at a budget: `mosaic generate` and
libFuzzer, and measuring what each left behind with llvm-cov (also over
time: the generated tests found by time t, the corpus files written by t).
Every run writes its statistics file last, so a run with one is done and a
second `bench/run` reads it back instead of running again."""
import glob
import json
import os
import re
import shutil
import subprocess
import time

from . import llvmcov

# Points of the coverage-over-time curves: the budget in tenths (ours: enough
# to see the shape, each point one replay).
TIME_POINTS = 10


def timed(cmd, log, cwd=None, env=None):
    """Runs `cmd` with its output in `log`; (exit code, wall seconds, peak RSS
    in MiB of the process and the children it waited for)."""
    start = time.monotonic()
    with open(log, "w") as f:
        f.write(" ".join(cmd) + "\n")
        f.flush()
        p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=cwd, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, time.monotonic() - start, usage.ru_maxrss / 1024.0


def suite_binary(suite_dir):
    """The generated suite's passing-test binary in its coverage build."""
    cov = os.path.join(suite_dir, "build-coverage")
    for p in sorted(glob.glob(os.path.join(cov, "*_test"))):
        if not p.endswith("_failing_test") and os.access(p, os.X_OK):
            return p
    return None


def run_mosaic(mosaic, build_dir, unit, seed, budget, out, extra=(), work=None):
    """`mosaic generate` on one unit (`extra`: more options); returns its
    statistics with the wall time and peak memory added (or {"error": ...}).
    `work`: a work folder shared by the units of one subject (mosaic caches
    the project's compiled files there), kept; else OUT/work, removed."""
    os.makedirs(out, exist_ok=True)
    stats = os.path.join(out, "stats.json")
    if os.path.exists(stats):
        with open(stats) as f:
            return json.load(f)
    generated = os.path.join(out, "generate.json")
    cmd = [mosaic, "generate", "-p", build_dir, unit, "-o", os.path.join(out, "suite"), "--budget", f"{budget}s",
           "--seed", str(seed), "--json", generated, "--no-progress", "--work-dir", work or os.path.join(out, "work")] + list(extra)
    code, wall, peak = timed(cmd, os.path.join(out, "generate.log"))
    if code not in (0, 1) or not os.path.exists(generated):
        result = {"error": f"mosaic generate exited {code} (see {os.path.join(out, 'generate.log')})"}
    else:
        with open(generated) as f:
            result = json.load(f)
        # mosaic's own process when it says (RUSAGE_CHILDREN here would
        # include the generated test binaries it runs).
        result["wall_seconds"], result["peak_mib"] = wall, result.get("peak_rss_mib", peak)
    # The harness and build folders are large; the suite and its statistics stay.
    shutil.rmtree(os.path.join(out, "work"), ignore_errors=True)
    with open(stats, "w") as f:
        json.dump(result, f, indent=1)
    return result


def replay_suite(binary, tests, out, name):
    """Runs the suite binary (only `tests` when given: GoogleTest names);
    returns its merged profile."""
    cmd = [binary]
    if tests is not None:
        if not tests:
            return None
        cmd.append("--gtest_filter=" + ":".join(tests))
    def run(env):
        env = dict(env, ASAN_OPTIONS="detect_leaks=0")
        quiet = dict(cwd=os.path.dirname(binary), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if subprocess.run(cmd, timeout=900, **quiet).returncode == 0:
            return
        # A test died in the coverage build (it may read past what it built:
        # another memory layout than where it passed) and took the profile
        # of the whole process with it: each test alone, so the rest count.
        for test in tests if tests is not None else _list_tests(binary):
            try:
                subprocess.run([binary, "--gtest_filter=" + test], timeout=60, **quiet)
            except subprocess.TimeoutExpired:
                pass
    return llvmcov.profiled(out, name, run)


def _list_tests(binary):
    """GoogleTest names in `binary` (Suite.Name), from --gtest_list_tests."""
    r = subprocess.run([binary, "--gtest_list_tests"], capture_output=True, text=True, cwd=os.path.dirname(binary))
    names, suite = [], ""
    for line in r.stdout.splitlines():
        if not line.strip() or line.startswith("Running main"):
            continue
        if not line.startswith(" "):
            suite = line.split("#")[0].strip()
        else:
            names.append(suite + line.split("#")[0].strip())
    return names


def mosaic_over_time(stats, binary, unit, budget, out):
    """llvm-cov branch coverage of the unit by the generated tests whose
    goals were all covered by time t, for TIME_POINTS values of t."""
    tests = [t for t in stats.get("suite", []) if not t.get("failing")]
    curve = []
    for k in range(1, TIME_POINTS + 1):
        t = budget * k / TIME_POINTS
        names = [x["name"] for x in tests if x.get("found_at", 0) <= t]
        profdata = replay_suite(binary, names, out, "over-time")
        cov = llvmcov.measure(profdata, [binary], [unit])[unit] if profdata else None
        curve.append({"seconds": t, "branches_covered": cov.branches_covered if cov else 0})
    return curve


_STAT = re.compile(r"^stat::(\w+):\s+(\d+)", re.M)


def run_libfuzzer(fuzz_binary, seed, budget, out):
    """libFuzzer on one shipped harness from an empty corpus, one process,
    for `budget` seconds (restarted after each crash, keeping the corpus);
    returns executions, executions per second and crash artifacts."""
    stats_path = os.path.join(out, "stats.json")
    if os.path.exists(stats_path):
        with open(stats_path) as f:
            return json.load(f)
    corpus, crashes = os.path.join(out, "corpus"), os.path.join(out, "crashes")
    shutil.rmtree(corpus, ignore_errors=True)
    shutil.rmtree(crashes, ignore_errors=True)
    os.makedirs(corpus)
    os.makedirs(crashes)
    start, start_wall = time.monotonic(), time.time()
    executions, restarts = 0, 0
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0")
    while True:
        left = budget - (time.monotonic() - start)
        if left < 1:
            break
        log = os.path.join(out, f"fuzz-{restarts}.log")
        # -timeout: a hang is a finding after 1 s (mosaic's is 100 ms);
        # -rss_limit_mb: libFuzzer's default 2048.
        cmd = [fuzz_binary, f"-seed={seed + restarts}", f"-max_total_time={int(left)}", "-print_final_stats=1",
               "-timeout=1", "-rss_limit_mb=2048", "-artifact_prefix=" + crashes + "/", corpus]
        with open(log, "w") as f:
            subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, timeout=left + 60)
        with open(log, errors="replace") as f:
            stats = dict((k, int(v)) for k, v in _STAT.findall(f.read()))
        executions += stats.get("number_of_executed_units", 0)
        restarts += 1
    elapsed = time.monotonic() - start
    result = {"executions": executions, "executions_per_second": executions / elapsed if elapsed else 0,
              "restarts": restarts - 1, "crash_artifacts": len(os.listdir(crashes)), "seconds": elapsed,
              "start_wall": start_wall, "corpus_files": len(os.listdir(corpus))}
    with open(stats_path, "w") as f:
        json.dump(result, f, indent=1)
    return result


def replay_corpus(cov_binary, files, out, name):
    """Replays corpus files through the coverage build; its merged profile."""
    if not files:
        return None
    batch = 2000  # inputs per process: keeps each command line short
    def replay(env):
        def run(inputs):
            return subprocess.run([cov_binary, "-runs=0"] + inputs, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, timeout=900).returncode
        for i in range(0, len(files), batch):
            # A crashing input ends its process before the profile is
            # written: then every input of the batch runs in a process of
            # its own.
            if run(files[i:i + batch]) != 0:
                for f in files[i:i + batch]:
                    run([f])
    return llvmcov.profiled(out, name, replay)


def corpus_files(out):
    """(path, seconds after the run started) for each corpus and crash file."""
    with open(os.path.join(out, "stats.json")) as f:
        start_wall = json.load(f)["start_wall"]
    found = []
    for sub in ("corpus", "crashes"):
        for p in glob.glob(os.path.join(out, sub, "*")):
            found.append((p, os.path.getmtime(p) - start_wall))
    return found

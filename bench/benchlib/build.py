"""Fetching a subject and building it three ways, each step cached by a
marker file so that a second `bench/run` skips what is done:

- build/      as Debian builds it (build type None), clang-19, with
              compile_commands.json: what mosaic generates from (CMake
              and autotools out of tree; a plain Makefile in a copy whose
              paths are given back to the source, see _make_in_copy);
- build-cov/  the same with clang source-based coverage, where the
              library's own tests run;
- fuzz/       the shipped fuzz harnesses, once with libFuzzer + ASan (to
              fuzz) and once with coverage (to replay the corpus).
"""
import glob
import json
import os
import shlex
import shutil
import subprocess

CC, CXX = "clang-19", "clang++-19"
# Source-based coverage as SUBJECTS.md measured it (-O0 keeps every region).
COVERAGE_FLAGS = "-O0 -g -fprofile-instr-generate -fcoverage-mapping"


class StepFailed(Exception):
    pass


def sh(cmd, cwd, log, env=None, timeout=None):
    """Runs `cmd`, appending its output to `log`; raises StepFailed with the
    log's tail when it fails."""
    with open(log, "a") as f:
        f.write(f"$ {cmd if isinstance(cmd, str) else shlex.join(cmd)}\n")
        f.flush()
        r = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT, env=env, timeout=timeout,
                           shell=isinstance(cmd, str))
    if r.returncode != 0:
        with open(log) as f:
            tail = f.read()[-2000:]
        raise StepFailed(f"{cmd if isinstance(cmd, str) else shlex.join(cmd)} failed ({r.returncode}):\n{tail}")


def cached(marker, step):
    if os.path.exists(marker):
        return
    step()
    open(marker, "w").close()


def fetch(subject, root, skip_patches=False):
    """apt-get source of the subject's pinned version (a security update may
    have replaced it as the newest, and the archive may no longer serve the
    newest's files) into ROOT/fetch, unpacked (with Debian's patches, or
    without them) into ROOT/src. Returns the .dsc's file name."""
    src = os.path.join(root, "src")
    def step():
        fetch_dir = os.path.join(root, "fetch")
        if not glob.glob(os.path.join(fetch_dir, "*.dsc")):
            os.makedirs(fetch_dir, exist_ok=True)
            sh(["apt-get", "source", "-q", "--download-only",
                f"{subject.name}={subject.version}"], fetch_dir, os.path.join(root, "fetch.log"))
        dsc = sorted(glob.glob(os.path.join(fetch_dir, "*.dsc")))[-1]
        shutil.rmtree(src, ignore_errors=True)
        cmd = ["dpkg-source", "-x"] + (["--skip-patches"] if skip_patches else []) + [dsc, src]
        sh(cmd, root, os.path.join(root, "fetch.log"))
    os.makedirs(root, exist_ok=True)
    cached(os.path.join(root, ".fetched"), step)
    return os.path.basename(sorted(glob.glob(os.path.join(root, "fetch", "*.dsc")))[-1])


def _env(cflags=""):
    env = dict(os.environ, CC=CC, CXX=CXX)
    if cflags:
        env.update(CFLAGS=cflags, CXXFLAGS=cflags, LDFLAGS=cflags)
    return env


def _autoreconf(src, log):
    """Generates `configure` where a tarball made from git lacks it, as
    Debian's dh_autoreconf does (autoconf, automake and libtool installed)."""
    if not os.path.exists(os.path.join(src, "configure")):
        sh(["autoreconf", "-f", "-i"], src, log)


def _configure_and_build(subject, src, out, log, cflags, compile_db):
    src = os.path.normpath(os.path.join(src, subject.subdir))
    if subject.build == "cmake":
        sh(["cmake", "-S", src, "-B", out, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=None",
            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"] + subject.cmake_args, src, log, env=_env(cflags))
        sh(["cmake", "--build", out], src, log)
    elif subject.build == "autotools":
        # Out of tree (VPATH), so that every build sees the same source paths.
        os.makedirs(out, exist_ok=True)
        _autoreconf(src, log)
        sh([os.path.join(src, "configure")] + subject.configure_args, out, log, env=_env(cflags))
        sh(_bear(out, compile_db) + ["make", f"-j{os.cpu_count() or 2}"], out, log)
        if compile_db:
            _dedupe_libtool(os.path.join(out, "compile_commands.json"))
    elif subject.build == "make":
        _make_in_copy(subject, src, out, log, cflags, compile_db)
    else:
        raise StepFailed(f"unknown build system {subject.build}")


def _bear(out, compile_db):
    """The prefix that records OUT/compile_commands.json, when wanted."""
    return ["bear", "--output", os.path.join(out, "compile_commands.json"), "--"] if compile_db else []


def _make_in_copy(subject, src, out, log, cflags, compile_db):
    """A plain Makefile builds in its own folder: `make` the subject's
    targets in OUT, a copy of SRC, and give every path back to SRC. Coverage
    mappings name SRC's files (-fcoverage-prefix-map), and the compile
    database names SRC as each entry's folder and file, so that llvm-cov and
    mosaic see one set of source paths across builds (the copy is identical,
    so each command also compiles in SRC)."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(src, out, symlinks=True)
    if cflags:
        cflags += f" -fcoverage-prefix-map={out}={src}"
    if subject.pre_make:
        sh(subject.pre_make, out, log, env=_env(cflags))
        _copy_generated(out, src)
    # A Makefile that assigns its own CFLAGS gets the flags on make's command line.
    flag_vars = [f"{v}={cflags}" for v in subject.make_flag_vars]
    sh(_bear(out, compile_db) + ["make", f"-j{os.cpu_count() or 2}"] + subject.make_targets + flag_vars,
       out, log, env=_env(cflags))
    if compile_db:
        _retarget_db(os.path.join(out, "compile_commands.json"), out, src)


def _copy_generated(out, src):
    """Copies to SRC the files a configure step made in OUT (mxml's
    config.h): the compile database sends each compile to SRC, where they
    must exist too. Files SRC already has are left as they are."""
    for folder, _, files in os.walk(out):
        for name in files:
            rel = os.path.relpath(os.path.join(folder, name), out)
            if not os.path.lexists(os.path.join(src, rel)):
                os.makedirs(os.path.dirname(os.path.join(src, rel)), exist_ok=True)
                shutil.copy2(os.path.join(out, rel), os.path.join(src, rel), follow_symlinks=False)


def _retarget_db(db_path, old, new):
    """Rewrites a compile database's paths under folder `old` to `new`:
    each entry's directory, file and output, and its arguments that are such
    paths, alone or joined to -I, -isystem, -iquote, -include or -o."""
    def moved(path):
        if path == old or path.startswith(old + os.sep):
            return new + path[len(old):]
        return path
    def moved_arg(a):
        for flag in ("-I", "-isystem", "-iquote", "-include", "-o"):
            if a.startswith(flag) and os.path.isabs(a[len(flag):]):
                return flag + moved(a[len(flag):])
        return moved(a)
    with open(db_path) as f:
        entries = json.load(f)
    for e in entries:
        e["directory"] = moved(e["directory"])
        e["file"] = moved(e["file"])
        if "output" in e:
            e["output"] = moved(e["output"])
        if "arguments" in e:
            e["arguments"] = [moved_arg(a) for a in e["arguments"]]
        else:
            e["command"] = shlex.join(moved_arg(a) for a in shlex.split(e["command"]))
    with open(db_path, "w") as f:
        json.dump(entries, f, indent=1)


def _dedupe_libtool(db_path):
    """libtool compiles every file twice (PIC and not); keep the first entry
    per source file."""
    with open(db_path) as f:
        entries = json.load(f)
    seen, kept = set(), []
    for e in entries:
        key = os.path.normpath(os.path.join(e["directory"], e["file"]))
        if key not in seen:
            seen.add(key)
            kept.append(e)
    with open(db_path, "w") as f:
        json.dump(kept, f, indent=1)


def _prepare(subject, src, log):
    """The subject's `prepare` command, in the source, as debian/rules
    generates files in the tree before it builds."""
    if subject.prepare:
        sh(subject.prepare, src, log, env=_env())


def build(subject, root):
    """ROOT/build: the subject as Debian builds it, with its compile database."""
    src, out = os.path.join(root, "src"), os.path.join(root, "build")
    def step():
        shutil.rmtree(out, ignore_errors=True)
        _prepare(subject, src, os.path.join(root, "build.log"))
        _configure_and_build(subject, src, out, os.path.join(root, "build.log"), "", True)
    cached(os.path.join(root, ".built"), step)
    return out


def build_coverage(subject, root):
    """ROOT/build-cov: the same build with source-based coverage."""
    src, out = os.path.join(root, "src"), os.path.join(root, "build-cov")
    def step():
        shutil.rmtree(out, ignore_errors=True)
        _prepare(subject, src, os.path.join(root, "build-cov.log"))
        flags = COVERAGE_FLAGS + (" " + subject.coverage_flags if subject.coverage_flags else "")
        _configure_and_build(subject, src, out, os.path.join(root, "build-cov.log"), flags, False)
    cached(os.path.join(root, ".built-cov"), step)
    return out


def run_own_tests(subject, root, out_dir, timeout):
    """Runs the library's own tests in the coverage build; returns
    (profdata or None, instrumented binaries, passed: bool)."""
    from . import llvmcov
    cov = os.path.join(root, "build-cov")
    log = os.path.join(out_dir, "own-tests.log")
    cmd = subject.tests if subject.tests != ["ctest"] else ["ctest", "--timeout", "300", "-j2"]
    passed = True
    def run(env):
        nonlocal passed
        try:
            sh(cmd, cov, log, env=dict(env, **subject.test_env), timeout=timeout)
        except (StepFailed, subprocess.TimeoutExpired):
            passed = False  # coverage of what ran still counts; the table says the suite failed
    # %m: one file per instrumented module, so an executable and the
    # instrumented shared library it loads do not write the same file.
    profdata = llvmcov.profiled(out_dir, "own", run, "%p-%m.profraw")
    return profdata, llvmcov.instrumented_objects(cov), passed


def _compile_entries(db_path):
    with open(db_path) as f:
        entries = json.load(f)
    by_file = {}
    for e in entries:
        args = e.get("arguments") or shlex.split(e["command"])
        by_file.setdefault(os.path.realpath(os.path.join(e["directory"], e["file"])), (e["directory"], args))
    return by_file


def _flags_of(args, directory):
    """A compile command's flags without compiler, inputs and outputs;
    include paths made absolute."""
    flags, skip = [], False
    for a in args[1:]:
        if a.startswith("-I") and len(a) > 2 and not os.path.isabs(a[2:]):
            a = "-I" + os.path.normpath(os.path.join(directory, a[2:]))
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD") or a.endswith((".c", ".cc", ".cpp", ".cxx")):
            continue
        if a.startswith(("-O", "-Werror", "-flto")):
            continue
        flags.append(a)
    return flags


def build_fuzzer(subject, fuzzer, root, kind):
    """ROOT/fuzz/<name>-<kind>: `kind` "fuzz" (libFuzzer + ASan, -O1),
    "plain" (libFuzzer alone, the library at its compile-database
    optimisation: as mosaic's search harness builds it, bench/speed) or
    "cov" (libFuzzer's driver + coverage, -O0) over the harness and the
    library files it needs, each with its compile-database flags."""
    src = os.path.join(root, "src")
    out_dir = os.path.join(root, "fuzz")
    os.makedirs(out_dir, exist_ok=True)
    binary = os.path.join(out_dir, f"{fuzzer.name}-{kind}")
    extra = {"fuzz": ["-O1", "-g", "-fsanitize=fuzzer,address"], "plain": ["-g", "-fsanitize=fuzzer"],
             "cov": COVERAGE_FLAGS.split() + ["-fsanitize=fuzzer"]}[kind]
    def step():
        entries = _compile_entries(os.path.join(root, "build", "compile_commands.json"))
        log = os.path.join(out_dir, f"{fuzzer.name}-{kind}.log")
        objects, lib_flags = [], None
        for rel in fuzzer.sources:
            path = os.path.realpath(os.path.join(src, rel))
            if path not in entries:
                raise StepFailed(f"{rel} is not in the compile database")
            directory, args = entries[path]
            flags = _flags_of(args, directory)
            lib_flags = lib_flags or flags
            obj = os.path.join(out_dir, f"{fuzzer.name}-{kind}-{os.path.basename(rel)}.o")
            compiler = CXX if rel.endswith((".cc", ".cpp", ".cxx")) else CC
            sh([compiler] + flags + extra + ["-c", path, "-o", obj], directory, log)
            objects.append(obj)
        harness = os.path.join(src, fuzzer.harness)
        compiler = CXX if harness.endswith((".cc", ".cpp", ".cxx")) else CC
        includes = [f for f in lib_flags if f.startswith(("-I", "-D", "-std="))]
        includes += ["-I" + os.path.dirname(os.path.join(src, r)) for r in fuzzer.sources]
        obj = os.path.join(out_dir, f"{fuzzer.name}-{kind}-harness.o")
        sh([compiler] + includes + fuzzer.defines + extra + ["-c", harness, "-o", obj], src, log)
        sh([CXX] + extra + [obj] + objects + ["-lm", "-o", binary], src, log)
    cached(binary + ".built", step)
    return binary

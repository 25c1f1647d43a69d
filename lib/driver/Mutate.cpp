// mosaic mutate: a suite's mutation score on a unit, through mutant schemata.
#include "mosaic/driver/Mutate.h"

#include "mosaic/abi/Hooks.h"
#include "mosaic/driver/Toolchain.h"
#include "mosaic/model/Description.h"
#include "mosaic/support/Process.h"
#include "mosaic/support/Random.h"

#include "Interrupt.h"
#include "SuiteRunner.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace mosaic::driver {

namespace {

enum class Fate { Killed, Survived, NotCovered };

const char *fateName(Fate f) { return f == Fate::Killed ? "killed" : f == Fate::Survived ? "survived" : "not covered"; }

struct Tally {
  size_t killed = 0, survived = 0, notCovered = 0;
  void add(Fate f) { ++(f == Fate::Killed ? killed : f == Fate::Survived ? survived : notCovered); }
  size_t total() const { return killed + survived + notCovered; }
  double score() const { return total() ? 100.0 * static_cast<double>(killed) / static_cast<double>(total()) : 0.0; }
};

// A CTest run of the mutated build, contained as a written suite's runs
// are (the mutants are new code nobody vetted), with `env` added.
ProcessOptions contained(const fs::path &build, std::vector<std::pair<std::string, std::string>> env,
                         const volatile std::sig_atomic_t *stop) {
  ProcessOptions o = sandboxedRun(build.string(), stop, VerifyOptions{}.maxProcesses);
  o.env = std::move(env);
  return o;
}

// An extended regular expression matching exactly these test names.
std::string exactly(const std::vector<std::string> &names) {
  std::string re = "^(";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) re += "|";
    for (char ch : names[i]) {
      if (std::string_view("\\^$.|?*+()[]{}").find(ch) != std::string_view::npos) re += '\\';
      re += ch;
    }
  }
  return re + ")$";
}

// The tests the last CTest run in `build` saw fail (Testing/Temporary/
// LastTestsFailed.log: "index:name" lines).
std::vector<std::string> lastFailed(const fs::path &build) {
  std::vector<std::string> out;
  std::ifstream in(build / "Testing" / "Temporary" / "LastTestsFailed.log");
  for (std::string line; std::getline(in, line);)
    if (const size_t colon = line.find(':'); colon != std::string::npos) out.push_back(line.substr(colon + 1));
  return out;
}

// The mutants the sites in MOSAIC_MUTANT_REACHED's file stand for.
std::set<std::uint32_t> reachedMutants(const fs::path &file) {
  std::set<std::uint32_t> out;
  std::ifstream in(file);
  std::uint32_t first = 0, n = 0;
  while (in >> first >> n)
    for (std::uint32_t k = 0; k < n; ++k) out.insert(first + k);
  return out;
}

struct Sampled {
  const model::MutantInfo *mutant = nullptr;
  Fate fate = Fate::NotCovered;
};

// What every compile of a suite needs for the pass to compile the unit's
// mutants in (schemata mode) and describe them: its environment, and the
// flags (-g: the pass finds the unit's functions by their debug
// information; DWARF 4, which Debian 12's valgrind reads, as suites that run
// their tests under valgrind need: json-c's). Either build below passes
// them on.
std::vector<std::pair<std::string, std::string>> schemataEnvironment(const fs::path &unit,
                                                                     const fs::path &description) {
  return {{MOSAIC_ENV_PASS_UNIT, unit.string()},
          {MOSAIC_ENV_PASS_MUTANTS, "schemata"},
          {MOSAIC_ENV_PASS_DESCRIPTION, description.string()}};
}
std::string schemataFlags(const harness::Toolchain &tc) { return "-gdwarf-4 -fpass-plugin=" + tc.passPlugin; }

// mosaic mutate's compilers: the pass in schemata mode on every compile (it
// instruments only the unit's file, named by the environment), the
// mutation runtime last on every link, and -Wno-error last: a project that
// builds with -Werror under its own compiler must not fail under Clang for
// a warning (json-c's -Wstrict-prototypes), as the harness's compile drops
// -Werror too.
// Writes the script unless it already says the same (its build stays up to
// date); whether it changed.
bool writeCompiler(const fs::path &path, const std::string &compiler, const harness::Toolchain &tc) {
  // Ours after the project's: the last -g and -W(no-)error win.
  const std::string flags = schemataFlags(tc) + " -Wno-error";
  const std::string text = "#!/bin/sh\n# mosaic mutate: " + compiler + " with the unit's mutants compiled in.\n" +
                           "for a in \"$@\"; do case \"$a\" in -c|-S|-E|-M|-MM) exec " + compiler + " \"$@\" " +
                           flags + ";; esac; done\n" + "exec " + compiler + " \"$@\" " + flags + " " +
                           tc.mutateRuntime + "\n";
  std::ifstream in(path);
  if (std::string(std::istreambuf_iterator<char>(in), {}) == text) return false;
  std::ofstream(path) << text;
  fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec, fs::perm_options::replace);
  return true;
}

// writeCompiler's two scripts in `dir`, for C and for C++; whether either
// changed (a build made with the old ones is stale: its objects carry
// another pass, and an up-to-date build would not describe the mutants).
struct Compilers {
  fs::path cc, cxx;
  bool changed = false;
};
Compilers writeCompilers(const fs::path &dir, const harness::Toolchain &tc) {
  Compilers c{dir / "mosaic-cc", dir / "mosaic-c++"};
  c.changed = writeCompiler(c.cc, tc.clang, tc);
  c.changed = writeCompiler(c.cxx, tc.clangxx, tc) || c.changed;
  return c;
}

// The suite built by CMake in `build` with writeCompilers' compilers (and
// the options' -D definitions); kExitOk or the exit code, the error printed.
int buildWithCMake(const MutateOptions &options, const harness::Toolchain &tc, const fs::path &suite,
                   const fs::path &build, const fs::path &work, const fs::path &unit, const fs::path &description,
                   std::ostream &out, std::ostream &err) {
  const auto [cc, cxx, changed] = writeCompilers(work, tc);
  std::error_code ec;
  // Without the description (a first build, or one that failed) too.
  if (changed || !fs::exists(description)) {
    fs::remove_all(build, ec);
    fs::remove(description, ec);
  }
  std::vector<std::string> configure{"cmake", "-S", suite.string(), "-B", build.string(), "-G", "Ninja",
                                     "-DCMAKE_C_COMPILER=" + cc.string(), "-DCMAKE_CXX_COMPILER=" + cxx.string()};
  for (const std::string &d : options.defines) configure.push_back("-D" + d);
  fmt::print(out, "building     {} with the mutants of {} compiled in...\n", suite.string(), unit.filename().string());
  const ProcessOptions o{.directory = work.string(), .env = schemataEnvironment(unit, description)};
  for (const auto &argv : {configure, std::vector<std::string>{"cmake", "--build", build.string()}}) {
    auto r = runProcess(argv, o);
    if (!r || r->exitCode != 0) {
      fmt::print(err, "mosaic: error: the suite does not build with the mutants: {}\n{}\n", commandLine(argv),
                 r ? r->output : r.error().message);
      return kExitUsage;
    }
  }
  return kExitOk;
}

// The suite folder copied into `src` and built there by --build, with CC
// and CXX set to writeCompiler's; kExitOk or the exit code.
int buildWithCommands(const MutateOptions &options, const harness::Toolchain &tc, const fs::path &suite,
                      const fs::path &src, const fs::path &inSuite, const fs::path &description, std::ostream &out,
                      std::ostream &err) {
  std::error_code ec;
  fs::remove_all(src, ec);
  fs::copy(suite, src, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) {
    fmt::print(err, "mosaic: error: cannot copy the suite '{}' to '{}': {}\n", suite.string(), src.string(),
               ec.message());
    return kExitUsage;
  }
  const auto [cc, cxx, changed] = writeCompilers(src.parent_path(), tc);
  fmt::print(out, "building     a copy of {} with the mutants of {} compiled in ({})...\n", suite.string(),
             inSuite.filename().string(), options.buildCommand);
  ProcessOptions o{.directory = src.string(), .env = schemataEnvironment(src / inSuite, description)};
  o.env.insert(o.env.end(), {{"CC", cc.string()}, {"CXX", cxx.string()}});
  auto r = runProcess({"/bin/sh", "-c", options.buildCommand}, o);
  if (!r || r->exitCode != 0) {
    fmt::print(err, "mosaic: error: the suite does not build with the mutants: {}\n{}\n", options.buildCommand,
               r ? r->output : r.error().message);
    return kExitUsage;
  }
  return kExitOk;
}

// The sample: uniform over every mutant the pass made (at most `most`,
// 0 for all), in id order.
std::vector<const model::MutantInfo *> sampleMutants(const model::UnitDescription &d, std::uint64_t seed, size_t most) {
  std::vector<const model::MutantInfo *> all;
  for (const model::FunctionInfo &f : d.functions)
    for (const model::MutantInfo &m : f.mutants) all.push_back(&m);
  Rng rng(seed);
  for (size_t i = all.size(); i > 1; --i) std::swap(all[i - 1], all[rng.index(i)]);
  if (most && all.size() > most) all.resize(most);
  std::sort(all.begin(), all.end(), [](auto *a, auto *b) { return a->id < b->id; });
  return all;
}

// The score, by operator, the lines with the most survivors, and (--json)
// every sampled mutant's fate.
void report(const MutateOptions &options, const fs::path &unit, const fs::path &suite,
            const model::UnitDescription &description, const std::vector<Sampled> &sampled,
            const std::vector<std::string> &failing, double cleanSeconds, bool interrupted, std::ostream &out) {
  Tally total;
  std::map<std::string, Tally> byOperator;
  std::map<std::uint32_t, Tally> byLine;
  for (const Sampled &s : sampled) {
    total.add(s.fate);
    byOperator[s.mutant->op].add(s.fate);
    byLine[s.mutant->line].add(s.fate);
  }
  const std::string file = unit.filename().string();
  fmt::print(out, "mutants      {} sampled of {} (seed {}){}\n", sampled.size(), description.mutants, options.seed,
             interrupted ? ", interrupted" : "");
  fmt::print(out, "score        {:.1f}%: {} killed, {} survived, {} not covered\n", total.score(), total.killed,
             total.survived, total.notCovered);
  for (const auto &[op, t] : byOperator)
    fmt::print(out, "  {}          {:.1f}%: {} killed, {} survived, {} not covered\n", op, t.score(), t.killed,
               t.survived, t.notCovered);
  // Where the suite checks least: the lines with the most survivors.
  std::vector<std::pair<std::uint32_t, Tally>> lines(byLine.begin(), byLine.end());
  std::sort(lines.begin(), lines.end(), [](auto &a, auto &b) {
    return a.second.survived != b.second.survived ? a.second.survived > b.second.survived : a.first < b.first;
  });
  for (size_t i = 0; i < lines.size() && i < 5 && lines[i].second.survived; ++i)
    fmt::print(out, "  survivors at {}:{}: {} of {}\n", file, lines[i].first, lines[i].second.survived,
               lines[i].second.total());

  if (!options.jsonOut.empty()) {
    nlohmann::json j;
    j["unit"] = unit.string();
    j["suite"] = suite.string();
    j["seed"] = options.seed;
    j["mutants_total"] = description.mutants;
    j["sampled"] = sampled.size();
    j["interrupted"] = interrupted;
    j["failing_on_original"] = failing;
    j["original_seconds"] = cleanSeconds;
    auto tally = [](const Tally &t) {
      return nlohmann::json{{"killed", t.killed}, {"survived", t.survived}, {"not_covered", t.notCovered},
                            {"score", t.score()}};
    };
    j["total"] = tally(total);
    for (const auto &[op, t] : byOperator) j["by_operator"][op] = tally(t);
    for (const auto &[line, t] : byLine) j["by_line"][std::to_string(line)] = tally(t);
    for (const Sampled &s : sampled)
      j["mutants"].push_back({{"id", s.mutant->id}, {"line", s.mutant->line}, {"column", s.mutant->column},
                              {"operator", s.mutant->op}, {"original", s.mutant->original},
                              {"replacement", s.mutant->replacement}, {"subsuming", s.mutant->subsuming},
                              {"fate", fateName(s.fate)}});
    std::ofstream(options.jsonOut) << j.dump(1) << "\n";
  }
}

} // namespace

int mutate(const MutateOptions &options, std::ostream &out, std::ostream &err) {
  std::error_code ec;
  const fs::path unit = fs::weakly_canonical(options.unit.unit, ec);
  if (!fs::is_regular_file(unit)) {
    fmt::print(err, "mosaic: error: no such unit file '{}'\n", options.unit.unit);
    return kExitUsage;
  }
  const fs::path suite = fs::weakly_canonical(fs::absolute(options.suite), ec);
  const bool commands = !options.testCommand.empty();
  if (!commands && !fs::is_regular_file(suite / "CMakeLists.txt")) {
    fmt::print(err,
               "mosaic: error: the suite '{}' is not a CMake project (no CMakeLists.txt); for one another build "
               "system runs, give the command that runs its tests (--test 'make check')\n",
               options.suite);
    return kExitUsage;
  }
  const fs::path inSuite = fs::relative(unit, suite, ec);
  if (commands && (!fs::is_directory(suite) || inSuite.empty() || *inSuite.begin() == "..")) {
    fmt::print(err, "mosaic: error: with --test, the suite folder must hold the unit ('{}' is not in '{}')\n",
               unit.string(), suite.string());
    return kExitUsage;
  }
  const fs::path buildDir = fs::path(options.unit.buildDir).extension() == ".json"
                                ? fs::path(options.unit.buildDir).parent_path()
                                : fs::path(options.unit.buildDir);
  // A folder per unit and suite: CMake keeps one source folder per build
  // folder, so a second suite of the same unit cannot reuse the first's.
  const fs::path work = fs::absolute(options.workDir.empty() ? buildDir / "mosaic" : fs::path(options.workDir)) /
                        fmt::format("mutate-{}-{:08x}", unit.stem().string(),
                                    static_cast<std::uint32_t>(fnv1a(fs::weakly_canonical(suite).string())));
  const fs::path build = work / "build", description = work / "description.json", reached = work / "reached.txt";
  fs::create_directories(work, ec);
  // The description stays: a build that finds the unit's objects up to
  // date does not write it again (a --test suite's copy is built afresh,
  // and buildWithCMake starts over when the compilers changed).
  if (commands) fs::remove(description, ec);
  const harness::Toolchain tc = toolchain();

  // One build: the unit's instructions carry every mutant, the rest of the
  // suite is compiled as it is; the pass instruments only the unit's file.
  // With --test, in a copy of the suite folder (the project's own tree is
  // left as it was), and the tests run there.
  const fs::path where = commands ? work / "src" : build;
  if (auto built = commands ? buildWithCommands(options, tc, suite, where, inSuite, description, out, err)
                            : buildWithCMake(options, tc, suite, build, work, unit, description, out, err);
      built != kExitOk)
    return built;
  auto d = model::readDescription(description.string());
  if (!d) {
    fmt::print(err, "mosaic: error: the suite's build did not compile '{}' (no mutant description: {})\n",
               unit.string(), d.error().message);
    return kExitUsage;
  }

  InterruptGuard interrupt;
  // The original: which tests pass, which mutants they reach, how long it takes.
  fs::remove(reached, ec);
  // CTest leaves the list of a run with failures in place when the next
  // passes: the last mutant of an earlier run of mutate must not name
  // tests failing on the original.
  fs::remove(build / "Testing" / "Temporary" / "LastTestsFailed.log", ec);
  const auto start = std::chrono::steady_clock::now();
  // --test's command under `timeout` (what CTest's --timeout is to CTest).
  auto testCommand = [&](const std::string &seconds) {
    return std::vector<std::string>{"timeout", seconds, "/bin/sh", "-c", options.testCommand};
  };
  auto clean = runProcess(commands ? testCommand("600")
                                   : std::vector<std::string>{"ctest", "--test-dir", build.string(), "-j", "2",
                                                              "--timeout", "600"},
                          contained(where, {{MOSAIC_ENV_MUTANT_REACHED, reached.string()}}, interrupt.flag()));
  const double cleanSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!clean) {
    fmt::print(err, "mosaic: error: {}\n", clean.error().message);
    return kExitInternal;
  }
  // A command's tests are one: they must all pass on the original.
  if (commands && clean->exitCode != 0) {
    fmt::print(err, "mosaic: error: the suite's tests fail on the original code (exit code {}): {}\n{}\n",
               clean->exitCode, options.testCommand, clean->output);
    return kExitUsage;
  }
  const std::vector<std::string> failing = commands ? std::vector<std::string>{} : lastFailed(build);
  if (!commands && (clean->output.find("No tests were found") != std::string::npos ||
                    (clean->output.find("100% tests passed") == std::string::npos && failing.empty() &&
                     clean->exitCode != 0))) {
    fmt::print(err, "mosaic: error: the suite's tests did not run:\n{}\n", clean->output);
    return kExitUsage;
  }
  // Only the tests that pass count: what a failing one reaches is not covered.
  if (!failing.empty()) {
    fs::remove(reached, ec);
    auto again = runProcess({"ctest", "--test-dir", build.string(), "-j", "2", "--timeout", "600", "-E",
                             exactly(failing)},
                            contained(build, {{MOSAIC_ENV_MUTANT_REACHED, reached.string()}}, interrupt.flag()));
    if (!again) {
      fmt::print(err, "mosaic: error: {}\n", again.error().message);
      return kExitInternal;
    }
  }
  const std::set<std::uint32_t> covered = reachedMutants(reached);

  const std::vector<const model::MutantInfo *> all = sampleMutants(*d, options.seed, options.mutants);

  // Ours: a mutant whose tests run ten times as long as the original's
  // (at least 10 s each) is killed by timeout, as mutation tools count it.
  const std::string timeout = std::to_string(std::max(10, static_cast<int>(cleanSeconds * 10)));
  std::vector<std::string> ctest{"ctest", "--test-dir", build.string(), "-j", "2", "--timeout", timeout,
                                 "--stop-on-failure"};
  if (!failing.empty()) ctest.insert(ctest.end(), {"-E", exactly(failing)});
  if (commands) ctest = testCommand(timeout);
  if (commands)
    fmt::print(out, "suite        `{}` passes on the original; one run takes {:.1f} s\n", options.testCommand,
               cleanSeconds);
  else
    fmt::print(out, "suite        {} tests fail on the original and are left out; one run takes {:.1f} s\n",
               failing.size(), cleanSeconds);
  std::vector<Sampled> sampled;
  size_t done = 0;
  for (const model::MutantInfo *m : all) {
    Sampled s{m, Fate::NotCovered};
    if (covered.count(m->id) && !interrupt.raised()) {
      auto r = runProcess(ctest, contained(where, {{MOSAIC_ENV_MUTANT, std::to_string(m->id)}}, interrupt.flag()));
      if (r && !r->interrupted) s.fate = r->exitCode == 0 ? Fate::Survived : Fate::Killed;
    }
    if (interrupt.raised()) break;
    sampled.push_back(s);
    if (++done % 50 == 0) fmt::print(out, "  {} of {} mutants run\n", done, all.size());
  }

  report(options, unit, suite, *d, sampled, failing, cleanSeconds, interrupt.raised(), out);
  return kExitOk;
}

} // namespace mosaic::driver

// Building, running and repairing a written suite; llvm-cov coverage.
#include "Verify.h"

#include "mosaic/support/Process.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace mosaic::driver {

namespace fs = std::filesystem;

void writeFiles(const emit::Suite &suite, const std::string &outDir) {
  fs::create_directories(outDir);
  for (const emit::File &f : suite.files) std::ofstream(fs::path(outDir) / f.name) << f.text;
}

namespace {

// What a round of runs found wrong, by site.
struct Findings {
  std::set<std::pair<bool, size_t>> removeTests;              ///< (failing suite, index)
  std::set<std::tuple<size_t, int>> dropAssertions;          ///< (passing index, observation)
  std::set<size_t> disable;                                  ///< failing-suite tests to disable
  std::map<std::pair<bool, size_t>, std::string> compileErrors; ///< first compiler error per removed test
  std::map<size_t, std::string> runErrors;                   ///< why a passing-suite test was removed at run time
  std::string died;                                          ///< the passing-suite test the last run died in
};

// The GoogleTest name of test `index` of the passing or failing suite.
std::string testName(const emit::Suite &suite, bool failing, size_t index) {
  for (const auto &[name, site] : suite.tests)
    if (site.failing == failing && site.test == index) return name;
  return "?";
}

// Runs a suite binary under a timeout, line-buffered (stdbuf), so that a
// test the timeout kills has its "[ RUN ]" line in the output (buffered,
// expat's hanging test was never named, and every round hung again).
Expected<ProcessResult> runSuiteBinary(const fs::path &binary, const char *seconds, std::vector<std::string> args,
                                       const fs::path &dir) {
  std::vector<std::string> argv{"stdbuf", "-oL", "timeout", seconds, binary.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return runProcess(argv, {dir.string(), {}});
}

// "file:line:col: error:" lines of the compiler mapped to tests.
bool compileFindings(const emit::Suite &suite, const std::string &output, Findings &f) {
  static const std::regex error(R"(([^\s:]+):(\d+):\d+: error:)");
  bool mapped = false;
  for (std::sregex_iterator it(output.begin(), output.end(), error), end; it != end; ++it) {
    const std::string file = fs::path((*it)[1].str()).filename().string();
    auto sites = suite.sites.find(file);
    if (sites == suite.sites.end()) continue;
    const int line = std::stoi((*it)[2].str());
    // The test the line belongs to: the nearest site at or above it.
    auto s = sites->second.upper_bound(line);
    if (s == sites->second.begin()) continue;
    --s;
    f.removeTests.insert({s->second.failing, s->second.test});
    // The first error names the cause; the rest usually follow from it.
    const size_t eol = output.find('\n', static_cast<size_t>(it->position(0)));
    f.compileErrors.emplace(std::make_pair(s->second.failing, s->second.test),
                            output.substr(static_cast<size_t>(it->position(0)),
                                          eol == std::string::npos ? std::string::npos
                                                                   : eol - static_cast<size_t>(it->position(0))));
    mapped = true;
  }
  return mapped;
}

std::vector<std::pair<std::string, double>> slowTests(const nlohmann::json &j, double seconds) {
  std::vector<std::pair<std::string, double>> out;
  for (const auto &ts : j.value("testsuites", nlohmann::json::array()))
    for (const auto &t : ts.value("testsuite", nlohmann::json::array())) {
      if (t.contains("failures") || !t.contains("time") || !t["time"].is_string()) continue;
      // GoogleTest writes "71.393s".
      const std::string time = t["time"].get<std::string>();
      char *end = nullptr;
      const double s = std::strtod(time.c_str(), &end);
      if (end != time.c_str() && s > seconds) out.emplace_back(ts.value("name", "") + "." + t.value("name", ""), s);
    }
  return out;
}

// A run of a test binary: which tests failed, at which lines. False when
// the binary did not run at all (no report, no test started): then there
// is nothing to conclude from it.
bool runFindings(const emit::Suite &suite, const std::string &jsonPath, const ProcessResult &r, bool failingSuite,
                 Findings &f, double slowSeconds = 0) {
  std::ifstream in(jsonPath);
  nlohmann::json j;
  bool parsed = false;
  if (in) {
    try {
      j = nlohmann::json::parse(in);
      parsed = true;
    } catch (const std::exception &) {
    }
  }
  if (!parsed) {
    // The binary died: the test that was running when it did (named in
    // the output: runSuiteBinary).
    std::string last;
    bool started = false;
    std::istringstream lines(r.output);
    for (std::string l; std::getline(lines, l);) {
      if (l.rfind("[ RUN      ] ", 0) == 0) last = l.substr(13), started = true;
      if (l.rfind("[       OK ] ", 0) == 0 || l.rfind("[  FAILED  ] ", 0) == 0) last.clear();
    }
    if (auto it = suite.tests.find(last); it != suite.tests.end()) {
      if (failingSuite) f.disable.insert(it->second.test);
      else {
        f.removeTests.insert({it->second.failing, it->second.test});
        f.runErrors[it->second.test] = "the test binary died";
        f.died = last;
      }
    }
    return started;
  }
  if (!failingSuite && slowSeconds > 0)
    for (const auto &[name, seconds] : slowTests(j, slowSeconds))
      if (auto it = suite.tests.find(name); it != suite.tests.end() && !it->second.failing) {
        f.removeTests.insert({false, it->second.test});
        f.runErrors[it->second.test] =
            fmt::format("took {:.1f} s in the suite, over {} s: slow only outside mosaic's sandbox (its memory limit?)",
                        seconds, slowSeconds);
      }
  static const std::regex where(R"(([^\s:]+):(\d+))");
  for (const auto &ts : j.value("testsuites", nlohmann::json::array())) {
    for (const auto &t : ts.value("testsuite", nlohmann::json::array())) {
      if (!t.contains("failures")) continue;
      const std::string name = ts.value("name", "") + "." + t.value("name", "");
      auto it = suite.tests.find(name);
      if (it == suite.tests.end()) continue;
      if (failingSuite) {
        f.disable.insert(it->second.test);
        continue;
      }
      bool onAssertion = true;
      std::vector<int> observations;
      for (const auto &failure : t["failures"]) {
        const std::string text = failure.value("failure", "");
        std::smatch m;
        int observation = -1;
        if (std::regex_search(text, m, where)) {
          const std::string file = fs::path(m[1].str()).filename().string();
          auto sites = suite.sites.find(file);
          if (sites != suite.sites.end())
            if (auto s = sites->second.find(std::stoi(m[2].str())); s != sites->second.end())
              observation = s->second.observation;
        }
        if (observation < 0) onAssertion = false;
        else observations.push_back(observation);
      }
      if (!onAssertion) {
        f.removeTests.insert({false, it->second.test});
        const std::string text = t["failures"].empty() ? std::string() : t["failures"][0].value("failure", "");
        std::string brief = text.substr(0, 300);
        std::replace(brief.begin(), brief.end(), '\n', ' ');
        f.runErrors[it->second.test] = brief;
      } else
        for (int o : observations) f.dropAssertions.insert({it->second.test, o});
    }
  }
  return true;
}

LlvmCoverage measureCoverage(const model::Program &program, const std::string &outDir, const std::string &binaryName,
                             const std::vector<std::string> &tests, const VerifyOptions &o) {
  LlvmCoverage c;
  const fs::path dir = fs::path(outDir) / "build-coverage";
  auto configure = runProcess({"cmake", "-S", outDir, "-B", dir.string(), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Debug",
                               "-DMOSAIC_COVERAGE=ON", "-DCMAKE_C_COMPILER=" + o.clang, "-DCMAKE_CXX_COMPILER=" + o.clangxx});
  auto build = configure && configure->exitCode == 0 ? runProcess({"cmake", "--build", dir.string(), "--target", binaryName})
                                                      : configure;
  if (!build || build->exitCode != 0) {
    c.error = "the coverage build failed";
    return c;
  }
  const fs::path profiles = dir / "profiles";
  const std::string data = (dir / "suite.profdata").string();
  std::error_code ec;
  fs::remove_all(profiles, ec);
  fs::create_directories(profiles, ec);
  const std::string binary = (dir / binaryName).string();
  auto whole = runProcess({"timeout", "600", binary}, {dir.string(), {{"LLVM_PROFILE_FILE", (profiles / "suite.profraw").string()}}});
  if (!whole || whole->exitCode != 0) {
    // A test died in this build: each test in a process of its own, so
    // that the others still count.
    fs::remove_all(profiles, ec);
    fs::create_directories(profiles, ec);
    for (const std::string &name : tests) {
      auto r = runProcess({"timeout", "60", binary, "--gtest_filter=" + name},
                          {dir.string(), {{"LLVM_PROFILE_FILE", (profiles / "%p.profraw").string()}}});
      if (!r || r->exitCode != 0) c.failedInCoverageBuild.push_back(name);
    }
  }
  std::vector<std::string> merge{"llvm-profdata-19", "merge", "-sparse"};
  for (const auto &f : fs::directory_iterator(profiles, ec))
    if (f.path().extension() == ".profraw") merge.push_back(f.path().string());
  merge.insert(merge.end(), {"-o", data});
  auto merged = runProcess(merge);
  if (!merged || merged->exitCode != 0) {
    c.error = "llvm-profdata failed";
    return c;
  }
  auto report = runProcess({"llvm-cov-19", "export", "-summary-only", "-instr-profile=" + data,
                            (dir / binaryName).string(), program.unit});
  if (!report || report->exitCode != 0) {
    c.error = "llvm-cov failed";
    return c;
  }
  try {
    // llvm-cov's JSON goes to stdout; runProcess interleaves stderr, so
    // parse from the first brace.
    const auto start = report->output.find('{');
    const nlohmann::json j = nlohmann::json::parse(report->output.substr(start == std::string::npos ? 0 : start));
    for (const auto &file : j.at("data").at(0).at("files")) {
      if (fs::weakly_canonical(file.value("filename", ""), ec) != fs::weakly_canonical(program.unit, ec)) continue;
      const auto &s = file.at("summary");
      c.branches = s.at("branches").at("count").get<std::size_t>();
      c.branchesCovered = s.at("branches").at("covered").get<std::size_t>();
      c.lines = s.at("lines").at("count").get<std::size_t>();
      c.linesCovered = s.at("lines").at("covered").get<std::size_t>();
      c.functions = s.at("functions").at("count").get<std::size_t>();
      c.functionsCovered = s.at("functions").at("covered").get<std::size_t>();
      c.measured = true;
    }
    if (!c.measured) c.error = "llvm-cov reported nothing for " + program.unit;
  } catch (const std::exception &e) {
    c.error = std::string("unreadable llvm-cov output: ") + e.what();
  }
  return c;
}

} // namespace

std::vector<std::pair<std::string, double>> slowTests(const std::string &report, double seconds) {
  try {
    return slowTests(nlohmann::json::parse(report), seconds);
  } catch (const std::exception &) {
    return {};
  }
}

VerifyResult verifySuite(const model::Program &program, const testcase::Catalog &catalog,
                         std::vector<emit::SuiteTest> &passing, std::vector<emit::SuiteTest> &failing,
                         const emit::UnitBuild &build, const VerifyOptions &options, std::ostream &log) {
  VerifyResult v;
  // Absolute: the test binaries run in their build folder.
  VerifyOptions o = options;
  o.outDir = fs::absolute(options.outDir).string();
  const fs::path buildDir = fs::path(o.outDir) / "build";
  emit::WriteOptions write = options.write;
  std::set<size_t> repairedTests;
  int written = -1, removedCompile = 0;
  bool configured = false;
  for (int round = 0; round < 20; ++round) {
    for (auto &t : passing) t.dropped.resize(t.observations.size(), false);
    const emit::Suite suite = emit::writeSuite(program, catalog, passing, failing, build, write);
    // Drop what cannot be written at all; it never reaches the files.
    if (!suite.unwritable.empty()) {
      std::set<std::pair<bool, size_t>> gone;
      for (const auto &[site, why] : suite.unwritable) {
        gone.insert({site.failing, site.test});
        fmt::print(log, "  not written: {}\n", why);
      }
      for (auto it = gone.rbegin(); it != gone.rend(); ++it)
        (it->first ? failing : passing).erase((it->first ? failing : passing).begin() + static_cast<std::ptrdiff_t>(it->second));
      continue;
    }
    if (written < 0) written = static_cast<int>(passing.size());
    writeFiles(suite, o.outDir);
    v.tests = suite.tests;
    if (!configured) {
      // Every error reported (not the first 20): each round removes all the
      // tests that do not compile.
      auto c = runProcess({"cmake", "-S", o.outDir, "-B", buildDir.string(), "-G", "Ninja",
                           "-DCMAKE_C_COMPILER=" + o.clang, "-DCMAKE_CXX_COMPILER=" + o.clangxx,
                           "-DCMAKE_CXX_FLAGS=-ferror-limit=0"});
      if (!c || c->exitCode != 0) {
        v.error = c ? c->output : c.error().message;
        return v;
      }
      configured = true;
    }
    auto b = runProcess({"cmake", "--build", buildDir.string(), "--", "-k", "0"});
    if (!b) {
      v.error = b.error().message;
      return v;
    }
    Findings f;
    if (b->exitCode != 0) {
      if (!compileFindings(suite, b->output, f)) {
        if (!write.canonicalSpelling) {
          write.canonicalSpelling = true; // the spelled names may not exist outside the unit
          continue;
        }
        v.error = b->output.substr(0, 8000);
        return v;
      }
      fmt::print(log, "  {} tests do not compile: removed\n", f.removeTests.size());
      for (const auto &[site, error] : f.compileErrors)
        fmt::print(log, "    {}: {}\n", testName(suite, site.first, site.second), error);
      for (const auto &[failingSuite, index] : f.removeTests) removedCompile += failingSuite ? 0 : 1;
    } else {
      const std::string &target = suite.ident;
      // Each test ran within the search's per-test timeout (100 ms of CPU
      // by default); two seconds a test (ours: twenty times that, for a
      // busy machine) is ample. A test that hangs only here (another
      // memory layout) then costs a minute or two a round, not ten.
      const std::string suiteSeconds = std::to_string(std::min<size_t>(600, 60 + 2 * suite.tests.size()));
      for (int run = 0; run < o.runs; ++run) {
        // A binary that dies takes the tests after the dying one with it:
        // it runs again without the tests that died so far, so that one
        // round finds them all (expat's xmlparse.c: 20 rounds of one death
        // each did not settle).
        std::string skip;
        for (size_t again = 0; again <= suite.tests.size(); ++again) {
          const std::string json = (buildDir / fmt::format("run-{}.json", run)).string();
          std::error_code ec;
          fs::remove(json, ec);
          std::vector<std::string> args{"--gtest_output=json:" + json};
          if (!skip.empty()) args.push_back("--gtest_filter=-" + skip);
          f.died.clear();
          auto r = runSuiteBinary(buildDir / (target + "_test"), suiteSeconds.c_str(), args, buildDir);
          ++v.runs;
          if (!r || !runFindings(suite, json, *r, false, f, o.slowTestSeconds)) {
            v.error = "the test binary did not run: " + (r ? r->output.substr(0, 4000) : r.error().message);
            return v;
          }
          if (f.died.empty()) break;
          skip += (skip.empty() ? "" : ":") + f.died;
        }
        // A test that failed or hung is removed now: the suite changes, and
        // the runs start again (a hang no longer costs five timeouts a round).
        if (!f.removeTests.empty()) break;
      }
      // Once more with every test in a process of its own, as CTest runs
      // them (gtest_discover_tests): a test that passed only after the
      // others, or only on their leftovers in memory, shows here.
      if (f.removeTests.empty() && f.dropAssertions.empty())
        for (const auto &[name, site] : suite.tests) {
          if (site.failing) continue;
          const std::string json = (buildDir / "alone.json").string();
          std::error_code ec;
          fs::remove(json, ec);
          auto r = runSuiteBinary(buildDir / (target + "_test"), "60",
                                  {"--gtest_filter=" + name, "--gtest_output=json:" + json}, buildDir);
          if (!r || !runFindings(suite, json, *r, false, f, o.slowTestSeconds)) {
            v.error = "the test binary did not run: " + (r ? r->output.substr(0, 4000) : r.error().message);
            return v;
          }
        }
      const std::string json = (buildDir / "failing.json").string();
      std::error_code ec;
      fs::remove(json, ec);
      auto r = runSuiteBinary(buildDir / (target + "_failing_test"), "900", {"--gtest_output=json:" + json}, buildDir);
      if (!r || !runFindings(suite, json, *r, true, f)) {
        v.error = "the test binary did not run: " + (r ? r->output.substr(0, 4000) : r.error().message);
        return v;
      }
      for (auto it = f.disable.begin(); it != f.disable.end();)
        if (failing[*it].disabled) it = f.disable.erase(it);
        else ++it;
      if (f.removeTests.empty() && f.dropAssertions.empty() && f.disable.empty()) {
        v.built = true;
        v.written = written;
        v.passed = static_cast<int>(passing.size());
        v.failingWritten = static_cast<int>(failing.size());
        for (const auto &t : failing) v.failingDisabled += t.disabled;
        v.repaired = static_cast<int>(repairedTests.size());
        if (o.coverage) {
          std::vector<std::string> names;
          for (const auto &[name, site] : suite.tests)
            if (!site.failing) names.push_back(name);
          v.coverage = measureCoverage(program, o.outDir, target + "_test", names, o);
          // A test that dies when built for coverage (-O0) but passes at the
          // unit's own flags depends on undefined behaviour: a user's Debug
          // build would fail it. Removed, and the suite verified again.
          for (const std::string &name : v.coverage.failedInCoverageBuild) {
            const auto it = suite.tests.find(name);
            if (it == suite.tests.end() || it->second.failing) continue;
            f.removeTests.insert({false, it->second.test});
            f.runErrors[it->second.test] = "fails when built for coverage (-O0), passes at the unit's flags";
          }
          if (!f.removeTests.empty()) v.built = false;
        }
        if (v.built) break;
      }
    }
    // Why tests that passed in the harness fail here (a behaviour the
    // harness did not show: another layout, another process).
    for (const auto &[test, error] : f.runErrors)
      fmt::print(log, "  removed, fails in the suite: {}: {}\n", testName(suite, false, test), error);
    for (const auto &[test, observation] : f.dropAssertions) {
      passing[test].dropped[static_cast<size_t>(observation)] = true;
      ++v.flakyAssertions;
      repairedTests.insert(test);
    }
    for (size_t t : f.disable) failing[t].disabled = true;
    for (auto it = f.removeTests.rbegin(); it != f.removeTests.rend(); ++it) {
      if (it->first) {
        failing.erase(failing.begin() + static_cast<std::ptrdiff_t>(it->second));
      } else {
        passing.erase(passing.begin() + static_cast<std::ptrdiff_t>(it->second));
        ++v.removed;
        // Indices after it shift down.
        std::set<size_t> shifted;
        for (size_t k : repairedTests)
          if (k != it->second) shifted.insert(k > it->second ? k - 1 : k);
        repairedTests = std::move(shifted);
      }
    }
  }
  v.written = written < 0 ? 0 : written;
  v.compiled = v.written - removedCompile;
  if (!v.built && v.error.empty()) v.error = "the suite did not settle after 20 rounds of repairs";
  return v;
}

} // namespace mosaic::driver

// Verification: the repair loop over a built and run suite (Verify.h).
#include "Verify.h"

#include "SuiteReport.h"
#include "SuiteRunner.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace mosaic::driver {

namespace fs = std::filesystem;

void writeFiles(const emit::Suite &suite, const std::string &outDir) {
  fs::create_directories(outDir);
  for (const emit::File &f : suite.files) std::ofstream(fs::path(outDir) / f.name) << f.text;
}

VerifyResult verifySuite(const model::Program &program, const testcase::Catalog &catalog,
                         std::vector<emit::SuiteTest> &passing, std::vector<emit::SuiteTest> &failing,
                         const emit::UnitBuild &build, const VerifyOptions &options, std::ostream &log) {
  // Absolute: the test binaries run in their build folder.
  VerifyOptions o = options;
  o.outDir = fs::absolute(options.outDir).string();
  auto runner = cmakeSuiteRunner(program, o);
  return verifyWith(*runner, program, catalog, passing, failing, build, o, log);
}

VerifyResult verifyWith(SuiteRunner &runner, const model::Program &program, const testcase::Catalog &catalog,
                        std::vector<emit::SuiteTest> &passing, std::vector<emit::SuiteTest> &failing,
                        const emit::UnitBuild &build, const VerifyOptions &o, std::ostream &log) {
  VerifyResult v;
  emit::WriteOptions write = o.write;
  std::set<size_t> repairedTests;
  int written = -1, removedCompile = 0;
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
    v.tests = suite.tests;
    auto b = runner.build(suite);
    if (!b) {
      v.error = b.error().message;
      return v;
    }
    Findings f;
    if (!b->ok) {
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
          std::vector<std::string> args;
          if (!skip.empty()) args.push_back("--gtest_filter=-" + skip);
          f.died.clear();
          auto r = runner.run(target + "_test", args, suiteSeconds, fmt::format("run-{}.json", run));
          ++v.runs;
          if (!r || !runFindings(suite, r->report, r->process, false, f, o.slowTestSeconds)) {
            v.error = "the test binary did not run: " + (r ? r->process.output.substr(0, 4000) : r.error().message);
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
          auto r = runner.run(target + "_test", {"--gtest_filter=" + name}, "60", "alone.json");
          if (!r || !runFindings(suite, r->report, r->process, false, f, o.slowTestSeconds)) {
            v.error = "the test binary did not run: " + (r ? r->process.output.substr(0, 4000) : r.error().message);
            return v;
          }
        }
      auto r = runner.run(target + "_failing_test", {}, "900", "failing.json");
      if (!r || !runFindings(suite, r->report, r->process, true, f)) {
        v.error = "the test binary did not run: " + (r ? r->process.output.substr(0, 4000) : r.error().message);
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
          v.coverage = runner.coverage(target + "_test", names);
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

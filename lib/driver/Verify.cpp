// Verification: the repair loop over a built and run suite (Verify.h).
#include "Verify.h"

#include "DeathCause.h"
#include "SuiteReport.h"
#include "SuiteRunner.h"
#include "mosaic/support/Text.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

namespace mosaic::driver {

namespace fs = std::filesystem;

void writeFiles(const emit::Suite &suite, const std::string &outDir) {
  fs::create_directories(outDir);
  for (const emit::File &f : suite.files) {
    // A file whose text is unchanged keeps its time stamp, so that the
    // next build compiles only what changed: a round of verification that
    // removes one passing test rebuilds the one test file (a test file is
    // 2-4 s of clang++ with GoogleTest's headers), and an unchanged
    // CMakeLists.txt does not configure the build again; nor does the
    // user's own build after mosaic's last write.
    const fs::path path = fs::path(outDir) / f.name;
    std::error_code ec;
    if (fs::file_size(path, ec) == f.text.size() && !ec && readFile(path.string()) == f.text) continue;
    std::ofstream(path) << f.text;
  }
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

namespace {

// The state of one verification: the rounds of writing, building, running
// and repairing the suite until a round changes nothing.
class Repair {
public:
  Repair(SuiteRunner &runner, const model::Program &program, const testcase::Catalog &catalog,
         std::vector<emit::SuiteTest> &passing, std::vector<emit::SuiteTest> &failing, const emit::UnitBuild &build,
         const VerifyOptions &o, std::ostream &log)
      : runner_(runner), p_(program), catalog_(catalog), passing_(passing), failing_(failing), build_(build), o_(o),
        log_(log), write_(o.write) {}

  VerifyResult run() {
    constexpr int kRounds = 20; // ours: every round so far settled within a handful
    for (int round = 0; round < kRounds && !v_.built; ++round) {
      for (auto &t : passing_) t.dropped.resize(t.observations.size(), false);
      const emit::Suite suite = emit::writeSuite(p_, catalog_, passing_, failing_, build_, write_);
      if (dropUnwritable(suite)) continue;
      if (written_ < 0) written_ = static_cast<int>(passing_.size());
      v_.tests = suite.tests;
      v_.ident = suite.ident;
      auto b = runner_.build(suite);
      if (!b) return failed(b.error().message);
      if (stopped()) return interruptedNow();
      Findings f;
      if (!b->ok) {
        // A C unit's header the test file includes is not C++ (C has no
        // templates: an error in a header is the header's own): no test is
        // to blame, and none compiles until the tests include none.
        if (p_.language == "c" && !write_.throughWrapper)
          if (const std::string header = firstErrorInProjectHeaders(suite, b->output, projectFolders()); !header.empty()) {
            if (firstErrors_.empty()) firstErrors_ = b->output.substr(0, 8000);
            throughWrapper(header);
            continue;
          }
        if (!compileFindings(suite, b->output, f)) {
          // No error is in a test: the spelled names may not exist outside
          // the unit; written anew, and what is written counted again (a
          // test may no longer be writable). The errors reported are the
          // first build's, the compiler's first 8,000 characters (ours).
          if (firstErrors_.empty()) firstErrors_ = b->output.substr(0, 8000);
          if (!write_.canonicalSpelling) {
            write_.canonicalSpelling = true;
            written_ = -1;
            continue;
          }
          return failed(firstErrors_);
        }
        logCompileErrors(suite, f);
      } else {
        if (auto error = runSuite(suite, f)) return stopped() ? interruptedNow() : failed(*error);
        if (stopped()) return interruptedNow();
        for (auto it = f.disable.begin(); it != f.disable.end();)
          if (failing_[*it].disabled) it = f.disable.erase(it);
          else ++it;
        if (f.removeTests.empty() && f.dropAssertions.empty() && f.disable.empty()) settle(suite, f);
        if (v_.built) break;
      }
      apply(suite, f);
    }
    v_.written = written_ < 0 ? 0 : written_;
    v_.compiled = v_.written - removedCompile_;
    if (!v_.built && v_.error.empty()) v_.error = "the suite did not settle after 20 rounds of repairs";
    return v_;
  }

private:
  // Where the project's headers are: its folder and build folder (or, when
  // the suite spells absolute paths, the unit's folder).
  std::vector<std::string> projectFolders() const {
    std::vector<std::string> folders{build_.root, build_.buildDir};
    if (build_.root.empty()) {
      std::error_code ec;
      folders.push_back(std::filesystem::weakly_canonical(std::filesystem::path(p_.unit).parent_path(), ec).string());
    }
    return folders;
  }

  // The suite is written anew with no project header in sight of the tests
  // (emit::WriteOptions::throughWrapper), and what is written counted again.
  void throughWrapper(const std::string &error) {
    fmt::print(log_, "  the unit's headers do not compile as C++ ({}): the tests reach the library through the wrapper (C)\n",
               fs::path(error.substr(0, error.find(':'))).filename().string() + error.substr(error.find(':')));
    write_.throughWrapper = true;
    written_ = -1;
    removedCompile_ = 0;
  }

  bool stopped() const { return o_.stop && *o_.stop; }
  VerifyResult interruptedNow() {
    v_.interrupted = true;
    v_.written = written_ < 0 ? 0 : written_;
    return failed("interrupted: the suite is written, not verified");
  }
  VerifyResult failed(std::string error) {
    v_.error = std::move(error);
    return v_;
  }

  // Drops what cannot be written at all; it never reaches the files.
  bool dropUnwritable(const emit::Suite &suite) {
    if (suite.unwritable.empty()) return false;
    std::set<std::pair<bool, size_t>> gone;
    for (const auto &[site, why] : suite.unwritable) {
      gone.insert({site.failing, site.test});
      fmt::print(log_, "  not written: {}\n", why);
    }
    for (auto it = gone.rbegin(); it != gone.rend(); ++it)
      (it->first ? failing_ : passing_).erase((it->first ? failing_ : passing_).begin() + static_cast<std::ptrdiff_t>(it->second));
    return true;
  }

  void logCompileErrors(const emit::Suite &suite, const Findings &f) {
    fmt::print(log_, "  {} tests do not compile: removed\n", f.removeTests.size());
    for (const auto &[site, error] : f.compileErrors)
      fmt::print(log_, "    {}: {}\n", testName(suite, site.first, site.second), error);
    for (const auto &[failingSuite, index] : f.removeTests) removedCompile_ += failingSuite ? 0 : 1;
  }

  // A run of a test binary whose findings join `f`; an error when it did not run.
  std::optional<std::string> runBinary(const emit::Suite &suite, const std::string &binary,
                                       const std::vector<std::string> &args, const std::string &seconds,
                                       const std::string &report, bool failingSuite, Findings &f) {
    auto r = runner_.run(binary, args, seconds, report);
    if (!r || !runFindings(suite, r->report, r->process, failingSuite, f, failingSuite ? 0 : o_.slowTestSeconds))
      return "the test binary did not run: " + (r ? r->process.output.substr(0, 4000) /* ours */ : r.error().message);
    return std::nullopt;
  }

  // The passing suite `runs` times, then each test alone, then the failing suite.
  std::optional<std::string> runSuite(const emit::Suite &suite, Findings &f) {
    const std::string passingBinary = suite.ident + "_test";
    // Each test ran within the search's per-test timeout (100 ms of CPU
    // by default); two seconds a test (ours: twenty times that, for a
    // busy machine) is ample. A test that hangs only here (another
    // memory layout) then costs a minute or two a round, not ten.
    const std::string suiteSeconds = std::to_string(std::min<size_t>(600, 60 + 2 * suite.tests.size()));
    for (int run = 0; run < o_.runs; ++run) {
      // A binary that dies takes the tests after the dying one with it:
      // it runs again without the tests that died so far, so that one
      // round finds them all (expat's xmlparse.c: 20 rounds of one death
      // each did not settle).
      std::string skip;
      for (size_t again = 0; again <= suite.tests.size(); ++again) {
        std::vector<std::string> args;
        if (!skip.empty()) args.push_back("--gtest_filter=-" + skip);
        f.died.clear();
        ++v_.runs;
        if (auto error = runBinary(suite, passingBinary, args, suiteSeconds, fmt::format("run-{}.json", run), false, f))
          return error;
        if (f.died.empty()) break;
        const std::string blamed = blame(suite, passingBinary, suiteSeconds, f);
        if (stopped()) return std::nullopt;
        if (!blamed.empty()) skip += (skip.empty() ? "" : ":") + blamed;
      }
      // A test that failed or hung is removed now: the suite changes, and
      // the runs start again (a hang no longer costs five timeouts a round).
      if (!f.removeTests.empty()) break;
    }
    // Once more with every test in a process of its own, as CTest runs
    // them (gtest_discover_tests): a test that passed only after the
    // others, or only on their leftovers in memory, shows here. 60 s a
    // test alone, 900 s for the failing suite: ours, as above.
    if (f.removeTests.empty() && f.dropAssertions.empty())
      for (const auto &[name, site] : suite.tests) {
        if (site.failing) continue;
        f.died.clear();
        if (auto error = runBinary(suite, passingBinary, {"--gtest_filter=" + name}, "60", "alone.json", false, f))
          return error;
        if (!f.died.empty()) remove(suite, f, f.died, "the test binary died in it, run alone as CTest runs it (" + f.diedHow + ")");
      }
    return runBinary(suite, suite.ident + "_failing_test", {}, "900", "failing.json", true, f);
  }

  void remove(const emit::Suite &suite, Findings &f, const std::string &name, std::string why) {
    const auto it = suite.tests.find(name);
    if (it == suite.tests.end() || it->second.failing) return;
    f.removeTests.insert({false, it->second.test});
    f.runErrors[it->second.test] = std::move(why);
  }

  // Whom the passing suite's death in test f.died is blamed on: removed,
  // with why, and returned; "" when the same tests ran again without dying
  // (not held against a test: a machine under load, a process killed from
  // outside; the run is repeated). A test that passes alone and dies after
  // others is the victim of state one of them left behind (a corrupted
  // heap, a changed global): that one is removed (DeathCause.h).
  std::string blame(const emit::Suite &suite, const std::string &binary, const std::string &seconds, Findings &f) {
    const std::string victim = f.died, how = f.diedHow;
    if (how.rfind("timed out", 0) == 0) {
      remove(suite, f, victim, "the suite timed out in it");
      return victim;
    }
    const DiesWith dies = [&](const std::vector<std::string> &tests) {
      if (stopped()) return false;
      std::string filter = "--gtest_filter=";
      for (const std::string &t : tests) filter += (&t == &tests.front() ? "" : ":") + t;
      ++v_.runs;
      auto r = runner_.run(binary, {filter}, seconds, "death.json");
      if (!r) return false;
      Findings scratch;
      runFindings(suite, r->report, r->process, false, scratch);
      return !scratch.died.empty();
    };
    const DeathCause cause = findDeathCause(f.diedAfter, victim, dies);
    switch (cause.kind) {
    case DeathCause::Kind::Alone:
      remove(suite, f, victim, "the test binary died in it, alone too (" + how + ")");
      return victim;
    case DeathCause::Kind::Polluter: {
      // A victim that each of several tests before it is enough to kill is
      // the fragile one (it reads what it never set: a union's other bytes,
      // a global no fixture resets): it goes, not the tests before it one
      // round after another (libconfig's suite once lost 38 that way).
      constexpr int kMaxPolluters = 2; // ours: a real polluter is one test, seldom two
      if (++pollutersOf_[victim] > kMaxPolluters) {
        remove(suite, f, victim,
               fmt::format("the test binary died in it after each of {} tests before it that passed, though it "
                           "passes alone: it depends on what ran before it ({})",
                           pollutersOf_[victim], how));
        return victim;
      }
      remove(suite, f, cause.polluter,
             fmt::format("the test binary died in {}, run after it; {} passes alone ({})", victim, victim, how));
      return cause.polluter;
    }
    case DeathCause::Kind::Together:
      remove(suite, f, victim, "the test binary died in it after the tests before it; it passes alone (" + how + ")");
      return victim;
    case DeathCause::Kind::NotReproduced:
      break;
    }
    // Three such deaths, ours: a test that dies one run in two still goes.
    constexpr int kMaxNotReproduced = 3;
    if (++v_.deathsNotReproduced > kMaxNotReproduced) {
      remove(suite, f, victim, "the test binary died in it (" + how + "), and not when the same tests ran again");
      return victim;
    }
    fmt::print(log_, "  the test binary died in {} ({}), and not when the same tests ran again: not held against it\n",
               victim, how);
    return "";
  }

  // A round found nothing wrong: the counts, and the coverage build.
  void settle(const emit::Suite &suite, Findings &f) {
    v_.built = true;
    v_.written = written_;
    v_.passed = static_cast<int>(passing_.size());
    v_.failingWritten = static_cast<int>(failing_.size());
    for (const auto &t : failing_) v_.failingDisabled += t.disabled;
    v_.repaired = static_cast<int>(repairedTests_.size());
    if (!o_.coverage) return;
    std::vector<std::string> names;
    for (const auto &[name, site] : suite.tests)
      if (!site.failing) names.push_back(name);
    const auto started = std::chrono::steady_clock::now();
    v_.coverage = runner_.coverage(suite.ident + "_test", names);
    v_.coverageSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // A test that dies when built for coverage (-O0) but passes at the
    // unit's own flags depends on undefined behaviour: a user's Debug
    // build would fail it. Removed, and the suite verified again.
    for (const std::string &name : v_.coverage.failedInCoverageBuild) {
      const auto it = suite.tests.find(name);
      if (it == suite.tests.end() || it->second.failing) continue;
      f.removeTests.insert({false, it->second.test});
      f.runErrors[it->second.test] = "fails when built for coverage (-O0), passes at the unit's flags";
    }
    if (!f.removeTests.empty()) v_.built = false;
  }

  // Drops the failing assertions, disables and removes tests as found.
  void apply(const emit::Suite &suite, const Findings &f) {
    // Why tests that passed in the harness fail here (a behaviour the
    // harness did not show: another layout, another process).
    for (const auto &[test, error] : f.runErrors)
      fmt::print(log_, "  removed, fails in the suite: {}: {}\n", testName(suite, false, test), error);
    for (const auto &[test, observation] : f.dropAssertions) {
      passing_[test].dropped[static_cast<size_t>(observation)] = true;
      ++v_.flakyAssertions;
      repairedTests_.insert(test);
    }
    for (size_t t : f.disable) failing_[t].disabled = true;
    for (auto it = f.removeTests.rbegin(); it != f.removeTests.rend(); ++it) {
      if (it->first) {
        failing_.erase(failing_.begin() + static_cast<std::ptrdiff_t>(it->second));
        continue;
      }
      passing_.erase(passing_.begin() + static_cast<std::ptrdiff_t>(it->second));
      ++v_.removed;
      // Indices after it shift down.
      std::set<size_t> shifted;
      for (size_t k : repairedTests_)
        if (k != it->second) shifted.insert(k > it->second ? k - 1 : k);
      repairedTests_ = std::move(shifted);
    }
  }

  SuiteRunner &runner_;
  const model::Program &p_;
  const testcase::Catalog &catalog_;
  std::vector<emit::SuiteTest> &passing_, &failing_;
  const emit::UnitBuild &build_;
  std::string firstErrors_; ///< the compiler's first 8,000 characters (ours) when a whole suite did not build
  const VerifyOptions &o_;
  std::ostream &log_;
  emit::WriteOptions write_;
  VerifyResult v_;
  std::set<size_t> repairedTests_;
  std::map<std::string, int> pollutersOf_; ///< victim -> the tests blamed for its deaths so far
  int written_ = -1, removedCompile_ = 0;
};

} // namespace

VerifyResult verifyWith(SuiteRunner &runner, const model::Program &program, const testcase::Catalog &catalog,
                        std::vector<emit::SuiteTest> &passing, std::vector<emit::SuiteTest> &failing,
                        const emit::UnitBuild &build, const VerifyOptions &o, std::ostream &log) {
  return Repair(runner, program, catalog, passing, failing, build, o, log).run();
}

} // namespace mosaic::driver

// Building and running a written suite: tests that do not compile are
// removed, assertions that fail or flake are dropped (the test repaired),
// tests that still fail are removed; then the suite's coverage of the unit
// is measured with clang source-based coverage and llvm-cov.
#pragma once

#include "mosaic/emit/Suite.h"
#include "mosaic/harness/Build.h"

#include <csignal>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace mosaic::driver {

struct LlvmCoverage {
  bool measured = false;
  std::size_t branches = 0, branchesCovered = 0;
  std::size_t lines = 0, linesCovered = 0;
  std::size_t functions = 0, functionsCovered = 0;
  std::string error;
  /// Tests that failed in the coverage build (-O0, instrumented) though
  /// they passed in the verified one: a test that reads past what it built
  /// survives one memory layout and not another. Measured one by one then.
  std::vector<std::string> failedInCoverageBuild;
};

struct VerifyResult {
  bool built = false;
  std::string error;          ///< why the suite does not build (compiler output)
  int written = 0;            ///< passing-suite tests written
  int compiled = 0;           ///< ... that compiled
  int passed = 0;             ///< ... that passed every run in the end
  int repaired = 0;           ///< ... that lost an assertion on the way
  int removed = 0;            ///< ... removed (did not compile, or failed without a failing assertion)
  int flakyAssertions = 0;    ///< assertions dropped because a run disagreed
  int failingWritten = 0;     ///< failing-suite tests
  int failingDisabled = 0;    ///< ... disabled because they did not fail as expected outside mosaic
  int runs = 0;
  int deathsNotReproduced = 0; ///< deaths of the test binary that the same tests did not repeat
  bool interrupted = false;   ///< a signal ended verification; the suite is written, not verified
  LlvmCoverage coverage;
  double coverageSeconds = 0; ///< wall time in the llvm-cov build and runs
  std::map<std::string, emit::Site> tests; ///< the suite's tests by name, as last written
  std::string ident; ///< the suite's identifier: its binaries are <ident>_test and <ident>_failing_test
};

struct VerifyOptions {
  std::string outDir;
  harness::Toolchain toolchain; ///< the compilers, llvm-profdata and llvm-cov
  int runs = 5;
  bool coverage = true;
  emit::WriteOptions write; ///< how the suite is written (canonical spelling may be turned on)
  /// A passing-suite test that takes longer than this in one run is
  /// removed. mosaic ran it within the search's per-test timeout (100 ms
  /// of CPU by default), so it is slow only outside mosaic's sandbox:
  /// pugixml's `xml_text::set(1.53f, 2147483647)` (snprintf with that
  /// precision) is quick under the sandbox's 1 GiB address-space limit and
  /// took 71 s and 8 GB in the suite.
  /// Ours: a hundred times that timeout, for an unoptimised build on a busy
  /// machine.
  double slowTestSeconds = 10;
  /// Processes one run of the suite may have at once (a pids cgroup): the
  /// search let a test have 64 (exec::Limits::maxProcesses); ours, eight
  /// times that, as children a test leaves behind live on in the next ones.
  unsigned maxProcesses = 512;
  /// Set by Ctrl-C or SIGTERM: the build or run under way is killed and
  /// verification ends (VerifyResult::interrupted; the suite stays written).
  const volatile std::sig_atomic_t *stop = nullptr;
};

/// The verify stage: writes the suite into options.outDir, builds it, runs
/// it `runs` times and once test by test, drops assertions that fail or
/// flake, removes tests that do not compile, still fail, or take over
/// `slowTestSeconds`, disables failing-suite tests that pass, and repeats
/// until a round changes nothing (at most 20); then measures coverage.
/// `passing` and `failing` are edited to what was finally written.
VerifyResult verifySuite(const model::Program &program, const testcase::Catalog &catalog,
                         std::vector<emit::SuiteTest> &passing, std::vector<emit::SuiteTest> &failing,
                         const emit::UnitBuild &build, const VerifyOptions &options, std::ostream &log);

/// Writes the suite's files without building them.
void writeFiles(const emit::Suite &suite, const std::string &outDir);

} // namespace mosaic::driver

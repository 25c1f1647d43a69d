// Building and running a written suite: tests that do not compile are
// removed, assertions that fail or flake are dropped (the test repaired),
// tests that still fail are removed; then the suite's coverage of the unit
// is measured with clang source-based coverage and llvm-cov.
#pragma once

#include "mosaic/emit/Suite.h"
#include "mosaic/harness/Build.h"

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
  LlvmCoverage coverage;
  std::map<std::string, emit::Site> tests; ///< the suite's tests by name, as last written
};

struct VerifyOptions {
  std::string outDir;
  std::string clang, clangxx;
  int runs = 5;
  bool coverage = true;
  emit::WriteOptions write; ///< how the suite is written (canonical spelling may be turned on)
};

/// Writes the suite into options.outDir, builds it, runs it, repairs it;
/// `passing` and `failing` are edited to what was finally written.
VerifyResult verifySuite(const model::Program &program, const testcase::Catalog &catalog,
                         std::vector<emit::SuiteTest> &passing, std::vector<emit::SuiteTest> &failing,
                         const emit::UnitBuild &build, const VerifyOptions &options, std::ostream &log);

/// Writes the suite's files without building them.
void writeFiles(const emit::Suite &suite, const std::string &outDir);

} // namespace mosaic::driver

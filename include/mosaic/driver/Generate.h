// `mosaic generate`: search for tests of a unit and write them as a
// GoogleTest suite that builds and passes.
#pragma once

#include "mosaic/driver/Options.h"
#include "mosaic/search/Criteria.h"
#include "mosaic/search/Search.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace mosaic::driver {

struct GenerateOptions {
  AnalyzeOptions unit;             ///< -p, UNIT, --function, --class
  std::string outDir;              ///< -o: where the suite is written
  std::string algorithm = "dynamosa"; ///< --algorithm
  std::vector<std::string> criteria = search::defaultCriteria(); ///< --criteria
  std::string secondary = "length"; ///< --secondary: the tie-break between equally fit tests
  search::SearchOptions search;     ///< --population, --crossover-rate, ...
  double budgetSeconds = 60;       ///< --budget: the search's wall time
  std::uint64_t maxExecutions = 0; ///< --max-executions (0: no limit)
  std::uint64_t seed = 1;          ///< --seed: the same seed gives the same suite
  std::string jsonOut;             ///< --json: statistics
  std::string workDir;             ///< --work-dir (default BUILD_DIR/mosaic)
  /// --timeout per test. Lower than `run`'s 1 s: a search spends its budget
  /// on many short tests, and a test of a unit that takes 100 ms is a hang
  /// in all but name (ours).
  std::uint32_t timeoutMs = 100;
  std::uint32_t memoryMb = 1024;   ///< --memory per test
  bool isolate = false;            ///< --isolate: a fresh process for every test
  bool sanitize = false;           ///< --sanitize: an ASan + UBSan harness (memory errors become failures)
  bool progress = true;            ///< live progress line on a terminal
  bool verify = true;              ///< build and run the written suite (--no-verify skips)
  /// Comparison operands seen at run time join the constant pool
  /// (--no-dynamic-pool turns it off, to measure what it brings).
  bool dynamicPool = true;
  int verifyRuns = 5;              ///< runs of the built suite that must all pass
  std::size_t testsPerFile = 100;  ///< --tests-per-file: split test files beyond this
};

/// Returns an ExitCode: kExitFindings when the failing suite is not empty.
int generate(const GenerateOptions &options, std::ostream &out, std::ostream &err);

} // namespace mosaic::driver

// `mosaic run`: the execution engine on its own, driven by random testing.
#pragma once

#include "mosaic/driver/Options.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace mosaic::driver {

struct RunOptions {
  AnalyzeOptions unit;           ///< -p, UNIT, --function, --class
  double budgetSeconds = 30;     ///< --budget
  std::uint64_t maxExecutions = 0; ///< --max-executions (0: no limit)
  std::uint64_t seed = 1;        ///< --seed: the same seed gives the same tests
  std::string jsonOut;           ///< --json
  std::string workDir;           ///< --work-dir (default BUILD_DIR/mosaic)
  std::uint32_t timeoutMs = 1000;///< --timeout per test
  std::uint32_t memoryMb = 1024; ///< --memory per test
  bool sanitize = false;         ///< --sanitize: an ASan + UBSan harness
  bool isolate = false;          ///< --isolate: a fresh process for every test
  bool pinCpu = true;            ///< off with --no-cpu-pin: the search and its servers on one free CPU
  bool spareCpu = true;          ///< off with --one-cpu: the tests' batches on a second free CPU
  bool progress = true;          ///< live progress line on a terminal
};

/// Builds the unit's harness, runs random tests until the budget ends, and
/// reports executions per second, coverage (from mosaic's own trace),
/// outcomes and crashes with a minimal reproducing test each. Returns an
/// ExitCode: kExitFindings when a test crashed, aborted, timed out, exited or
/// tripped a sanitizer.
int runRandom(const RunOptions &options, std::ostream &out, std::ostream &err);

/// "30s", "1.5m", "2h", "500ms" or a plain number of seconds.
std::optional<double> parseDuration(const std::string &text);

} // namespace mosaic::driver

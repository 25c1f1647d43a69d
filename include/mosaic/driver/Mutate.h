// `mosaic mutate`: the mutation score of a test suite on a unit (issue 20).
#pragma once

#include "mosaic/driver/Options.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace mosaic::driver {

struct MutateOptions {
  AnalyzeOptions unit;            ///< -p, UNIT
  /// --suite: a CMake project whose CTest tests exercise the unit (a suite
  /// mosaic wrote, or a library's own tests built by CMake).
  std::string suite;
  /// --test: a shell command that runs the suite's tests and exits 0 when
  /// they pass (`make check`), for a suite another build system runs. The
  /// suite folder is then copied into the work folder, built there with
  /// --build (default `make`) with CC and CXX set to compilers that put the
  /// unit's mutants in, and the command runs once per mutant.
  std::string testCommand;
  std::string buildCommand = "make"; ///< --build, with --test
  /// --define: cache entries (NAME=VALUE) for the configure of a CMake
  /// suite, as -DNAME=VALUE (a library that builds its tests only when asked).
  std::vector<std::string> defines;
  std::uint32_t mutants = 300;    ///< --mutants: how many to sample (0: every one)
  std::uint64_t seed = 1;         ///< --seed: which ones
  std::string jsonOut;            ///< --json
  std::string workDir;            ///< --work-dir (default BUILD_DIR/mosaic)
};

/// Builds the suite once with the unit's mutants compiled in as schemata
/// (the pass with MOSAIC_PASS_MUTANTS=schemata, the mutation runtime linked
/// in), runs its tests once on the original to learn which pass and which
/// mutants they reach, then once per sampled mutant that they reach: a
/// mutant is killed when a test that passes on the original fails or times
/// out, survives when they all pass, and is not covered when no test
/// reaches it. Reports the counts per operator and per line (text, and JSON
/// with --json). Returns kExitOk, or kExitUsage for a suite that does not
/// build or has no passing test.
int mutate(const MutateOptions &options, std::ostream &out, std::ostream &err);

} // namespace mosaic::driver

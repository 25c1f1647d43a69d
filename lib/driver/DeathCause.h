// Why a written test binary died in one test: the test itself, or a test
// that ran before it in the same process and left state behind.
#pragma once

#include "mosaic/support/Process.h"

#include <functional>
#include <string>
#include <vector>

namespace mosaic::driver {

struct DeathCause {
  enum class Kind {
    Alone,         ///< the test dies in a process of its own too
    Polluter,      ///< `polluter` run before it makes it die; it passes alone
    Together,      ///< it dies only after several of the tests before it
    NotReproduced, ///< the same tests in the same order ran without dying
  };
  Kind kind = Kind::NotReproduced;
  std::string polluter; ///< Kind::Polluter: the test to blame
};

/// Runs the given tests (a subset of the suite, run in the suite's order)
/// in one process; true when the process died before writing its report.
using DiesWith = std::function<bool(const std::vector<std::string> &tests)>;

/// The cause of a death in `victim` after `before` (the tests that started
/// before it in that process, in order). Costs one run when the victim dies
/// alone, and otherwise two plus one or two per halving of `before`
/// (delta debugging for one culprit: about 2 log2 n runs).
DeathCause findDeathCause(const std::vector<std::string> &before, const std::string &victim, const DiesWith &dies);

/// How a process ended, in words, with the last line it printed that is
/// not GoogleTest's own ("killed by signal 6 (SIGABRT): free(): invalid
/// pointer"); "" when it exited with 0.
std::string howItDied(const ProcessResult &run);

} // namespace mosaic::driver

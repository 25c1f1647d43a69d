// What the search keeps of one run of a test: its outcome and the coverage
// and branch distances of its trace, copied out of the shared memory (the
// trace is overwritten by the next run).
#pragma once

#include "mosaic/exec/Outcome.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace mosaic::testcase {
struct TestCase;
}

namespace mosaic::search {

struct Execution {
  exec::Outcome outcome = exec::Outcome::Ok;
  /// The statement the test stopped at: where it crashed, or the statement
  /// that threw a C++ exception or needed an object behind a null pointer;
  /// -1 when it ran to its end.
  int stoppedAt = -1;
  bool threw = false;                ///< stopped by an exception (or a null object): Outcome is still Ok
  std::vector<double> sides;         ///< per branch side: 0 = not evaluated, else 1 + minimum distance
  std::vector<std::uint8_t> blocks;  ///< per block: 1 when it ran
  /// Goals' memo of the approach level + ν(distance) of each block
  /// (Goals::fitness), filled a function at a time on first use; NaN: not
  /// computed yet. An execution's trace never changes, so neither does it.
  mutable std::vector<double> approach;

  /// The program failed (crash, abort, timeout, exit, sanitizer, memory).
  bool failed() const { return outcome != exec::Outcome::Ok && outcome != exec::Outcome::HarnessError; }
  /// EvoSuite's "exception or timeout": the archive prefers tests without.
  bool erroneous() const { return failed() || threw || outcome == exec::Outcome::HarnessError; }
};

/// Runs a test and returns what the search needs of its trace; nullopt when
/// it could not be run at all (the harness keeps dying).
using Executor = std::function<std::optional<Execution>(const testcase::TestCase &)>;

} // namespace mosaic::search

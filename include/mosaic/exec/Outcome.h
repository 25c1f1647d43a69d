// The closed set of outcomes of running one test (abi/Protocol.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mosaic::exec {

/// Mirrors enum mosaic_outcome (checked by a static_assert in the client).
enum class Outcome : std::uint32_t {
  Ok = 0,
  Crash = 1,
  Abort = 2,
  Timeout = 3,
  Exit = 4,
  Sanitizer = 5,
  OutOfMemory = 6,
  HarnessError = 7,
};
inline constexpr int kOutcomeCount = 8;

const char *toString(Outcome o);

struct RunResult {
  Outcome outcome = Outcome::Ok;
  int signal = 0;         ///< Crash, Abort
  int exitCode = 0;       ///< Exit
  int statement = -1;     ///< where it ended; -1 when outside statements
  std::uint32_t durationUs = 0;
  std::uint32_t cpuUs = 0; ///< CPU time of the test's process; 0 when unknown
  bool fresh = false;     ///< ran in a newly forked child
  /// Timeout: the child could never wake (its only thread waited on a
  /// private futex with no timeout), so it ended before the wall-clock bound.
  bool stuck = false;
  /// Crash: a persistent child went on past the fault (a null pointer or a
  /// division by zero in the program's own code) instead of dying with it.
  bool recovered = false;
  /// The test ended the fork server itself (a signal to its parent, where
  /// the server has no PID namespace): outcome Crash with that signal.
  bool killedServer = false;
  /// Crash, Abort: the stack when the signal came, innermost first
  /// (abi/Trace.h: addresses in the harness executable, or external ones
  /// with MOSAIC_STACK_EXTERNAL set); empty when none was recorded.
  std::vector<std::uint64_t> stack;
};

/// The sandbox's file size limit (Limits::fileSizeMb) ended the test
/// (SIGXFSZ): outside the sandbox it would have gone on writing.
bool stoppedAtFileLimit(const RunResult &r);

/// "crash (SIGSEGV) at statement 3", "exit(3)", "ok".
std::string describe(const RunResult &r);

} // namespace mosaic::exec

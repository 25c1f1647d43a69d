// Outcome names.
#include "mosaic/exec/Outcome.h"

#include "mosaic/abi/Protocol.h"

#include <csignal>
#include <cstring>

namespace mosaic::exec {

static_assert(static_cast<int>(Outcome::HarnessError) == MOSAIC_OUTCOME_HARNESS_ERROR &&
                  static_cast<int>(Outcome::Timeout) == MOSAIC_OUTCOME_TIMEOUT,
              "Outcome must mirror enum mosaic_outcome");

const char *toString(Outcome o) {
  switch (o) {
  case Outcome::Ok: return "ok";
  case Outcome::Crash: return "crash";
  case Outcome::Abort: return "abort";
  case Outcome::Timeout: return "timeout";
  case Outcome::Exit: return "exit";
  case Outcome::Sanitizer: return "sanitizer";
  case Outcome::OutOfMemory: return "out-of-memory";
  case Outcome::HarnessError: return "harness-error";
  }
  return "?";
}

bool stoppedAtFileLimit(const RunResult &r) { return r.outcome == Outcome::Crash && r.signal == SIGXFSZ; }

std::string describe(const RunResult &r) {
  std::string s = toString(r.outcome);
  if (r.outcome == Outcome::Crash || r.outcome == Outcome::Abort) {
    const char *name = sigabbrev_np(r.signal);
    s += std::string(" (SIG") + (name ? name : std::to_string(r.signal).c_str()) + ")";
  }
  if (r.outcome == Outcome::Exit) s = "exit(" + std::to_string(r.exitCode) + ")";
  if (r.outcome != Outcome::Ok && r.outcome != Outcome::HarnessError)
    s += r.statement >= 0 ? " at statement " + std::to_string(r.statement) : " after the last statement";
  if (r.killedServer) s += ", which ended the fork server";
  return s;
}

} // namespace mosaic::exec

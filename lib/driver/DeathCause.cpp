// Finding the test to blame for a dead test binary (DeathCause.h).
#include "DeathCause.h"

#include <fmt/format.h>

#include <cstring>
#include <signal.h>
#include <sstream>

namespace mosaic::driver {

namespace {

std::vector<std::string> with(std::vector<std::string> tests, const std::string &victim) {
  tests.push_back(victim);
  return tests;
}

} // namespace

DeathCause findDeathCause(const std::vector<std::string> &before, const std::string &victim, const DiesWith &dies) {
  if (dies({victim})) return {DeathCause::Kind::Alone, {}};
  if (before.empty() || !dies(with(before, victim))) return {DeathCause::Kind::NotReproduced, {}};
  // One culprit among `candidates`, halved while one half still kills the
  // victim. The invariant: candidates + victim dies.
  std::vector<std::string> candidates = before;
  while (candidates.size() > 1) {
    const auto middle = candidates.begin() + static_cast<std::ptrdiff_t>(candidates.size() / 2);
    std::vector<std::string> first(candidates.begin(), middle), second(middle, candidates.end());
    if (dies(with(first, victim))) candidates = std::move(first);
    else if (dies(with(second, victim))) candidates = std::move(second);
    else return {DeathCause::Kind::Together, {}}; // it takes tests from both halves
  }
  return {DeathCause::Kind::Polluter, candidates.front()};
}

std::string howItDied(const ProcessResult &run) {
  if (run.exitCode == 0) return "";
  std::string how;
  if (run.exitCode == 124) how = "timed out"; // timeout(1)'s status
  else if (run.exitCode > 128 && run.exitCode < 128 + 65) {
    const int sig = run.exitCode - 128;
    const char *name = sigabbrev_np(sig);
    how = fmt::format("killed by signal {}{}", sig, name ? fmt::format(" (SIG{})", name) : "");
  } else how = fmt::format("exit code {}", run.exitCode);
  // The last line that is not GoogleTest's: what the program or the C
  // library said as it died.
  std::istringstream lines(run.output);
  std::string said;
  for (std::string l; std::getline(lines, l);) {
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.pop_back();
    if (l.empty() || l.front() == '[' || l.rfind("Running main()", 0) == 0 || l.rfind("Note: Google Test filter", 0) == 0)
      continue;
    said = l;
  }
  constexpr size_t kMaxSaid = 200; // ours: one line of a report
  if (said.size() > kMaxSaid) said = said.substr(0, kMaxSaid) + "...";
  return said.empty() ? how : how + ": " + said;
}

} // namespace mosaic::driver

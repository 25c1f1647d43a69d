// Where a command's wall time went (Phases.h).
#include "Phases.h"

#include <fmt/format.h>

#include <algorithm>

namespace mosaic::driver {

void PhaseTimes::add(std::string_view phase, double seconds) {
  for (auto &[name, s] : phases_)
    if (name == phase) {
      s += seconds;
      return;
    }
  phases_.emplace_back(phase, seconds);
}

void PhaseTimes::mark(std::string_view phase) { mark(phase, 0, {}); }

void PhaseTimes::mark(std::string_view phase, double tailSeconds, std::string_view tail) {
  const Clock::time_point now = Clock::now();
  const double seconds = std::chrono::duration<double>(now - last_).count();
  last_ = now;
  const double part = std::clamp(tailSeconds, 0.0, seconds);
  add(phase, seconds - part);
  if (!tail.empty()) add(tail, part);
}

double PhaseTimes::total() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

std::string PhaseTimes::summary() const {
  std::string out;
  for (const auto &[name, s] : phases_)
    if (s >= 0.05) out += fmt::format("{}{} {:.1f}", out.empty() ? "" : ", ", name, s);
  return out;
}

} // namespace mosaic::driver

// Where a command's wall time went, phase by phase (`generate`'s report
// line "time" and its JSON's "phase_seconds"): the search is often the
// smaller part of a run, beside building harnesses and verifying the suite.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mosaic::driver {

class PhaseTimes {
public:
  PhaseTimes() : start_(Clock::now()), last_(start_) {}
  /// The time since the last mark (or since construction) goes to `phase`,
  /// added to what it had when the name repeats.
  void mark(std::string_view phase);
  /// As mark(phase), but the last `tailSeconds` of the time go to `tail`
  /// (a part of the phase timed inside it).
  void mark(std::string_view phase, double tailSeconds, std::string_view tail);
  /// Seconds since construction.
  double total() const;
  /// The phases in the order first marked, with their seconds.
  const std::vector<std::pair<std::string, double>> &phases() const { return phases_; }
  /// "session 2.1, search 1.3, ...": the phases that round to 0.1 s or more.
  std::string summary() const;

private:
  void add(std::string_view phase, double seconds);
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_, last_;
  std::vector<std::pair<std::string, double>> phases_;
};

} // namespace mosaic::driver

// What Minimise and Extend ask of an edited test, and when two observations
// are the same (internal to lib/stages).
#pragma once

#include "mosaic/stages/Stage.h"

#include <algorithm>
#include <cstring>

namespace mosaic::stages {

/// Whether `test`, an edit of `kept`, still runs cleanly and covers every
/// goal `kept` is kept for. Counts the run.
inline bool keepsGoals(Context &c, Work &w, const Candidate &kept, const testcase::TestCase &test) {
  auto run = c.run.run(test);
  ++w.counts.minimiseRuns;
  return run && !run->failed() &&
         std::all_of(kept.goals.begin(), kept.goals.end(), [&](size_t g) { return c.goals.covered(g, *run); });
}

/// The same value observed at the same place (a NaN is the same as a NaN).
inline bool sameObservation(const exec::Observation &a, const exec::Observation &b) {
  if (a.statement != b.statement || a.kind != b.kind || a.target != b.target || a.field != b.field) return false;
  if (a.kind == MOSAIC_OBS_FLOAT)
    return std::memcmp(&a.floating, &b.floating, sizeof a.floating) == 0 || (a.floating != a.floating && b.floating != b.floating);
  return a.integer == b.integer && a.bytes == b.bytes;
}

} // namespace mosaic::stages

// What Minimise and Extend ask of an edited test (internal to lib/stages).
#pragma once

#include "mosaic/stages/Stage.h"

#include <algorithm>

namespace mosaic::stages {

/// Whether `test`, an edit of `kept`, still runs cleanly and covers every
/// goal `kept` is kept for. Counts the run.
inline bool keepsGoals(Context &c, Work &w, const Candidate &kept, const testcase::TestCase &test) {
  auto run = c.run.run(test);
  ++w.counts.minimiseRuns;
  return run && !run->failed() &&
         std::all_of(kept.goals.begin(), kept.goals.end(), [&](size_t g) { return c.goals.covered(g, *run); });
}

} // namespace mosaic::stages

// `mosaic predict`: which of a project's units are most likely defective,
// from its git history (Schwa, seed 000), with why.
#pragma once

#include "mosaic/driver/Options.h"

#include <cstdint>
#include <iosfwd>
#include <string>

namespace mosaic::driver {

struct PredictOptions {
  AnalyzeOptions unit; ///< -p (buildDir) and --json (jsonOut); no unit: every unit of the project
  std::string revision = "HEAD"; ///< --revision: where history ends
  std::uint64_t maxCommits = 0;  ///< --max-commits: the newest n only (0: all)
  /// --schwa-weights: revisions, fixes, authors (Schwa's code defaults).
  double revisionsWeight = 0.25, fixesWeight = 0.5, authorsWeight = 0.25;
  double timeRange = 0.4;  ///< --time-range: TR
  std::string fixPattern;  ///< --fix-pattern ("" = Schwa's)
  bool functions = true;   ///< --no-functions: files only (no front end)
  bool includeTests = false; ///< --include-tests: tests, fuzzers, examples and tools count as units too
  bool skipMerges = false;   ///< --skip-merges: a merge counts for nothing (predict::HistoryOptions)
};

/// Ranks the compile database's units (the project's library code unless
/// includeTests) by Schwa's probability, each with its counts, its recent
/// fixes and, unless !functions, its functions' scores. A project without
/// git history, or a shallow clone, is told so and every unit gets the same
/// score (an even split). kExitOk, or kExitUsage for a missing database.
int predict(const PredictOptions &options, std::ostream &out, std::ostream &err);

} // namespace mosaic::driver

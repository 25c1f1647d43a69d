// Schwa's defect prediction (seed 000; ALGORITHMS.md §3.1): recent
// revisions, fixes and authors of a file or function, weighted by time,
// make its probability of being defective.
#pragma once

#include "mosaic/predict/History.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mosaic::predict {

struct SchwaOptions {
  /// The weights of revisions, fixes and authors: Schwa's defaults in its
  /// code (the README's 0.3/0.5/0.2 is an example only).
  double revisionsWeight = 0.25, fixesWeight = 0.5, authorsWeight = 0.25;
  double timeRange = 0.4; ///< TR: how much of the history's end counts (Schwa's default)
  /// A commit that fixes a bug, by its message, case-insensitive and
  /// without word boundaries ("debug" matches), as Schwa's.
  std::string fixPattern = "fix(e[ds])?|bugs?|defects?|patch|corrigidos?|close([sd])?|resolve([sd])?";
};

/// A fix commit that touched a component: why it ranks where it does.
struct FixNote {
  std::string id, summary;
  std::int64_t time = 0;
};

struct Score {
  double revisions = 0, fixes = 0, authors = 0; ///< the time-weighted sums
  double score = 0;                             ///< their weighted sum, s
  double probability = 0;                       ///< 1 - e^-s
  int commits = 0, fixCommits = 0, authorCount = 0;
  /// Newest first, at most kRecentFixes, merges left out: a merge's fix
  /// message is its branch's, not about what it repeats of the main line.
  std::vector<FixNote> recentFixes;
};

inline constexpr std::size_t kRecentFixes = 3; ///< ours: enough to say why

struct Prediction {
  std::map<std::string, Score> files;                  ///< every file of History::files
  std::map<std::string, std::vector<Score>> functions; ///< per file, parallel to its FunctionSpans
};

/// The time weight of a change at t in [0, 1] of the history (0 the oldest
/// commit, 1 the revision): 1 / (1 + e^(-12t + 2 + (1 - TR) 10)).
double timeWeight(double t, double timeRange);

/// Scores every file and tracked function of `history`.
Prediction schwa(const History &history, const std::map<std::string, std::vector<FunctionSpan>> &functions,
                   const SchwaOptions &options = {});

} // namespace mosaic::predict

// The archive (ALGORITHMS.md §1.4): per goal, the best test that covers it.
// A test replaces the stored one when the stored one failed or threw and it
// does not, or, equally clean, when the secondary objective prefers it
// (EvoSuite's Archive.isBetterThanCurrent; with TOTAL_LENGTH, the strictly
// shorter test).
#pragma once

#include "mosaic/search/Execution.h"
#include "mosaic/search/Secondary.h"
#include "mosaic/testcase/TestCase.h"

#include <memory>
#include <optional>
#include <vector>

namespace mosaic::search {

struct Solution {
  std::shared_ptr<const testcase::TestCase> test;
  std::shared_ptr<const Execution> run;
};

class Archive {
public:
  /// An archive of `goals` goals; `secondary` must outlive it.
  Archive(size_t goals, const SecondaryObjective &secondary) : best_(goals), secondary_(secondary) {}

  /// Offers a run's covered goals; returns the goals covered for the first time.
  std::vector<size_t> update(const std::shared_ptr<const testcase::TestCase> &test,
                             const std::shared_ptr<const Execution> &run, const std::vector<size_t> &covered);

  bool covered(size_t goal) const { return goal < best_.size() && best_[goal].test != nullptr; }
  /// Room for goals found during the search (Goals::discover); never shrinks.
  void grow(size_t goals) {
    if (goals > best_.size()) best_.resize(goals);
  }
  size_t coveredCount() const { return count_; }
  /// Goals whose best test is erroneous (Execution::erroneous: it failed,
  /// threw, or the harness could not run it): a search that covered every
  /// goal goes on while some are, for a test that covers them cleanly.
  size_t erroneousCount() const { return erroneous_; }
  size_t size() const { return best_.size(); }
  const Solution &at(size_t goal) const { return best_[goal]; }
  /// The distinct tests stored, in the order of their first goal. Kept
  /// until the archive changes: (Dyna)MOSA asks once per generation, and
  /// over a unit's thousands of goals the list cost as much as ranking.
  const std::vector<Solution> &solutions() const;

  const SecondaryObjective &secondary() const { return secondary_; }
  /// Whether `candidate` should replace `current` for goal `goal`.
  bool better(size_t goal, const Scored &candidate, const Scored &current) const;

private:
  std::vector<Solution> best_;
  const SecondaryObjective &secondary_;
  size_t count_ = 0;
  size_t erroneous_ = 0;
  mutable std::optional<std::vector<Solution>> solutions_; ///< solutions(), until an update changes a goal's test
};

} // namespace mosaic::search

// The archive (ALGORITHMS.md §1.4): per goal, the best test that covers it.
// A test replaces the stored one when the stored one failed or threw and it
// does not, or, equally clean, when it is strictly shorter (EvoSuite's
// Archive.isBetterThanCurrent with the TOTAL_LENGTH secondary objective).
#pragma once

#include "mosaic/search/Execution.h"
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
  explicit Archive(size_t goals) : best_(goals) {}

  /// Offers a run's covered goals; returns the goals covered for the first time.
  std::vector<size_t> update(const std::shared_ptr<const testcase::TestCase> &test,
                             const std::shared_ptr<const Execution> &run, const std::vector<size_t> &covered);

  bool covered(size_t goal) const { return best_[goal].test != nullptr; }
  size_t coveredCount() const { return count_; }
  size_t size() const { return best_.size(); }
  const Solution &at(size_t goal) const { return best_[goal]; }
  /// The distinct tests stored, in the order of their first goal.
  std::vector<Solution> solutions() const;

  /// Whether `candidate` should replace `current` for a goal.
  static bool better(const testcase::TestCase &candidate, const Execution &candidateRun,
                     const testcase::TestCase &current, const Execution &currentRun);

private:
  std::vector<Solution> best_;
  size_t count_ = 0;
};

} // namespace mosaic::search

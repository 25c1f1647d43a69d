// The algorithms behind makeAlgorithm (internal to lib/search).
#pragma once

#include "mosaic/search/Search.h"

#include <optional>

namespace mosaic::search {

/// A test and its last run.
struct Individual {
  testcase::TestCase test;
  std::shared_ptr<const Execution> run;
  /// Its row in the fitness matrix of the last selection that kept it
  /// (MOSA's survive(): a run's fitness on a goal never changes, and half
  /// the population is carried over each generation, so its values are
  /// read from there); SIZE_MAX when new.
  size_t scored = SIZE_MAX;
  /// The functions its run entered (Goals::enteredFunctions), once asked.
  std::optional<std::vector<std::uint32_t>> entered;
  /// A new individual's fitness on the goals the last selection stored
  /// (MOSA's scoredGoals_, in its order), computed as its run was recorded,
  /// while the fork server ran the next batch; empty when not.
  std::vector<double> pre;
};

/// Tests an algorithm makes before it runs them together
/// (Evaluator::evaluateAll): the fork server's batch (exec::ServerOptions
/// ::batch). Fixed, not the executor's, so that a seed makes the same
/// tests whatever runs them; no more than that, so that what learns from
/// runs (the dynamic constant pool, Bloodhound's weights) still hears of
/// them every few tests.
constexpr size_t kEvaluationBatch = 16;

std::unique_ptr<Algorithm> makeMosa(Evaluator &evaluator, Variation &variation, Rng &rng, const SearchOptions &options,
                                    bool dynamic);
std::unique_ptr<Algorithm> makeWholeSuite(Evaluator &evaluator, Variation &variation, Rng &rng,
                                          const SearchOptions &options);
std::unique_ptr<Algorithm> makeMio(Evaluator &evaluator, Variation &variation, Rng &rng, const SearchOptions &options);
std::unique_ptr<Algorithm> makeRandom(Evaluator &evaluator, Variation &variation);
std::unique_ptr<Algorithm> makeGrt(Evaluator &evaluator, Variation &variation, Rng &rng, const SearchOptions &options);

} // namespace mosaic::search

// GRT's bloodhound (seed 002, ALGORITHMS.md §4.6) as a part of its own:
// which callable a search calls next, weighted by the share of its goals
// still uncovered and by how rarely its calls ran normally, decaying with
// each selection since the last update. GRT chooses its targets with it;
// the other searches take it with --search-components bloodhound, for the
// calls of their random tests and of their insertion operator (the
// factory's TargetChooser).
#pragma once

#include "mosaic/search/Grt.h"
#include "mosaic/search/Search.h"
#include "mosaic/testcase/TestFactory.h"

#include <cstdint>
#include <vector>

namespace mosaic::search {

class Bloodhound final : public testcase::TargetChooser, public EvaluationObserver {
public:
  /// Over the callables of `program`, whose goals are `evaluator`'s (a
  /// callable's function found by its linkage names), with `options`'
  /// alpha, p and update period (updateShare of the budget's time; every
  /// kUpdateEvery successes for a run bounded by executions only). Reads
  /// the archive at once: the first weights.
  Bloodhound(const Evaluator &evaluator, const model::Program &program, const GrtOptions &options);

  /// Weighted by bloodhoundWeight over `ids`, each weight times
  /// `staticWeight` (--function-weights); updates first when due, and
  /// counts the selection.
  model::CallableId choose(const std::vector<model::CallableId> &ids,
                           const std::function<double(model::CallableId)> &staticWeight, Rng &rng) override;
  /// The same without a static weight (GRT's choice).
  model::CallableId choose(const std::vector<model::CallableId> &ids, Rng &rng);

  /// A call of `c` ran normally (GRT: the target of a sequence that did).
  void succeeded(model::CallableId c);
  /// For a search other than GRT: each call of a search's run that ran
  /// normally (every statement the run finished) is a success of its callable.
  void evaluated(const Evaluator &evaluator, const Evaluation &evaluation) override;

  /// The uncovered share of each callable's goals from the archive (0.5,
  /// Randoop's, for one without goals of its own); selections since the
  /// last update forgotten.
  void update();
  /// The uncovered share of `c`'s goals at the last update.
  double uncoveredShare(model::CallableId c) const { return c < uncovered_.size() ? uncovered_[c] : 0.5; }
  std::uint64_t successes(model::CallableId c) const { return c < successes_.size() ? successes_[c] : 0; }

  /// Randoop's update period for a run bounded by executions only: every
  /// 100 successful invocations (ALGORITHMS.md §4.6).
  static constexpr std::uint64_t kUpdateEvery = 100;

private:
  bool due() const;
  /// bloodhoundDecay(k, decayCallables_, p), tabled.
  double decay(std::uint64_t k);

  const Evaluator &e_;
  GrtOptions o_;
  std::vector<std::uint32_t> function_; ///< per callable: its function in the description, kNone when none
  std::vector<double> uncovered_;
  std::vector<std::uint64_t> successes_, selections_;
  std::uint64_t successfulSinceUpdate_ = 0;
  double nextUpdate_ = 0;
  std::vector<double> decay_; ///< by selections k, for decayCallables_ callables
  std::size_t decayCallables_ = 0;
};

} // namespace mosaic::search

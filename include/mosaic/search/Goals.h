// The coverage goals of a unit: the goals of each criterion (Criterion.h),
// numbered function by function and, within a function, in the criteria's
// canonical order (Criteria.h); their fitness; and DynaMOSA's goal graph.
// Built from the pass's static description; evaluated on an Execution.
#pragma once

#include "mosaic/model/Description.h"
#include "mosaic/search/Criteria.h"
#include "mosaic/search/Criterion.h"
#include "mosaic/search/Execution.h"
#include "mosaic/search/Reach.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace mosaic::search {

/// Per function of `description`: whether it is one of `targets` (by the
/// callables' model::Callable::linkageNames); empty without a program.
std::vector<bool> entryPoints(const model::UnitDescription &description, const Targets &targets);

class Goals {
public:
  /// The goals of `criteria` (defaultCriteria() when empty) for tests that
  /// call `targets`.
  explicit Goals(const model::UnitDescription &description, CriterionList criteria = {}, const Targets &targets = {});

  /// The goals; references into them hold until the next discover().
  const std::vector<Goal> &all() const { return goals_; }
  size_t size() const { return goals_.size(); }
  const Goal &operator[](size_t i) const { return goals_[i]; }
  const CriterionList &criteria() const { return criteria_; }
  /// Whether a criterion's goals read Execution::outputs.
  bool needsOutputs() const;
  /// Whether a criterion's goals read Execution::directSides.
  bool needsDirectSides() const;
  /// Goals of `criterion`.
  size_t count(const Criterion &criterion) const;
  /// Goals of the criterion named `name` (0 when it is not one of these).
  size_t count(std::string_view name) const;
  const Reach &reach() const { return reach_; }

  /// Fitness of goal `g` for a run: 0 when covered, larger is farther.
  /// A run that timed out covers no goal but its own failure mode and is
  /// as far from every other as a run that never called its function
  /// (EvoSuite's DynaMOSA gives it the worst fitness on every goal): what
  /// it reached before it hung is not a step toward a goal, and its
  /// offspring would mostly hang too, each at the cost of the time limit.
  /// A run that never entered the goal's function gets notCalled(g) without
  /// asking its criterion (Criterion::notCalled's contract): most goals of a
  /// large unit, for most runs.
  double fitness(size_t g, const Execution &e) const {
    if (!entered(g, e)) return notCalled(g);
    return goals_[g].criterion->fitness(goals_[g], e, reach_);
  }
  /// The unit's functions run `e` entered (their entry block ran), and
  /// did not time out in (see entered()), ascending; every function for a
  /// run without block coverage.
  std::vector<std::uint32_t> enteredFunctions(const Execution &e) const;
  /// The function goal `g` belongs to; none (SIZE_MAX) for the goals of
  /// what the tests call and the goals found while searching.
  size_t functionOf(size_t g) const { return g < goalFunction_.size() ? goalFunction_[g] : SIZE_MAX; }
  /// Whether run `e` may be nearer goal `g` than notCalled(g): it did not
  /// time out (or `g` is a failure's goal), and it entered g's function
  /// (goals of no function, and runs without block coverage, count as
  /// entered). False: fitness(g, e) == notCalled(g) and g is not covered.
  bool entered(size_t g, const Execution &e) const {
    if (hung(g, e)) return false;
    return g >= goalEntry_.size() || ranEntry(goalEntry_[g], e);
  }
  bool covered(size_t g, const Execution &e) const { return !hung(g, e) && goals_[g].criterion->covered(goals_[g], e); }
  /// Whether the search seeks goal `g` (Goal::passive: kept, never sought).
  bool sought(size_t g) const { return !goals_[g].passive; }
  /// The goals the search seeks (all but the passive ones).
  size_t soughtCount() const { return goals_.size() - passive_; }
  /// The fitness of goal `g` for a run that never entered its function.
  double notCalled(size_t g) const {
    return g < notCalled_.size() ? notCalled_[g] : goals_[g].criterion->notCalled(goals_[g], reach_);
  }
  /// Every goal the run covers, ascending.
  std::vector<size_t> coveredBy(const Execution &e) const;
  /// Adds the goals run `e` shows exist that are not goals yet (the
  /// criteria's discover(): exception coverage's failures), after every
  /// other; returns how many. The one way the goals grow: a goal's index
  /// never changes, and found goals are in no part of the goal graph (the
  /// run that found them covers them). Const as the search holds goals:
  /// only the list grows.
  size_t discover(const Execution &e) const;

  /// DynaMOSA's goal graph (§1.5): the goals current from the start, and
  /// the goals that become current once branch side `side` is covered.
  const std::vector<size_t> &initial() const { return initial_; }
  const std::vector<size_t> &dependents(std::uint32_t side) const;
  /// The goal that stands for branch side `side` (Goal::side), or SIZE_MAX.
  size_t goalOfSide(std::uint32_t side) const { return side < sideGoal_.size() ? sideGoal_[side] : SIZE_MAX; }

  /// ν(x) = x / (x + 1) (ALGORITHMS.md §1.1).
  static double normalise(double x) { return Reach::normalise(x); }

private:
  /// Whether `e` ran the function whose entry block is `entry`: also when
  /// the run has no coverage of that block to tell (none at all, as some
  /// tests build, or an entry past its blocks), so that it is asked.
  static bool ranEntry(std::uint32_t entry, const Execution &e) { return entry >= e.blocks.size() || e.blocks[entry]; }
  bool hung(size_t g, const Execution &e) const { return e.outcome() == exec::Outcome::Timeout && !goals_[g].failure; }

  Reach reach_;
  CriterionList criteria_;
  Targets targets_;
  mutable std::vector<Goal> goals_;
  mutable std::set<std::pair<const Criterion *, std::string>> found_; ///< discovered goals, by label
  std::vector<size_t> initial_;
  size_t passive_ = 0; ///< goals kept, never sought (Goal::passive)
  std::vector<std::vector<size_t>> dependents_; ///< per side id
  std::vector<size_t> sideGoal_;                ///< per side id
  /// Per function: the goals its criteria's goals() gave, [first, last);
  /// the callables' and discovered goals follow the last function's.
  std::vector<std::pair<size_t, size_t>> functionGoals_;
  /// Per goal of a function (the first functionGoals_.back().second): its
  /// function, that function's entry block (kept beside it: entered() is on
  /// every fitness's path), and its criterion's notCalled, asked once.
  std::vector<std::uint32_t> goalEntry_;
  std::vector<std::uint32_t> goalFunction_;
  std::vector<double> notCalled_;
};

} // namespace mosaic::search

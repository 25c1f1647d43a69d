// Ranking and selection of MOSA and DynaMOSA (ALGORITHMS.md §1.3), on a
// fitness matrix: fitness[i][g] is individual i's fitness for the g-th goal
// of the goals being ranked (lower is better, 0 = covered).
#pragma once

#include "mosaic/support/Random.h"

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <span>
#include <vector>

namespace mosaic::search {

/// Individuals' fitness on the goals being ranked, stored by goal (columns,
/// contiguous: preference sorting and crowding read a goal's column across
/// the population, and over rows of thousands of goals those reads were
/// most of a MOSA generation's time). Goals every individual is known to be
/// equally fit for are not stored. The column storage can be handed back
/// (takeColumns) for the next matrix: a large unit's is megabytes, and a
/// fresh one per generation was mostly page faults and zeroing.
class FitnessMatrix {
public:
  FitnessMatrix(std::initializer_list<std::vector<double>> rows)
      : FitnessMatrix(std::vector<std::vector<double>>(rows)) {}
  /// Rows of equal length, one per individual, one value per goal.
  explicit FitnessMatrix(const std::vector<std::vector<double>> &rows);
  /// The same, where `known[g]` marks each goal every individual is known
  /// to be equally fit for (no one entered its function): its column is
  /// constant and not stored, and rows hold only the other goals' values,
  /// in order. Most goals of a large unit are such for a whole population.
  FitnessMatrix(const std::vector<std::vector<double>> &rows, std::vector<bool> known);
  /// Column by column: `columns` holds the `individuals` values of each
  /// goal not `known`, goal after goal (at least that many values; more are
  /// ignored).
  FitnessMatrix(size_t individuals, std::vector<bool> known, std::vector<double> columns);

  size_t size() const { return n_; } ///< individuals
  size_t goals() const { return goals_; }
  /// Goals whose columns are stored (not known constant).
  size_t stored() const { return storedCount_; }
  /// Individual i's fitness on the stored goals, in order (dominance: a
  /// constant column decides nothing).
  std::vector<double> row(size_t individual) const;
  /// Goal `g`'s fitness for every individual, in order; nullptr for a
  /// column declared constant and not stored.
  const double *column(size_t g) const { return stored_[g] == kNone ? nullptr : byGoal_.data() + stored_[g] * n_; }
  /// Whether every individual is as fit for goal `g` (most goals of a large
  /// unit: no one reaches their function): it ranks and crowds no one.
  bool constant(size_t g) const { return constant_[g]; }
  /// The column storage, for the next matrix to fill (its values are not
  /// cleared).
  std::vector<double> takeColumns() && { return std::move(byGoal_); }

private:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  size_t n_ = 0;
  size_t goals_ = 0;
  size_t storedCount_ = 0;
  std::vector<size_t> stored_; ///< per goal: its column among the stored ones, kNone when not stored
  std::vector<double> byGoal_;
  std::vector<bool> constant_;
};

/// Whether a is at least as good as b on every goal and better on one.
bool dominates(std::span<const double> a, std::span<const double> b);
inline bool dominates(const std::vector<double> &a, const std::vector<double> &b) {
  return dominates(std::span<const double>(a), std::span<const double>(b));
}

/// For the goal of column `column`, which of individuals a and b (equally
/// fit for it) is better: negative a, positive b, 0 neither (the secondary
/// objective, Secondary.h).
using TieBreak = std::function<int(size_t column, size_t a, size_t b)>;

/// Preference sorting (RankBasedPreferenceSorting): front 0 holds, for each
/// goal, its best individual (ties to the better by `tieBreak`, then a coin
/// flip); the rest are ranked by non-dominated sorting until `population`
/// individuals have a rank, or all put in front 1 when front 0 alone fills it.
/// `sameForEveryGoal`: `tieBreak` ignores its column and orders the
/// individuals consistently (a total preorder: the test length), so it is
/// asked only to sort them once (O(n log n) times), and each goal's ties
/// are settled by that order, with the same coin flips as asking it.
std::vector<std::vector<size_t>> preferenceSort(const FitnessMatrix &fitness, const TieBreak &tieBreak,
                                                size_t population, Rng &rng, bool sameForEveryGoal = false);

/// Pareto fronts of `members` (fast non-dominated sorting), stopping once at
/// least `enough` individuals are ranked; the rest form one last front.
std::vector<std::vector<size_t>> nonDominatedSort(const FitnessMatrix &fitness, const std::vector<size_t> &members,
                                                  size_t enough);

/// Crowding of a front (CrowdingDistance.fastEpsilonDominanceAssignment):
/// for each goal whose values differ within the front, the individuals at
/// the minimum get max(d, (|front| - |at minimum|) / |front|). Larger is
/// better. Indexed like `front`.
std::vector<double> crowdingDistance(const FitnessMatrix &fitness, const std::vector<size_t> &front);

/// Rank-crowding tournament: `size` rounds, lower rank wins, then larger
/// crowding; on a full tie the incumbent stays. Returns an index into ranks.
size_t tournament(const std::vector<size_t> &ranks, const std::vector<double> &crowding, size_t size, Rng &rng);

/// Rank selection over a population sorted best first (bias b, §1.6):
/// ⌊n·(b − √(b² − 4(b − 1)r)) / (2(b − 1))⌋.
size_t rankSelection(size_t n, double bias, Rng &rng);

} // namespace mosaic::search

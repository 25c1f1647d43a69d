// Which path condition the concolic side solves next (issue 22; TARDIS,
// seed 004, ALGORITHMS.md §7.2-7.3). KnnSelection predicts each waiting
// condition's feasibility from the solver's past answers with a
// K-nearest-neighbour classifier over fingerprints, and draws from four
// buckets by prediction; FifoSelection, the ablation, solves in the order
// conditions came.
#pragma once

#include "mosaic/concolic/Fingerprint.h"
#include "mosaic/support/Random.h"

#include <cstdint>
#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mosaic::concolic {

/// A classification by the K nearest neighbours.
struct Vote {
  bool known = false;    ///< false: fewer than K trained, most neighbours uncertain, or a tie
  bool feasible = false; ///< the majority's label
  int votes = 0;         ///< the majority's size among the neighbours (the paper's meaning)
  double similarity = 0; ///< the neighbours' mean similarity
};

/// TARDIS's classifier: K = 3, Jaccard similarity; a neighbour with
/// similarity 0 is uncertain and does not vote.
class Knn {
public:
  static constexpr int kK = 3;
  /// A fingerprint's K nearest among the items compared so far: kept with
  /// the fingerprint, it is brought up to date by comparing only the items
  /// trained since (a sat answer trains every prefix of its condition, so
  /// the training set grows by tens at a time, and the waiting conditions
  /// are classified again each time: compared with every item again, that
  /// took 8.7 of the concolic side's 14.8 s on http_parser.c).
  struct Neighbours {
    struct Near {
      double similarity = 0;
      std::size_t order = 0; ///< the item's index: among equals the earlier trained is nearer
      bool feasible = false;
    };
    std::array<Near, kK> nearest{};
    std::size_t count = 0;    ///< entries of `nearest` in use
    std::size_t compared = 0; ///< items [0, compared) were compared
  };
  void train(const Fingerprint &f, bool feasible) { items_.push_back({f, feasible}); }
  /// Compares `f` with the items trained since `n` was last brought up to date.
  void update(const Fingerprint &f, Neighbours &n) const;
  /// The vote of the K nearest (no vote with fewer than K items trained).
  Vote vote(const Neighbours &n) const;
  Vote classify(const Fingerprint &f) const;
  std::size_t size() const { return items_.size(); }

private:
  struct Item {
    Fingerprint f;
    bool feasible;
  };
  std::vector<Item> items_;
};

/// A path condition waiting for the solver: the caller's handle and the
/// fingerprint of its sliced, flipped clauses.
struct Candidate {
  std::uint64_t id = 0;
  Fingerprint fingerprint;
};

class Selection {
public:
  virtual ~Selection() = default;
  virtual void add(Candidate c) = 0;
  /// The next to solve, taken out; none when nothing waits.
  virtual std::optional<std::uint64_t> next(Rng &rng) = 0;
  /// The solver's answer on a condition (its clauses, the flipped one
  /// last): feasible when solved, infeasible when unsatisfiable. Not
  /// called on a timeout, which says neither.
  virtual void learn(const std::vector<ClauseHash> &clauses, bool feasible) = 0;
  virtual std::size_t waiting() const = 0;
  /// A new, empty selection of the same kind (the hybrid's second queue).
  virtual std::unique_ptr<Selection> another() const = 0;
};

class FifoSelection final : public Selection {
public:
  void add(Candidate c) override { queue_.push_back(c.id); }
  std::optional<std::uint64_t> next(Rng &) override;
  void learn(const std::vector<ClauseHash> &, bool) override {}
  std::size_t waiting() const override { return queue_.size(); }
  std::unique_ptr<Selection> another() const override { return std::make_unique<FifoSelection>(); }

private:
  std::deque<std::uint64_t> queue_;
};

class KnnSelection final : public Selection {
public:
  /// The buckets, best first: (feasible, 3 votes), (feasible, 2),
  /// (infeasible, 2), (infeasible, 3) with unknowns; drawn with these
  /// percentages (the paper; ALGORITHMS.md §7.3).
  static constexpr int kBucketPercent[4] = {50, 30, 15, 5};
  /// Waiting conditions are classified again each time the training set
  /// has grown by this many items (the paper's 20).
  static constexpr std::size_t kReclassifyEvery = 20;

  void add(Candidate c) override;
  std::optional<std::uint64_t> next(Rng &rng) override;
  void learn(const std::vector<ClauseHash> &clauses, bool feasible) override;
  std::size_t waiting() const override;
  std::unique_ptr<Selection> another() const override { return std::make_unique<KnnSelection>(); }

  /// The bucket a vote puts a condition in (0 best .. 3 worst).
  static int bucketOf(const Vote &v);
  const Knn &classifier() const { return knn_; }

private:
  struct Waiting {
    Candidate c;
    Vote vote;
    Knn::Neighbours neighbours;
  };
  void place(Waiting w);
  void reclassify();
  Knn knn_;
  std::size_t classifiedAt_ = 0;
  std::vector<Waiting> buckets_[4];
};

/// "knn" or "fifo"; null for another name.
std::unique_ptr<Selection> makeSelection(std::string_view name);

} // namespace mosaic::concolic

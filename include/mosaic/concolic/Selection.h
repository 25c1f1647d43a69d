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
  void train(const Fingerprint &f, bool feasible) { items_.push_back({f, feasible}); }
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
  virtual void learn(const std::vector<std::string> &clauses, bool feasible) = 0;
  virtual std::size_t waiting() const = 0;
};

class FifoSelection final : public Selection {
public:
  void add(Candidate c) override { queue_.push_back(c.id); }
  std::optional<std::uint64_t> next(Rng &) override;
  void learn(const std::vector<std::string> &, bool) override {}
  std::size_t waiting() const override { return queue_.size(); }

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
  void learn(const std::vector<std::string> &clauses, bool feasible) override;
  std::size_t waiting() const override;

  /// The bucket a vote puts a condition in (0 best .. 3 worst).
  static int bucketOf(const Vote &v);
  const Knn &classifier() const { return knn_; }

private:
  struct Waiting {
    Candidate c;
    Vote vote;
  };
  void reclassify();
  Knn knn_;
  std::size_t classifiedAt_ = 0;
  std::vector<Waiting> buckets_[4];
};

/// "knn" or "fifo"; null for another name.
std::unique_ptr<Selection> makeSelection(std::string_view name);

} // namespace mosaic::concolic

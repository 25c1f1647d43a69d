// TARDIS's learned selection and the FIFO ablation (Selection.h).
#include "mosaic/concolic/Selection.h"

#include <algorithm>
#include <numeric>

namespace mosaic::concolic {

Vote Knn::classify(const Fingerprint &f) const {
  Vote v;
  if (items_.size() < static_cast<std::size_t>(kK)) return v;
  struct Near {
    double similarity;
    std::size_t order;
    bool feasible;
  };
  std::vector<Near> near;
  near.reserve(items_.size());
  for (const Item &i : items_) near.push_back({f.similarity(i.f), near.size(), i.feasible});
  // The K most similar; among equals the earlier trained.
  std::partial_sort(near.begin(), near.begin() + kK, near.end(), [](const Near &a, const Near &b) {
    return a.similarity != b.similarity ? a.similarity > b.similarity : a.order < b.order;
  });
  int feasible = 0, infeasible = 0;
  double sum = 0;
  for (int k = 0; k < kK; ++k) {
    const Near &n = near[static_cast<std::size_t>(k)];
    sum += n.similarity;
    if (n.similarity == 0) continue; // uncertain: no vote
    (n.feasible ? feasible : infeasible) += 1;
  }
  v.similarity = sum / kK;
  // Known when a majority of the K voted, and the votes are not tied.
  if (feasible + infeasible <= kK / 2 || feasible == infeasible) return v;
  v.known = true;
  v.feasible = feasible > infeasible;
  v.votes = std::max(feasible, infeasible);
  return v;
}

std::optional<std::uint64_t> FifoSelection::next(Rng &) {
  if (queue_.empty()) return std::nullopt;
  const std::uint64_t id = queue_.front();
  queue_.pop_front();
  return id;
}

int KnnSelection::bucketOf(const Vote &v) {
  if (!v.known) return 3;
  if (v.feasible) return v.votes >= Knn::kK ? 0 : 1;
  return v.votes >= Knn::kK ? 3 : 2;
}

void KnnSelection::add(Candidate c) {
  const Vote v = knn_.classify(c.fingerprint);
  buckets_[bucketOf(v)].push_back({std::move(c), v});
}

std::size_t KnnSelection::waiting() const {
  std::size_t n = 0;
  for (const auto &b : buckets_) n += b.size();
  return n;
}

std::optional<std::uint64_t> KnnSelection::next(Rng &rng) {
  if (waiting() == 0) return std::nullopt;
  const int draw = static_cast<int>(rng.index(100));
  int chosen = 0;
  for (int cumulative = kBucketPercent[0]; chosen < 3 && draw >= cumulative; cumulative += kBucketPercent[++chosen]) {
  }
  // An empty bucket: the next worse one that is not, then the better ones.
  int b = chosen;
  while (b < 4 && buckets_[b].empty()) ++b;
  if (b == 4)
    for (b = chosen - 1; b >= 0 && buckets_[b].empty(); --b) {
    }
  std::vector<Waiting> &bucket = buckets_[b];
  // Within the bucket, the paper's roulette on the neighbours' mean
  // similarity; the first come when none is similar to anything.
  const double total = std::accumulate(bucket.begin(), bucket.end(), 0.0,
                                       [](double s, const Waiting &w) { return s + w.vote.similarity; });
  std::size_t at = 0;
  if (total > 0) {
    double spin = rng.uniform01() * total;
    for (at = 0; at + 1 < bucket.size() && spin >= bucket[at].vote.similarity; ++at) spin -= bucket[at].vote.similarity;
  }
  const std::uint64_t id = bucket[at].c.id;
  bucket.erase(bucket.begin() + static_cast<std::ptrdiff_t>(at));
  return id;
}

void KnnSelection::learn(const std::vector<std::string> &clauses, bool feasible) {
  if (clauses.empty()) return;
  if (feasible) {
    // A solved condition is feasible, and so is every prefix of it.
    for (std::size_t n = 1; n <= clauses.size(); ++n)
      knn_.train(Fingerprint::of({clauses.begin(), clauses.begin() + static_cast<std::ptrdiff_t>(n)}), true);
  } else {
    knn_.train(Fingerprint::of(clauses), false);
  }
  if (knn_.size() >= classifiedAt_ + kReclassifyEvery) reclassify();
}

void KnnSelection::reclassify() {
  classifiedAt_ = knn_.size();
  std::vector<Waiting> all;
  for (auto &b : buckets_) {
    for (Waiting &w : b) all.push_back(std::move(w));
    b.clear();
  }
  for (Waiting &w : all) add(std::move(w.c));
}

std::unique_ptr<Selection> makeSelection(std::string_view name) {
  if (name == "knn") return std::make_unique<KnnSelection>();
  if (name == "fifo") return std::make_unique<FifoSelection>();
  return nullptr;
}

} // namespace mosaic::concolic

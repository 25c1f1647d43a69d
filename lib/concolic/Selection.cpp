// TARDIS's learned selection and the FIFO ablation (Selection.h).
#include "mosaic/concolic/Selection.h"

#include <algorithm>
#include <numeric>

namespace mosaic::concolic {

void Knn::update(const Fingerprint &f, Neighbours &n) const {
  // The K most similar; among equals the earlier trained (insertion keeps
  // an equal newcomer after the ones already held).
  const auto nearer = [](const Neighbours::Near &a, const Neighbours::Near &b) {
    return a.similarity != b.similarity ? a.similarity > b.similarity : a.order < b.order;
  };
  for (; n.compared < items_.size(); ++n.compared) {
    const Neighbours::Near near{f.similarity(items_[n.compared].f), n.compared, items_[n.compared].feasible};
    if (n.count == static_cast<std::size_t>(kK) && !nearer(near, n.nearest[kK - 1])) continue;
    std::size_t at = std::min(n.count, static_cast<std::size_t>(kK - 1));
    if (n.count < static_cast<std::size_t>(kK)) ++n.count;
    while (at > 0 && nearer(near, n.nearest[at - 1])) {
      n.nearest[at] = n.nearest[at - 1];
      --at;
    }
    n.nearest[at] = near;
  }
}

Vote Knn::vote(const Neighbours &n) const {
  Vote v;
  if (items_.size() < static_cast<std::size_t>(kK) || n.count < static_cast<std::size_t>(kK)) return v;
  int feasible = 0, infeasible = 0;
  double sum = 0;
  for (const Neighbours::Near &near : n.nearest) {
    sum += near.similarity;
    if (near.similarity == 0) continue; // uncertain: no vote
    (near.feasible ? feasible : infeasible) += 1;
  }
  v.similarity = sum / kK;
  // Known when a majority of the K voted, and the votes are not tied.
  if (feasible + infeasible <= kK / 2 || feasible == infeasible) return v;
  v.known = true;
  v.feasible = feasible > infeasible;
  v.votes = std::max(feasible, infeasible);
  return v;
}

Vote Knn::classify(const Fingerprint &f) const {
  Neighbours n;
  update(f, n);
  return vote(n);
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

void KnnSelection::add(Candidate c) { place(Waiting{std::move(c), {}, {}}); }

void KnnSelection::place(Waiting w) {
  knn_.update(w.c.fingerprint, w.neighbours);
  w.vote = knn_.vote(w.neighbours);
  const int b = bucketOf(w.vote);
  buckets_[b].push_back(std::move(w));
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

void KnnSelection::learn(const std::vector<ClauseHash> &clauses, bool feasible) {
  if (clauses.empty()) return;
  // A solved condition is feasible, and so is every prefix of it; an
  // unsatisfiable one is trained alone.
  Fingerprint prefix;
  for (std::size_t n = 0; n < clauses.size(); ++n) {
    prefix.add(clauses[n]);
    if (feasible || n + 1 == clauses.size()) knn_.train(prefix, feasible);
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
  for (Waiting &w : all) place(std::move(w));
}

std::unique_ptr<Selection> makeSelection(std::string_view name) {
  if (name == "knn") return std::make_unique<KnnSelection>();
  if (name == "fifo") return std::make_unique<FifoSelection>();
  return nullptr;
}

} // namespace mosaic::concolic

// TARDIS's fingerprints, classifier and buckets (ALGORITHMS.md §7), and
// the FIFO ablation.
#include "mosaic/concolic/Fingerprint.h"
#include "mosaic/concolic/Selection.h"

#include <gtest/gtest.h>

#include <map>

namespace {

using namespace mosaic;
using namespace mosaic::concolic;

std::vector<ClauseHash> hashes(const std::vector<std::string> &clauses) {
  std::vector<ClauseHash> out;
  for (const std::string &c : clauses) out.push_back(ClauseHash::of(c));
  return out;
}

TEST(Fingerprint, HashesClausesAsJavaDoes) {
  EXPECT_EQ(javaHash("hello"), 99162322); // "hello".hashCode() in Java
  EXPECT_EQ(javaHash(""), 0);
  // Overflow wraps as Java's int does.
  EXPECT_EQ(javaHash("polygenelubricants"), static_cast<std::int32_t>(0x80000000u));
}

TEST(Fingerprint, ClausesAlikeInShapeAreNearAndAlikeInValuesNearer) {
  const Fingerprint a = Fingerprint::of({"ult({0},10)", "eq({1},65)"});
  const Fingerprint same = Fingerprint::of({"ult({0},10)", "eq({1},65)"});
  const Fingerprint shape = Fingerprint::of({"ult({3},99)", "eq({4},66)"});
  const Fingerprint other = Fingerprint::of({"sgt(mul({0},{1}),7)"});
  EXPECT_EQ(a, same);
  EXPECT_DOUBLE_EQ(a.similarity(same), 1.0);
  // Row 0 (abstract: digits deleted) is the same for `shape`.
  for (int c = 0; c < Fingerprint::kColumns; ++c) EXPECT_EQ(a.test(0, c), shape.test(0, c)) << c;
  EXPECT_GT(a.similarity(shape), a.similarity(other));
  EXPECT_LT(a.similarity(shape), 1.0);
  EXPECT_DOUBLE_EQ(Fingerprint::of({}).similarity(Fingerprint::of({})), 0.0);
}

TEST(Knn, ThreeNeighboursVoteAndTooFewOrUncertainOnesGiveUnknown) {
  Knn knn;
  const Fingerprint f = Fingerprint::of({"ult({0},10)"});
  knn.train(f, true);
  knn.train(f, true);
  EXPECT_FALSE(knn.classify(f).known) << "fewer than K trained";
  knn.train(Fingerprint::of({"ult({0},11)"}), false);
  Vote v = knn.classify(f);
  ASSERT_TRUE(v.known);
  EXPECT_TRUE(v.feasible);
  EXPECT_EQ(v.votes, 2);
  knn.train(f, true);
  v = knn.classify(f);
  EXPECT_EQ(v.votes, 3);
  EXPECT_DOUBLE_EQ(v.similarity, 1.0);
  // Nothing like it trained: every neighbour uncertain.
  EXPECT_FALSE(knn.classify(Fingerprint::of({})).known);
}

TEST(Knn, NeighboursBroughtUpToDateVoteAsAClassificationFromScratch) {
  // Waiting conditions keep their K nearest and compare only the items
  // trained since; ties go to the earlier trained either way.
  Knn knn;
  const Fingerprint f = Fingerprint::of({"ult({0},10)", "eq({1},65)"});
  Knn::Neighbours kept;
  const std::vector<std::pair<std::vector<std::string>, bool>> training = {
      {{"ult({0},10)"}, false},           {{"eq({1},65)"}, true},  {{"ult({0},10)", "eq({1},66)"}, false},
      {{"sgt({2},3)"}, true},             {{"ult({0},10)"}, true}, {{"ult({0},10)", "eq({1},65)"}, true},
      {{"ult({0},10)", "eq({1},65)"}, false}, {{"eq({1},65)"}, false}};
  for (const auto &[clauses, feasible] : training) {
    knn.train(Fingerprint::of(clauses), feasible);
    knn.update(f, kept);
    const Vote fresh = knn.classify(f), incremental = knn.vote(kept);
    EXPECT_EQ(fresh.known, incremental.known) << knn.size();
    EXPECT_EQ(fresh.feasible, incremental.feasible) << knn.size();
    EXPECT_EQ(fresh.votes, incremental.votes) << knn.size();
    EXPECT_DOUBLE_EQ(fresh.similarity, incremental.similarity) << knn.size();
  }
  EXPECT_EQ(kept.compared, knn.size());
}

TEST(Fingerprint, AddingClausesOneByOneIsTheFingerprintOfThemAll) {
  Fingerprint f;
  f.add("ult({0},10)");
  f.add("eq({1},65)");
  EXPECT_EQ(f, Fingerprint::of({"ult({0},10)", "eq({1},65)"}));
}

TEST(KnnSelection, VotesPutConditionsInTheFourBuckets) {
  EXPECT_EQ(KnnSelection::bucketOf({true, true, 3, 1}), 0);
  EXPECT_EQ(KnnSelection::bucketOf({true, true, 2, 1}), 1);
  EXPECT_EQ(KnnSelection::bucketOf({true, false, 2, 1}), 2);
  EXPECT_EQ(KnnSelection::bucketOf({true, false, 3, 1}), 3);
  EXPECT_EQ(KnnSelection::bucketOf({}), 3);
}

TEST(KnnSelection, SolvedConditionsTrainWithTheirPrefixesAndUnsolvedOnesAlone) {
  KnnSelection s;
  s.learn(hashes({"a", "b", "c"}), true);
  EXPECT_EQ(s.classifier().size(), 3u);
  s.learn(hashes({"a", "d"}), false);
  EXPECT_EQ(s.classifier().size(), 4u);
}

TEST(KnnSelection, BucketsAreDrawnFiftyThirtyFifteenFive) {
  // One condition in each bucket, put back after each draw: over 20,000
  // draws (seed 1) each bucket's share is its percentage within 1.5 points.
  KnnSelection s;
  const std::vector<std::string> sure{"ult({0},10)"}, likely{"eq({1},65)"}, unlikely{"sgt({2},3)"},
      never{"eq(mul({3},2),7)"};
  for (int k = 0; k < 3; ++k) s.learn(hashes(sure), true);
  for (int k = 0; k < 2; ++k) s.learn(hashes(likely), true);
  s.learn(hashes(likely), false);
  s.learn(hashes(unlikely), true);
  for (int k = 0; k < 2; ++k) s.learn(hashes(unlikely), false);
  for (int k = 0; k < 3; ++k) s.learn(hashes(never), false);
  const std::vector<Fingerprint> prints{Fingerprint::of(sure), Fingerprint::of(likely), Fingerprint::of(unlikely),
                                        Fingerprint::of(never)};
  for (std::uint64_t b = 0; b < 4; ++b) {
    ASSERT_EQ(KnnSelection::bucketOf(s.classifier().classify(prints[b])), static_cast<int>(b));
    s.add({b, prints[b]});
  }
  Rng rng(1);
  std::map<std::uint64_t, int> drawn;
  constexpr int kDraws = 20000;
  for (int k = 0; k < kDraws; ++k) {
    const auto id = s.next(rng);
    ASSERT_TRUE(id);
    ++drawn[*id];
    s.add({*id, prints[*id]});
  }
  for (std::uint64_t b = 0; b < 4; ++b)
    EXPECT_NEAR(drawn[b] / double(kDraws), KnnSelection::kBucketPercent[b] / 100.0, 0.015) << "bucket " << b;
}

TEST(KnnSelection, AnEmptyBucketFallsToTheNextWorseThenTheBetterOnes) {
  KnnSelection s;
  Rng rng(7);
  s.add({42, Fingerprint::of({"a"})}); // nothing trained: unknown, bucket 3
  EXPECT_EQ(s.next(rng), 42u);
  EXPECT_FALSE(s.next(rng));
  for (int k = 0; k < 3; ++k) s.learn(hashes({"ult({0},10)"}), true);
  s.add({7, Fingerprint::of({"ult({0},10)"})}); // bucket 0 only
  EXPECT_EQ(s.next(rng), 7u);
}

TEST(KnnSelection, WaitingConditionsAreClassifiedAgainAsTheTrainingGrows) {
  KnnSelection s;
  const std::vector<std::string> f{"ult({0},10)"}, g{"eq(mul({3},2),7)"};
  for (int k = 0; k < 3; ++k) s.learn(hashes(g), false);
  s.add({1, Fingerprint::of(f)}); // its neighbours are all g's: bucket 3
  for (std::size_t k = 0; k + 3 < KnnSelection::kReclassifyEvery; ++k) s.learn(hashes(f), true);
  // Reclassified at 20 trained: now in bucket 0, drawn half the time
  // against a condition of bucket 3 (which takes the other draws). Left in
  // bucket 3, the roulette on similarity would all but never pick it.
  s.add({2, Fingerprint::of(g)});
  Rng rng(3);
  int ones = 0;
  for (int k = 0; k < 100; ++k) {
    KnnSelection copy = s;
    ones += copy.next(rng) == 1u;
  }
  EXPECT_GT(ones, 35);
  EXPECT_LT(ones, 65);
}

TEST(FifoSelection, SolvesInTheOrderConditionsCame) {
  FifoSelection s;
  Rng rng(1);
  for (std::uint64_t id : {5, 3, 9}) s.add({id, {}});
  EXPECT_EQ(s.next(rng), 5u);
  EXPECT_EQ(s.next(rng), 3u);
  EXPECT_EQ(s.next(rng), 9u);
  EXPECT_FALSE(s.next(rng));
  EXPECT_TRUE(makeSelection("fifo"));
  EXPECT_TRUE(makeSelection("knn"));
  EXPECT_FALSE(makeSelection("lifo"));
}

} // namespace

// Preference sorting, non-dominated sorting, crowding and selection
// (ALGORITHMS.md §1.3) with exact expectations.
#include "mosaic/search/Ranking.h"

#include <gtest/gtest.h>

using namespace mosaic;
using namespace mosaic::search;

TEST(Ranking, DominanceIsStrictOnOneGoal) {
  EXPECT_TRUE(dominates({0, 1}, {0, 2}));
  EXPECT_FALSE(dominates({0, 1}, {0, 1}));
  EXPECT_FALSE(dominates({0, 3}, {1, 2}));
}

TEST(Ranking, PreferenceSortingPutsEachGoalsBestFirst) {
  // Goals: g0 best is #2, g1 best is #0 (tie with #3 broken by length).
  const FitnessMatrix f{{0.5, 0.1}, {0.9, 0.9}, {0.2, 0.8}, {0.6, 0.1}, {0.9, 0.95}};
  const std::vector<size_t> lengths{3, 3, 3, 7, 3};
  Rng rng(1);
  const TieBreak shorter = [&](size_t, size_t a, size_t b) {
    return lengths[a] < lengths[b] ? -1 : lengths[a] > lengths[b] ? 1 : 0;
  };
  const auto fronts = preferenceSort(f, shorter, 4, rng);
  ASSERT_GE(fronts.size(), 2u);
  EXPECT_EQ(fronts[0], (std::vector<size_t>{0, 2}));
  // The rest by Pareto fronts until 4 are ranked: #3 dominates #1 and #4,
  // #1 dominates #4.
  EXPECT_EQ(fronts[1], (std::vector<size_t>{3}));
  EXPECT_EQ(fronts[2], (std::vector<size_t>{1}));
}

TEST(Ranking, WhenTheFirstFrontFillsThePopulationTheRestShareRankOne) {
  const FitnessMatrix f{{0, 1}, {1, 0}, {1, 1}, {2, 2}};
  Rng rng(1);
  const auto fronts = preferenceSort(f, [](size_t, size_t, size_t) { return 0; }, 2, rng);
  ASSERT_EQ(fronts.size(), 2u);
  EXPECT_EQ(fronts[0], (std::vector<size_t>{0, 1}));
  EXPECT_EQ(fronts[1], (std::vector<size_t>{2, 3}));
}

TEST(Ranking, NonDominatedSortStopsOnceEnoughAreRanked) {
  const FitnessMatrix f{{1, 1}, {2, 2}, {3, 3}, {4, 4}};
  const auto fronts = nonDominatedSort(f, {0, 1, 2, 3}, 2);
  ASSERT_EQ(fronts.size(), 3u);
  EXPECT_EQ(fronts[0], std::vector<size_t>{0});
  EXPECT_EQ(fronts[1], std::vector<size_t>{1});
  EXPECT_EQ(fronts[2], (std::vector<size_t>{2, 3})); // the unranked rest
}

TEST(Ranking, CrowdingRewardsBeingAloneAtAGoalsMinimum) {
  // g0: #0 alone at the minimum -> (3-1)/3; g1: #1 and #2 share it -> 1/3;
  // g2: all equal -> ignored.
  const FitnessMatrix f{{0, 5, 1}, {1, 2, 1}, {2, 2, 1}};
  const auto d = crowdingDistance(f, {0, 1, 2});
  EXPECT_DOUBLE_EQ(d[0], 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(d[1], 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(d[2], 1.0 / 3.0);
}

TEST(Ranking, TournamentPrefersLowRankThenCrowding) {
  const std::vector<size_t> ranks{1, 0, 0, 2};
  const std::vector<double> crowding{0.9, 0.1, 0.5, 1.0};
  Rng rng(3);
  // With many rounds the best (rank 0, crowding 0.5) always wins.
  for (int i = 0; i < 50; ++i) EXPECT_EQ(tournament(ranks, crowding, 40, rng), 2u);
}

TEST(Ranking, RankSelectionFavoursTheFront) {
  Rng rng(5);
  std::vector<int> hits(10, 0);
  for (int i = 0; i < 10000; ++i) {
    const size_t k = rankSelection(10, 1.7, rng);
    ASSERT_LT(k, 10u);
    ++hits[k];
  }
  EXPECT_GT(hits[0], hits[9] * 3); // bias 1.7: the best is picked far more often
}

TEST(Ranking, AFitnessMatrixHasEachGoalsColumnAndKnowsTheConstantOnes) {
  const FitnessMatrix f{{0, 5, 1}, {1, 2, 1}, {2, 2, 1}};
  ASSERT_EQ(f.size(), 3u);
  ASSERT_EQ(f.goals(), 3u);
  for (size_t g = 0; g < 3; ++g)
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(f.column(g)[i], f.row(i)[g]);
  EXPECT_FALSE(f.constant(0));
  EXPECT_FALSE(f.constant(1));
  EXPECT_TRUE(f.constant(2));
}

TEST(Ranking, ATieBreakBlindToTheGoalIsAskedOnlyToSortTheIndividuals) {
  // 40 individuals of lengths 1-5, 300 goals with many ties (values 0-2)
  // and every fifth goal constant: settled by the individuals' order, the
  // ties go where asking per column sends them, with the same coin flips.
  Rng values(3);
  std::vector<size_t> lengths;
  for (size_t i = 0; i < 40; ++i) lengths.push_back(1 + values.index(5));
  std::vector<std::vector<double>> rows(40);
  for (size_t g = 0; g < 300; ++g)
    for (size_t i = 0; i < 40; ++i) rows[i].push_back(g % 5 == 0 ? 1.0 : static_cast<double>(values.index(3)));
  const FitnessMatrix f(rows);
  int asked = 0;
  const TieBreak shorter = [&](size_t, size_t a, size_t b) {
    ++asked;
    return lengths[a] < lengths[b] ? -1 : lengths[a] > lengths[b] ? 1 : 0;
  };
  Rng rng(1);
  const auto fronts = preferenceSort(f, shorter, 30, rng, true);
  EXPECT_LT(asked, 40 * 8); // a sort's comparisons and a pass over the order
  const int sorting = asked;
  asked = 0;
  Rng again(1);
  EXPECT_EQ(preferenceSort(f, shorter, 30, again, false), fronts);
  EXPECT_EQ(rng.index(1000000), again.index(1000000));
  EXPECT_GT(asked, 300); // asked per column: more than once per goal
  EXPECT_LT(sorting, asked / 4);
}

TEST(Ranking, NonDominatedSortMakesTheSameFrontsAsComparingEveryPairBothWays) {
  // Fast non-dominated sorting against the definition (a front: the
  // members no unranked member dominates), on random rows with ties and
  // dominance both ways.
  Rng values(5);
  std::vector<std::vector<double>> rows(40);
  for (auto &row : rows)
    for (size_t g = 0; g < 6; ++g) row.push_back(static_cast<double>(values.index(4)));
  const FitnessMatrix f(rows);
  std::vector<size_t> members(40);
  for (size_t i = 0; i < 40; ++i) members[i] = i;
  // Front by front: those no unranked member dominates.
  std::vector<std::vector<size_t>> expected;
  std::vector<bool> ranked(40, false);
  for (size_t done = 0; done < 40;) {
    std::vector<size_t> front;
    for (size_t b = 0; b < 40; ++b) {
      if (ranked[b]) continue;
      bool free = true;
      for (size_t a = 0; a < 40 && free; ++a) free = ranked[a] || !dominates(rows[a], rows[b]);
      if (free) front.push_back(b);
    }
    for (size_t b : front) ranked[b] = true;
    done += front.size();
    expected.push_back(front);
  }
  auto fronts = nonDominatedSort(f, members, 40);
  for (auto &front : fronts) std::sort(front.begin(), front.end());
  EXPECT_EQ(fronts, expected);
  EXPECT_GT(expected.size(), 2u);
}

TEST(Ranking, ColumnsKnownConstantAreNotStoredAndRankAsIfTheyWere) {
  // Six individuals, 40 goals: every fourth goal no one reaches (1.0 for
  // all); the others vary. Declared constant up front, those columns are
  // not stored, and the fronts, the crowding and the random draws are the
  // same as with every column stored.
  const std::vector<size_t> lengths{5, 2, 4, 2, 3, 6};
  std::vector<std::vector<double>> full(6), part(6);
  std::vector<bool> known(40, false);
  Rng values(7);
  for (size_t g = 0; g < 40; ++g) {
    known[g] = g % 4 == 0;
    for (size_t i = 0; i < 6; ++i) {
      const double v = known[g] ? 1.0 : static_cast<double>(values.index(4)) / 4.0;
      full[i].push_back(v);
      if (!known[g]) part[i].push_back(v);
    }
  }
  const FitnessMatrix all(full), stored(part, known);
  ASSERT_EQ(stored.goals(), 40u);
  EXPECT_EQ(stored.row(0).size(), 30u);
  for (size_t g = 0; g < 40; ++g) {
    EXPECT_EQ(stored.constant(g), all.constant(g)) << g;
    EXPECT_EQ(stored.column(g) == nullptr, known[g]) << g;
    if (!known[g])
      for (size_t i = 0; i < 6; ++i) EXPECT_EQ(stored.column(g)[i], all.column(g)[i]);
  }
  const TieBreak shorter = [&](size_t, size_t a, size_t b) {
    return lengths[a] < lengths[b] ? -1 : lengths[a] > lengths[b] ? 1 : 0;
  };
  Rng a(3), b(3);
  const auto expected = preferenceSort(all, shorter, 4, a, true);
  const auto fronts = preferenceSort(stored, shorter, 4, b, true);
  EXPECT_EQ(fronts, expected);
  EXPECT_EQ(a.next(), b.next());
  for (const auto &front : fronts) EXPECT_EQ(crowdingDistance(stored, front), crowdingDistance(all, front));
}

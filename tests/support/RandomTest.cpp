// Rng's roulette wheel (support/Random.h), which the test factory,
// bloodhound and GRT's orienteering draw with.
#include "mosaic/support/Random.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

using mosaic::Rng;

TEST(Rng, WeightedDrawsInProportionToTheWeightsAndSaysWhenNothingWeighs) {
  Rng rng(1);
  const std::vector<double> w = {1.0, 0.0, 3.0};
  std::array<int, 3> seen{};
  constexpr int kDraws = 40000;
  for (int i = 0; i < kDraws; ++i) ++seen[*rng.weighted(w.size(), [&](size_t k) { return w[k]; })];
  EXPECT_EQ(seen[1], 0); // a zero weight is never drawn
  // 1/4 and 3/4, within five standard deviations (sqrt(40000 * 3/16) ≈ 87).
  EXPECT_NEAR(seen[0], kDraws / 4, 435);
  EXPECT_NEAR(seen[2], kDraws * 3 / 4, 435);
  // All weights zero: no index, and no draw taken from the sequence.
  Rng a(7), b(7);
  EXPECT_FALSE(a.weighted(3, [](size_t) { return 0.0; }));
  EXPECT_EQ(a.next(), b.next());
}

// The search's calibrated CPU-time limit (Executors.h: SearchTimeout).
#include "Executors.h"

#include <gtest/gtest.h>

namespace mosaic {
namespace {

exec::RunResult ended(exec::Outcome outcome, std::uint32_t cpuUs) {
  exec::RunResult r;
  r.outcome = outcome;
  r.cpuUs = cpuUs;
  return r;
}

TEST(SearchTimeout, TheCeilingUntilEnoughTestsEndedNormallyThenTenTimesTheSlowest) {
  driver::SearchTimeout t(1000);
  for (std::uint32_t k = 1; k < driver::SearchTimeout::kWarmup; ++k) t.observe(ended(exec::Outcome::Ok, 300));
  EXPECT_EQ(t.limitMs(), 1000u); // 99 normal tests: not yet
  // Failures, and tests whose CPU time is unknown, do not count.
  t.observe(ended(exec::Outcome::Crash, 90'000));
  t.observe(ended(exec::Outcome::Timeout, 900'000));
  t.observe(ended(exec::Outcome::Ok, 0));
  EXPECT_EQ(t.limitMs(), 1000u);
  t.observe(ended(exec::Outcome::Ok, 300));
  EXPECT_EQ(t.limitMs(), 5u); // 10 x 0.3 ms is below the floor
  t.observe(ended(exec::Outcome::Ok, 1500));
  EXPECT_EQ(t.limitMs(), 15u); // 10 x the slowest
  t.observe(ended(exec::Outcome::Ok, 12'345));
  EXPECT_EQ(t.limitMs(), 124u); // 10 x 12.345 ms, rounded up
  t.observe(ended(exec::Outcome::Ok, 400'000));
  EXPECT_EQ(t.limitMs(), 1000u); // never above the ceiling (--timeout)
}

TEST(SearchTimeout, OneNormalTestFarAboveTheRestDoesNotSetTheLimit) {
  driver::SearchTimeout t(1000);
  for (std::uint32_t k = 0; k < 2000; ++k) t.observe(ended(exec::Outcome::Ok, 800));
  EXPECT_EQ(t.limitMs(), 8u);
  // One in 2,001 at 7 ms: above the 99.9th percentile, whose bucket (512-1023 us)
  // bounds the slow end at 1,023 us.
  t.observe(ended(exec::Outcome::Ok, 7000));
  EXPECT_EQ(t.limitMs(), 11u);
  // Ten of them, one in 200: the slow end now.
  for (std::uint32_t k = 0; k < 9; ++k) t.observe(ended(exec::Outcome::Ok, 7000));
  EXPECT_EQ(t.limitMs(), 70u);
}

TEST(SearchTimeout, ACeilingBelowTheFloorStaysTheLimit) {
  driver::SearchTimeout t(3);
  for (std::uint32_t k = 0; k < driver::SearchTimeout::kWarmup; ++k) t.observe(ended(exec::Outcome::Ok, 10));
  EXPECT_EQ(t.limitMs(), 3u);
}

} // namespace
} // namespace mosaic

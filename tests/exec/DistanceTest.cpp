// The pass's branch distances and static description, exactly, at -O0 and
// -O2, measured through the whole engine (harness, fork server, trace).
#include "common/UnitHarness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace mosaic;
using namespace mosaic::test;

namespace {

const std::string kUnit = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/exec/distances.c";

class Distances : public ::testing::TestWithParam<const char *> {
protected:
  static std::map<std::string, std::unique_ptr<UnitHarness>> &harnesses() {
    static std::map<std::string, std::unique_ptr<UnitHarness>> h;
    return h;
  }
  UnitHarness &unit() {
    auto &h = harnesses()[GetParam()];
    if (!h) h = UnitHarness::make(GetParam(), kUnit);
    return *h;
  }
  // Distances of the true and false sides of the branch at function:line
  // after calling the function with `args`.
  std::pair<double, double> sides(const std::string &function, unsigned line, std::vector<Arg> args) {
    UnitHarness &u = unit();
    const exec::RunResult r = u.run(u.call(function, args));
    EXPECT_EQ(r.outcome, exec::Outcome::Ok);
    const model::BranchInfo &b = u.branch(function, line);
    return {u.distance(b.sides.at(0).id), u.distance(b.sides.at(1).id)};
  }
};

constexpr double nu(double x) { return x / (x + 1); }

} // namespace

TEST_P(Distances, IntegerEqualityDistanceIsTheDifference) {
  EXPECT_EQ(sides("eq42", 7, {std::int64_t{40}}), std::make_pair(2.0, 0.0));
  EXPECT_EQ(sides("eq42", 7, {std::int64_t{42}}), std::make_pair(0.0, 1.0));
  EXPECT_EQ(sides("eq42", 7, {std::int64_t{-8}}), std::make_pair(50.0, 0.0));
}

TEST_P(Distances, OrderedComparisonsAddOne) {
  EXPECT_EQ(sides("lt_unsigned", 12, {std::int64_t{15}}), std::make_pair(6.0, 0.0));
  EXPECT_EQ(sides("lt_unsigned", 12, {std::int64_t{3}}), std::make_pair(0.0, 8.0));
  EXPECT_EQ(sides("ge_signed", 17, {std::int64_t{-8}}), std::make_pair(4.0, 0.0));
  EXPECT_EQ(sides("ge_signed", 17, {std::int64_t{-5}}), std::make_pair(0.0, 1.0));
}

TEST_P(Distances, FloatingPointAndNaN) {
  EXPECT_EQ(sides("feq", 22, {2.0}), std::make_pair(0.5, 0.0));
  EXPECT_EQ(sides("flt", 27, {1.5}), std::make_pair(1.5, 0.0));
  EXPECT_EQ(sides("flt", 27, {std::nan("")}), std::make_pair(1.0, 0.0)); // ordered <: false for NaN
}

TEST_P(Distances, PointersAreNullOrNot) {
  EXPECT_EQ(sides("is_null", 32, {nullptr}), std::make_pair(0.0, 1.0));
  EXPECT_EQ(sides("is_null", 32, {Bytes{"four"}}), std::make_pair(1.0, 0.0)); // a non-null pointer
}

TEST_P(Distances, SwitchCasesAreAsFarAsTheValue) {
  UnitHarness &u = unit();
  ASSERT_EQ(u.run(u.call("sw", {std::int64_t{4}})).outcome, exec::Outcome::Ok);
  const model::BranchInfo &b = u.branch("sw", 37);
  ASSERT_TRUE(b.isSwitch);
  std::map<std::int64_t, double> byCase;
  double def = -2;
  for (const auto &s : b.sides) {
    if (s.isDefault) def = u.distance(s.id);
    else byCase[*s.value] = u.distance(s.id);
  }
  EXPECT_EQ(byCase, (std::map<std::int64_t, double>{{1, 3.0}, {5, 1.0}, {100, 96.0}}));
  EXPECT_EQ(def, 0.0);
}

TEST_P(Distances, StringComparisonsGuideTowardEqualBytes) {
  // One byte off: 'a' for 'c' is nu(2); 'X' for 'T' is nu(4); 'G' for 'F' is nu(1).
  auto [t, f] = sides("magic", 46, {std::string("magia")});
  EXPECT_DOUBLE_EQ(t, nu(2));
  EXPECT_EQ(f, 0.0);
  auto [t2, f2] = sides("magic", 46, {std::string("mag")}); // two bytes short
  EXPECT_DOUBLE_EQ(t2, 2.0);
  EXPECT_EQ(sides("magic", 46, {std::string("magic")}), std::make_pair(0.0, 1.0));
  auto [t3, f3] = sides("prefix", 51, {std::string("GEX /index.html")});
  EXPECT_DOUBLE_EQ(t3, nu(4));
  (void)f2, (void)f3;
}

TEST_P(Distances, MemcmpAfterShortCircuit) {
  UnitHarness &u = unit();
  ASSERT_EQ(u.run(u.call("elf", {Bytes{"\177ELG"}, std::int64_t{4}})).outcome, exec::Outcome::Ok);
  // `n >= 4 && memcmp(...) == 0`: two branches; the second is the memcmp one.
  const auto &f = *std::find_if(u.description.functions.begin(), u.description.functions.end(),
                                [](const auto &fn) { return fn.name == "elf"; });
  ASSERT_EQ(f.branches.size(), 2u);
  EXPECT_EQ(u.distance(f.branches[0].sides[0].id), 0.0); // n >= 4 held
  EXPECT_DOUBLE_EQ(u.distance(f.branches[1].sides[0].id), nu(1));
}

TEST_P(Distances, ComparisonOperandsAreRecorded) {
  UnitHarness &u = unit();
  ASSERT_EQ(u.run(u.call("eq42", {std::int64_t{40}})).outcome, exec::Outcome::Ok);
  bool saw = false;
  for (const auto &c : u.server->trace().comparisons()) saw |= c.a == 40 && c.b == 42;
  EXPECT_TRUE(saw);
  ASSERT_EQ(u.run(u.call("magic", {std::string("magia")})).outcome, exec::Outcome::Ok);
  ASSERT_FALSE(u.server->trace().strings().empty());
  const auto &s = u.server->trace().strings()[0];
  EXPECT_EQ(std::string(s.a, s.len_a), "magia");
  EXPECT_EQ(std::string(s.b, s.len_b), "magic");
}

TEST_P(Distances, DifferentInputsGiveDifferentTraces) {
  UnitHarness &u = unit();
  u.run(u.call("nested", {std::int64_t{3}, std::int64_t{6}}));
  const std::vector<std::uint8_t> a(u.server->trace().blocks().begin(), u.server->trace().blocks().end());
  u.run(u.call("nested", {std::int64_t{-3}, std::int64_t{6}}));
  const std::vector<std::uint8_t> b(u.server->trace().blocks().begin(), u.server->trace().blocks().end());
  EXPECT_NE(a, b);
  u.run(u.call("nested", {std::int64_t{3}, std::int64_t{6}}));
  const std::vector<std::uint8_t> c(u.server->trace().blocks().begin(), u.server->trace().blocks().end());
  EXPECT_EQ(a, c); // and the same input the same trace
}

// A block's byte counts the calls of its last run that returned (BBC's
// first scenario): magic's entry block calls strcmp once before its branch.
TEST_P(Distances, ABlocksByteCountsItsCallsThatReturned) {
  UnitHarness &u = unit();
  const model::BranchInfo &b = u.branch("magic", 46);
  u.run(u.call("magic", {std::string("magia")}));
  const auto ran = u.server->trace().blocks();
  ASSERT_LT(b.block, ran.size());
  EXPECT_EQ(ran[b.block], 2) << "entered (1), and strcmp returned (+1)";
}

TEST_P(Distances, ControlDependencesFollowThePostDominatorTree) {
  UnitHarness &u = unit();
  const model::BranchInfo &outer = u.branch("nested", 61), &inner = u.branch("nested", 62);
  const auto &f = *std::find_if(u.description.functions.begin(), u.description.functions.end(),
                                [](const auto &fn) { return fn.name == "nested"; });
  auto block = [&](std::uint32_t id) -> const model::BlockInfo & {
    return *std::find_if(f.blocks.begin(), f.blocks.end(), [&](const auto &b) { return b.id == id; });
  };
  // The inner test runs only when a > 0: its block depends on the outer true side.
  EXPECT_EQ(block(inner.block).deps, (std::vector<std::uint32_t>{outer.sides[0].id}));
  // `return 2` depends on the inner true side only.
  EXPECT_EQ(block(inner.sides[0].target).deps, (std::vector<std::uint32_t>{inner.sides[0].id}));
  // The entry depends on nothing; the diameter is at least the nesting depth.
  EXPECT_TRUE(block(f.entry).deps.empty());
  EXPECT_GE(f.diameter, 2u);
}

// The edges a run takes only when it fails (a UBSan check's to its report,
// an invoke's unwinding) do not count: the blocks past a check or a call
// that may throw depend on what the check or the call does, not on
// nothing (as if they ran whenever their function did).
namespace {
const model::BlockInfo &blockOf(const model::FunctionInfo &f, std::uint32_t id) {
  return *std::find_if(f.blocks.begin(), f.blocks.end(), [&](const auto &b) { return b.id == id; });
}
const model::FunctionInfo &functionOf(const UnitHarness &u, const std::string &name) {
  return *std::find_if(u.description.functions.begin(), u.description.functions.end(),
                       [&](const auto &fn) { return fn.name == name; });
}
} // namespace

TEST(ControlDependences, BlocksPastASanitizersCheckDependOnWhatTheCheckDoes) {
  // nested's `2 * a` (line 62) is checked for overflow under UBSan: the
  // inner branch's block comes after the check.
  auto u = UnitHarness::make(MOSAIC_FIXTURE_EXEC_O0_DB_DIR, kUnit, /*sanitize=*/true);
  const model::BranchInfo &outer = u->branch("nested", 61), &inner = u->branch("nested", 62);
  const model::FunctionInfo &f = functionOf(*u, "nested");
  EXPECT_EQ(blockOf(f, inner.block).deps, (std::vector<std::uint32_t>{outer.sides[0].id}));
  // Every block of line 62 a run that passes the check goes through.
  ASSERT_EQ(u->run(u->call("nested", {std::int64_t{1}, std::int64_t{2}})).outcome, exec::Outcome::Ok);
  const auto ran = u->server->trace().blocks();
  size_t checked = 0;
  for (const model::BlockInfo &b : f.blocks)
    if (b.id < ran.size() && ran[b.id] && std::find(b.lines.begin(), b.lines.end(), 62u) != b.lines.end()) {
      ++checked;
      EXPECT_EQ(b.deps, (std::vector<std::uint32_t>{outer.sides[0].id})) << "block " << b.id;
    }
  EXPECT_GE(checked, 2u); // the check's block and the branch's, at least
}

TEST(ControlDependences, BlocksPastACallThatMayThrowDependOnWhatTheCallDoes) {
  // guarded invokes sign with a string to destroy: the return after the
  // call runs only when x > 3.
  auto u = UnitHarness::make(MOSAIC_FIXTURE_EXEC_O0_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/exec/calls.cpp");
  const model::FunctionInfo &f = functionOf(*u, "guarded");
  const model::BranchInfo &b = u->branch("guarded", 56);
  size_t returns = 0;
  for (const model::BlockInfo &x : f.blocks)
    if (std::find(x.lines.begin(), x.lines.end(), 59u) != x.lines.end()) {
      ++returns;
      EXPECT_EQ(x.deps, (std::vector<std::uint32_t>{b.sides[0].id})) << "block " << x.id;
    }
  EXPECT_GE(returns, 1u);
}

INSTANTIATE_TEST_SUITE_P(OptimisationLevels, Distances,
                         ::testing::Values(MOSAIC_FIXTURE_EXEC_O0_DB_DIR, MOSAIC_FIXTURE_EXEC_O2_DB_DIR),
                         [](const auto &info) { return info.index == 0 ? std::string("O0") : std::string("O2"); });

// Direct calls through the whole engine (issue 20: the direct-branch,
// top-level and no-exception criteria): which functions a test called
// itself and which returned to it, and which branch sides were taken in
// such a call rather than in one the unit made, across exceptions caught
// in the unit, longjmp and exit.
#include "common/UnitHarness.h"

#include <gtest/gtest.h>

using namespace mosaic;
using namespace mosaic::test;

namespace {

const std::string kCallsUnit = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/exec/calls.cpp";

UnitHarness &calls() {
  static std::unique_ptr<UnitHarness> h = UnitHarness::make(MOSAIC_FIXTURE_EXEC_O0_DB_DIR, kCallsUnit);
  return *h;
}

const model::FunctionInfo &callsFunction(const UnitHarness &u, const std::string &name) {
  for (const auto &f : u.description.functions)
    if (f.name == name) return f;
  throw std::runtime_error("no function " + name);
}

// MOSAIC_DIRECT_* of `name` in the last run.
unsigned direct(const UnitHarness &u, const std::string &name) {
  return u.server->trace().direct()[callsFunction(u, name).entry];
}

// The side of the branch of `name` at `line` (k = 0: true, 1: false),
// taken directly (1), evaluated directly (> 1) or not (0) in the last run.
double directSide(const UnitHarness &u, const std::string &name, unsigned line, unsigned k) {
  return u.server->trace().directSides()[u.branch(name, line).sides[k].id];
}
double anySide(const UnitHarness &u, const std::string &name, unsigned line, unsigned k) {
  return u.server->trace().sides()[u.branch(name, line).sides[k].id];
}

} // namespace

TEST(DirectCalls, ACallTheTestMakesIsDirectOneTheUnitMakesIsNot) {
  UnitHarness &u = calls();
  ASSERT_EQ(u.run(u.call("twice_sign", {std::int64_t{-3}})).outcome, exec::Outcome::Ok);
  EXPECT_EQ(direct(u, "twice_sign"), MOSAIC_DIRECT_ENTERED | MOSAIC_DIRECT_RETURNED);
  EXPECT_EQ(direct(u, "sign"), 0u);
  EXPECT_EQ(anySide(u, "sign", 8, 0), 1.0);    // x < 0 taken...
  EXPECT_EQ(directSide(u, "sign", 8, 0), 0.0); // ...but not in a direct call

  ASSERT_EQ(u.run(u.call("sign", {std::int64_t{-3}})).outcome, exec::Outcome::Ok);
  EXPECT_EQ(direct(u, "sign"), MOSAIC_DIRECT_ENTERED | MOSAIC_DIRECT_RETURNED);
  EXPECT_EQ(directSide(u, "sign", 8, 0), 1.0);
  EXPECT_EQ(directSide(u, "sign", 8, 1), 5.0); // 1 + distance: -3 is 4 from >= 0 (x < 0 false needs x = 0)
}

TEST(DirectCalls, ACallThatThrowsOutIsEnteredButDoesNotReturn) {
  UnitHarness &u = calls();
  u.run(u.call("checked", {std::int64_t{-1}}));
  EXPECT_EQ(direct(u, "checked"), MOSAIC_DIRECT_ENTERED);
  u.run(u.call("checked", {std::int64_t{1}}));
  EXPECT_EQ(direct(u, "checked"), MOSAIC_DIRECT_ENTERED | MOSAIC_DIRECT_RETURNED);
}

TEST(DirectCalls, AnExceptionCaughtInTheUnitLeavesTheCallDirect) {
  UnitHarness &u = calls();
  ASSERT_EQ(u.run(u.call("recovered", {std::int64_t{-9}})).outcome, exec::Outcome::Ok);
  EXPECT_EQ(direct(u, "recovered"), MOSAIC_DIRECT_ENTERED | MOSAIC_DIRECT_RETURNED);
  EXPECT_EQ(direct(u, "checked"), 0u);
  EXPECT_EQ(directSide(u, "recovered", 27, 0), 1.0); // x < -5, after the catch
}

TEST(DirectCalls, ALongjmpBackLeavesTheCallDirect) {
  UnitHarness &u = calls();
  ASSERT_EQ(u.run(u.call("jumped", {std::int64_t{20}})).outcome, exec::Outcome::Ok);
  EXPECT_EQ(direct(u, "jumped"), MOSAIC_DIRECT_ENTERED | MOSAIC_DIRECT_RETURNED);
  EXPECT_EQ(directSide(u, "jumped", 40, 0), 1.0); // x > 10, after the second return of setjmp
}

TEST(DirectCalls, ACallThatExitsDoesNotReturn) {
  UnitHarness &u = calls();
  EXPECT_EQ(u.run(u.call("quits", {std::int64_t{1}})).outcome, exec::Outcome::Exit);
  EXPECT_EQ(direct(u, "quits"), MOSAIC_DIRECT_ENTERED);
}

TEST(DirectCalls, DepthStartsAgainAtEachStatement) {
  // checked throws out of the first statement; the test stops there, and
  // the next test's call is direct again.
  UnitHarness &u = calls();
  testcase::TestCase t = u.call("checked", {std::int64_t{-1}});
  u.run(t);
  ASSERT_EQ(u.run(u.call("sign", {std::int64_t{2}})).outcome, exec::Outcome::Ok);
  EXPECT_EQ(direct(u, "sign"), MOSAIC_DIRECT_ENTERED | MOSAIC_DIRECT_RETURNED);
  EXPECT_EQ(directSide(u, "sign", 9, 0), 1.0);
}

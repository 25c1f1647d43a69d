// Goals, fitness and the DynaMOSA goal graph on a hand-made description
// with exact expectations; the archive's replacement rule.
#include "common/UnitModel.h"
#include "mosaic/search/Archive.h"
#include "mosaic/search/Goals.h"
#include "mosaic/search/Secondary.h"


#include <gtest/gtest.h>

#include <csignal>

using namespace mosaic;
using namespace mosaic::search;

namespace {

model::UnitDescription description() { return test::fourBlocks(); }

Execution run(std::vector<double> sides, std::vector<std::uint8_t> blocks) {
  Execution e;
  e.sides = std::move(sides);
  e.blocks = std::move(blocks);
  return e;
}

// A program whose one target, `f` (the description's function), returns
// `result`: the unit's targets for the goals of what tests call.
model::Program program(model::TypeKind result, bool isSigned = true) {
  model::Program p;
  model::Type t;
  t.kind = result;
  t.isSigned = isSigned;
  t.bits = 32;
  p.types.push_back(t);
  model::Callable c;
  c.name = c.qualifiedName = "f";
  c.linkageNames = {"f"};
  p.callables.push_back(c);
  p.targets = {0};
  return p;
}

size_t goalOfLine(const Goals &g, std::uint32_t line) {
  for (size_t i = 0; i < g.size(); ++i)
    if (g[i].criterion->name() == "line" && g[i].line == line) return i;
  return SIZE_MAX;
}

} // namespace

TEST(Goals, OneGoalPerSidePerLinePerFunction) {
  const auto d = description();
  Goals g(d);
  EXPECT_EQ(g.count("branch"), 4u);
  EXPECT_EQ(g.count("line"), 4u);
  EXPECT_EQ(g.count("function"), 1u);
  EXPECT_EQ(g[g.goalOfSide(0)].label, "f.c:10:7 true (f)");
  EXPECT_EQ(g[g.goalOfSide(3)].label, "f.c:11:9 false (f)");
}

TEST(Goals, FitnessIsApproachLevelPlusNormalisedDistance) {
  const auto d = description();
  Goals g(d);
  // Never called: the diameter + 1 for every branch and line goal.
  const Execution none = run({0, 0, 0, 0}, {0, 0, 0, 0});
  EXPECT_DOUBLE_EQ(g.fitness(g.goalOfSide(0), none), 4.0);
  EXPECT_DOUBLE_EQ(g.fitness(g.goalOfSide(2), none), 4.0);
  EXPECT_DOUBLE_EQ(g.fitness(0, none), 1.0); // the function goal
  // Called, c0 false with a true-distance of 5: side 0 is at ν(5), side 2
  // one level further (approach 1 + ν(5)), side 3 the same.
  const Execution missed = run({1 + 5, 1, 0, 0}, {1, 0, 1, 0});
  EXPECT_DOUBLE_EQ(g.fitness(g.goalOfSide(0), missed), 5.0 / 6.0);
  EXPECT_DOUBLE_EQ(g.fitness(g.goalOfSide(1), missed), 0.0);
  EXPECT_DOUBLE_EQ(g.fitness(g.goalOfSide(2), missed), 1.0 + 5.0 / 6.0);
  EXPECT_DOUBLE_EQ(g.fitness(goalOfLine(g, 12), missed), 2.0 + 5.0 / 6.0); // b3: two levels below side 0
  EXPECT_DOUBLE_EQ(g.fitness(goalOfLine(g, 14), missed), 0.0);
  EXPECT_TRUE(g.covered(g.goalOfSide(1), missed));
  EXPECT_FALSE(g.covered(g.goalOfSide(0), missed));
  // x == 42 with x = 40 gives a distance of 2: ν(2) = 2/3.
  const Execution close = run({1, 1 + 1, 1 + 2, 1}, {1, 1, 1, 0});
  EXPECT_DOUBLE_EQ(g.fitness(g.goalOfSide(2), close), 2.0 / 3.0);
}

TEST(Goals, ARunThatTimedOutIsAsFarAsOneThatNeverCalledAndCoversOnlyItsHang) {
  // EvoSuite's DynaMOSA gives a test that timed out the worst fitness on
  // every goal: what it reached before it hung counts for nothing.
  const auto d = description();
  const model::Program p = program(model::TypeKind::Void);
  Goals g(d, std::move(*makeCriteria({"branch", "line", "ec"})), {&p, {0}});
  Execution hung = run({1 + 5, 1, 0, 0}, {1, 0, 1, 0});
  hung.result.outcome = exec::Outcome::Timeout;
  hung.stoppedAt = 0;
  hung.stoppedCallable = 0;
  EXPECT_EQ(g.discover(hung), 1u);
  for (size_t k = 0; k < g.size(); ++k) {
    if (g[k].failure) {
      EXPECT_EQ(g[k].label, "f() hangs");
      EXPECT_TRUE(g.covered(k, hung));
      EXPECT_DOUBLE_EQ(g.fitness(k, hung), 0.0);
      continue;
    }
    EXPECT_FALSE(g.covered(k, hung)) << g[k].label;
    EXPECT_DOUBLE_EQ(g.fitness(k, hung), g.notCalled(k)) << g[k].label;
  }
  // The same trace from a run that ended covers side 1 and the line it leads to.
  Execution ended = hung;
  ended.result.outcome = exec::Outcome::Ok;
  EXPECT_TRUE(g.covered(g.goalOfSide(1), ended));
  EXPECT_DOUBLE_EQ(g.fitness(g.goalOfSide(0), ended), 5.0 / 6.0);
}

TEST(Goals, DynaMosaReleasesGoalsAlongControlDependences) {
  const auto d = description();
  Goals g(d);
  // Current at the start: the function, both sides of the entry's branch,
  // and the lines of the entry and exit blocks.
  std::vector<size_t> expected{0, g.goalOfSide(0), g.goalOfSide(1), goalOfLine(g, 10), goalOfLine(g, 14)};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(g.initial(), expected);
  // Covering side 0 releases b1's branch and line.
  std::vector<size_t> released{g.goalOfSide(2), g.goalOfSide(3), goalOfLine(g, 11)};
  auto got = g.dependents(0);
  std::sort(got.begin(), got.end());
  std::sort(released.begin(), released.end());
  EXPECT_EQ(got, released);
  EXPECT_EQ(g.dependents(2), std::vector<size_t>{goalOfLine(g, 12)});
  EXPECT_TRUE(g.dependents(1).empty());
}

TEST(Archive, KeepsTheShortestErrorFreeTestPerGoal) {
  auto test = [](size_t n) {
    testcase::TestCase t;
    t.statements.resize(n);
    return std::make_shared<const testcase::TestCase>(t);
  };
  auto clean = std::make_shared<const Execution>();
  auto crashed = std::make_shared<Execution>();
  crashed->result.outcome = exec::Outcome::Crash;
  const auto shorter = shorterTest();
  Archive a(3, *shorter);
  EXPECT_EQ(a.update(test(5), crashed, {0, 1}), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(a.coveredCount(), 2u);
  // A longer clean test replaces a crashing one.
  EXPECT_TRUE(a.update(test(9), clean, {0}).empty());
  EXPECT_EQ(a.at(0).test->statements.size(), 9u);
  // A shorter crashing test does not replace a clean one; a shorter clean one does.
  a.update(test(2), crashed, {0});
  EXPECT_EQ(a.at(0).test->statements.size(), 9u);
  a.update(test(3), clean, {0});
  EXPECT_EQ(a.at(0).test->statements.size(), 3u);
  // Equal length: the incumbent stays.
  auto same = test(3);
  a.update(same, clean, {0});
  EXPECT_NE(a.at(0).test, same);
  EXPECT_EQ(a.solutions().size(), 2u);
}

TEST(Goals, ABlockWithSeveralDependencesTakesItsNearestDecision) {
  // As description(), but b3 is control dependent on side 0 as well as on
  // side 2: c0 ran with a true-distance of 5, so b3 is one level from it
  // (1 + ν(5)), not two (through b1, which did not run).
  auto d = description();
  d.functions[0].blocks[3].deps = {2, 0};
  Goals g(d);
  const Execution missed = run({1 + 5, 1, 0, 0}, {1, 0, 1, 0});
  EXPECT_DOUBLE_EQ(g.fitness(goalOfLine(g, 12), missed), 1.0 + 5.0 / 6.0);
  EXPECT_DOUBLE_EQ(g.fitness(goalOfLine(g, 11), missed), 1.0 + 5.0 / 6.0);
  // Asked again of the same execution (memoised): the same answers.
  EXPECT_DOUBLE_EQ(g.fitness(g.goalOfSide(2), missed), 1.0 + 5.0 / 6.0);
  EXPECT_DOUBLE_EQ(g.fitness(goalOfLine(g, 12), missed), 1.0 + 5.0 / 6.0);
}

TEST(Goals, WeakMutationGoalsAreTheSubsumingMutantsAtTheirBlocks) {
  auto d = description();
  d.mutants = 3;
  // Two mutants in b3 (line 12), one in the entry block; one of them is not
  // subsuming, so it is no goal.
  d.functions[0].mutants = {{0, 3, 12, 5, "AOR", "+", "-", true},
                            {1, 3, 12, 5, "AOR", "+", "*", false},
                            {2, 0, 10, 3, "ROR", "<", "<=", true}};
  Goals g(d, std::move(*makeCriteria({"wm"})));
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].label, "f.c:12:5 + -> - (f)");
  const size_t inB3 = 0, inEntry = 1;
  // Not reached: 1 + the cost of reaching its block (b3: two levels below
  // side 0, whose distance was 5); reached: ν(infection distance).
  Execution missed = run({1 + 5, 1, 0, 0}, {1, 0, 1, 0});
  missed.mutants = {0, 0, 1 + 3};
  EXPECT_DOUBLE_EQ(g.fitness(inB3, missed), 1.0 + 2.0 + 5.0 / 6.0);
  EXPECT_DOUBLE_EQ(g.fitness(inEntry, missed), 0.75);
  EXPECT_FALSE(g.covered(inEntry, missed));
  missed.mutants[2] = 1.0; // infected
  EXPECT_DOUBLE_EQ(g.fitness(inEntry, missed), 0.0);
  EXPECT_TRUE(g.covered(inEntry, missed));
  // DynaMOSA: the entry's mutant is current at once, b3's once side 2 is covered.
  EXPECT_EQ(g.initial(), std::vector<size_t>{inEntry});
  EXPECT_EQ(g.dependents(2), std::vector<size_t>{inB3});
}

TEST(Goals, DirectGoalsCountOnlyCallsTheTestMade) {
  auto d = description();
  d.functions[0].linkageName = "f";
  const model::Program p = program(model::TypeKind::Void);
  Goals g(d, std::move(*makeCriteria({"dbc", "tmc", "ntmc"})), {&p, {0}});
  EXPECT_EQ(g.count("direct-branch"), 4u);
  EXPECT_EQ(g.count("top-level"), 1u);
  EXPECT_EQ(g.count("no-exception"), 1u);
  const size_t trueSide = 0, called = 4, returned = 5;
  EXPECT_EQ(g[trueSide].label, "f.c:10:7 true directly (f)");
  EXPECT_EQ(g[called].label, "f() called by the test");
  // Side 0 taken, but only in a call the unit made: not covered; its
  // fitness is 1 + its plain fitness (0 here).
  Execution e = run({1, 1 + 3, 0, 0}, {1, 1, 1, 0});
  e.direct = {0, 0, 0, 0};
  e.directSides = {0, 0, 0, 0};
  EXPECT_FALSE(g.covered(trueSide, e));
  EXPECT_DOUBLE_EQ(g.fitness(trueSide, e), 1.0);
  EXPECT_DOUBLE_EQ(g.fitness(called, e), 1.0);
  // A direct call that evaluated side 0 with distance 3, then never returned.
  e.direct[0] = MOSAIC_DIRECT_ENTERED;
  e.directSides = {1 + 3, 1, 0, 0};
  EXPECT_DOUBLE_EQ(g.fitness(trueSide, e), 0.75);
  EXPECT_TRUE(g.covered(called, e));
  EXPECT_DOUBLE_EQ(g.fitness(returned, e), 0.5);
  e.direct[0] |= MOSAIC_DIRECT_RETURNED;
  e.directSides[0] = 1;
  EXPECT_TRUE(g.covered(trueSide, e));
  EXPECT_TRUE(g.covered(returned, e));
  // The branch goal keeps standing for its side when both are there.
  Goals both(d, std::move(*makeCriteria({"branch", "direct-branch"})), {&p, {0}});
  EXPECT_EQ(both[both.goalOfSide(0)].criterion->name(), "branch");
  // Only the direct goals read the runs' direct sides: a search without
  // them does not copy them out of each trace.
  EXPECT_TRUE(both.needsDirectSides());
  EXPECT_FALSE(Goals(d, std::move(*makeCriteria({"branch", "line", "tmc"})), {&p, {0}}).needsDirectSides());
  // A function no test calls has no direct goals.
  Goals none(d, std::move(*makeCriteria({"dbc", "tmc"})), {&p, {}});
  EXPECT_EQ(none.size(), 0u);
}

TEST(Goals, OutputGoalsAreTheClassesOfEachTargetsResult) {
  const auto d = description();
  const model::Program p = program(model::TypeKind::Integer);
  Goals g(d, std::move(*makeCriteria({"output"})), {&p, {0}});
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].label, "f() returns negative");
  EXPECT_EQ(g[2].label, "f() returns positive");
  EXPECT_EQ(g.initial(), (std::vector<size_t>{0, 1, 2}));
  EXPECT_TRUE(g.needsOutputs());
  const size_t negative = 0, zero = 1, positive = 2;
  // No value returned: 2; 3 returned: positive, 3 from zero (ν(3)) and 4
  // from negative (ν(4)), EvoSuite's distances.
  Execution e;
  EXPECT_DOUBLE_EQ(g.fitness(zero, e), 2.0);
  e.outputs = {{0, -1, MOSAIC_OBS_INT, 3, 0, 0}};
  EXPECT_TRUE(g.covered(positive, e));
  EXPECT_DOUBLE_EQ(g.fitness(zero, e), 0.75);
  EXPECT_DOUBLE_EQ(g.fitness(negative, e), 0.8);
  e.outputs.push_back({0, -1, MOSAIC_OBS_INT, 0, 0, 0});
  EXPECT_TRUE(g.covered(zero, e));
  // Unsigned results are never negative; pointers and strings by null and
  // emptiness.
  const model::Program u = program(model::TypeKind::Integer, false);
  EXPECT_EQ(Goals(d, std::move(*makeCriteria({"oc"})), {&u, {0}}).size(), 2u);
}

TEST(Goals, AnEnumResultHasAGoalPerEnumerator) {
  const auto d = description();
  model::Program p = program(model::TypeKind::Enum);
  p.types[0].enumId = 0;
  model::Enum e;
  e.enumerators = {{"OK", 0}, {"ERR_NULL", -1}, {"ERR_AMOUNT", -2}, {"SUCCESS", 0}};
  p.enums.push_back(e);
  Goals g(d, std::move(*makeCriteria({"output"})), {&p, {0}});
  ASSERT_EQ(g.size(), 3u); // SUCCESS is OK's value
  EXPECT_EQ(g[1].label, "f() returns ERR_NULL");
  Execution run;
  run.outputs = {{0, -1, MOSAIC_OBS_INT, 0, 0, 0}};
  EXPECT_TRUE(g.covered(0, run));
  EXPECT_DOUBLE_EQ(g.fitness(2, run), 2.0 / 3.0); // 0 is 2 from ERR_AMOUNT
}

TEST(Goals, FailureGoalsAreFoundByTheRunsThatFail) {
  const auto d = description();
  const model::Program p = program(model::TypeKind::Void);
  Goals g(d, std::move(*makeCriteria({"ec"})), {&p, {0}});
  EXPECT_EQ(g.size(), 0u);
  Execution crash;
  crash.result.outcome = exec::Outcome::Crash;
  crash.result.signal = SIGSEGV;
  crash.stoppedAt = 0;
  crash.stoppedCallable = 0;
  EXPECT_EQ(g.discover(crash), 1u);
  EXPECT_EQ(g.discover(crash), 0u); // the same failure again
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].label, "f() crashes (SIGSEGV)");
  EXPECT_TRUE(g.covered(0, crash));
  Execution exits = crash;
  exits.result.outcome = exec::Outcome::Exit;
  exits.result.exitCode = 3;
  EXPECT_FALSE(g.covered(0, exits));
  EXPECT_DOUBLE_EQ(g.fitness(0, exits), 1.0);
  EXPECT_EQ(g.discover(exits), 1u);
  EXPECT_EQ(g[1].label, "f() exits with 3");
  Execution threw;
  threw.threw = true;
  threw.exceptionType = "std::out_of_range";
  threw.stoppedCallable = 0;
  EXPECT_EQ(g.discover(threw), 1u);
  EXPECT_EQ(g[2].label, "f() throws std::out_of_range");
  // A test stopped at a null object, or one whose failure is in no call, shows none.
  Execution nullObject;
  nullObject.threw = true;
  nullObject.stoppedCallable = 0;
  Execution outside = crash;
  outside.stoppedCallable.reset();
  EXPECT_EQ(g.discover(nullObject) + g.discover(outside), 0u);
  // The archive makes room for them.
  auto length = makeSecondary("length", g);
  ASSERT_TRUE(length);
  Archive a(0, **length);
  a.grow(g.size());
  EXPECT_EQ(a.size(), 3u);
}

TEST(Archive, CountsTheGoalsOnlyAnErroneousTestCovers) {
  const auto shorter = makeSecondary("length", Goals(description()));
  ASSERT_TRUE(shorter);
  Archive a(2, **shorter);
  auto crash = std::make_shared<Execution>();
  crash->result.outcome = exec::Outcome::Crash;
  const auto clean = std::make_shared<const Execution>();
  const auto test = std::make_shared<const testcase::TestCase>();
  a.update(test, crash, {0, 1});
  EXPECT_EQ(a.coveredCount(), 2u);
  EXPECT_EQ(a.erroneousCount(), 2u);
  a.update(test, clean, {1});
  EXPECT_EQ(a.erroneousCount(), 1u); // goal 1's crashing test replaced
  a.update(test, crash, {1});
  EXPECT_EQ(a.erroneousCount(), 1u); // never replaced back
}

TEST(Secondary, BasicBlockCoveragePrefersTheTestThatFinishedMoreBlocksOnTheWayToTheGoal) {
  // fourBlocks: line 12 (b3) is reached through b1's true side. Both tests
  // fail and neither reaches b3; a crashed inside b1 (none of b1's
  // successors ran), b ran b1 to its end and then failed in b2: b finished
  // b1, the block before the goal, so b is better (the listing's second
  // scenario), though it is the longer test.
  const model::UnitDescription d = description();
  const Goals goals(d, std::move(*makeCriteria({"line"})));
  const size_t g = goalOfLine(goals, 12);
  ASSERT_NE(g, SIZE_MAX);
  Execution a = run({1, 2, 0, 0}, {1, 1, 0, 0}), b = run({1, 2, 2, 1}, {1, 1, 1, 0});
  a.result.outcome = exec::Outcome::Crash;
  b.result.outcome = exec::Outcome::Crash;
  testcase::TestCase shortTest, longTest;
  shortTest.statements.resize(2);
  longTest.statements.resize(5);
  const Scored sa{shortTest, a}, sb{longTest, b};
  double used = 0.5;
  auto bbc = makeSecondary("bbc", goals, {.progress = [&used] { return used; }, .sleep = 0.2, .usagePercent = 100});
  ASSERT_TRUE(bbc);
  EXPECT_EQ((*bbc)->name(), "bbc");
  EXPECT_GT((*bbc)->compare(g, sa, sb), 0);
  EXPECT_LT((*bbc)->compare(g, sb, sa), 0);
  EXPECT_EQ((*bbc)->compare(g, sa, sa), 0);
  // Asleep (the first fifth of the budget here), or never used: length decides.
  used = 0.1;
  EXPECT_LT((*bbc)->compare(g, sa, sb), 0);
  used = 0.5;
  auto unused = makeSecondary("bbc", goals, {.progress = [&used] { return used; }, .usagePercent = 0});
  EXPECT_LT((*unused)->compare(g, sa, sb), 0);
  // Tests that both ran cleanly have no implicit branch to tell apart.
  Execution ca = a, cb = b;
  ca.result.outcome = cb.result.outcome = exec::Outcome::Ok;
  EXPECT_LT((*bbc)->compare(g, {shortTest, ca}, {longTest, cb}), 0);
  // At half usage, about half of the goal's hundredths of the budget use it.
  auto half = makeSecondary("bbc", goals, {.progress = [&used] { return used; }, .usagePercent = 50, .seed = 7});
  int decided = 0;
  for (int w = 0; w < 100; ++w) {
    used = (w + 0.5) / 100;
    decided += (*half)->compare(g, sa, sb) > 0;
  }
  EXPECT_GT(decided, 30);
  EXPECT_LT(decided, 70);
  EXPECT_FALSE(makeSecondary("bcc", goals));
}

TEST(Secondary, BasicBlockCoveragePrefersTheTestThatGotFurtherIntoTheBlockWhereBothStopped) {
  // Both crashed inside b1 (none of its successors ran), the listing's
  // first scenario: a after one of b1's calls returned, b after three
  // (a block's byte is 1 + its calls that returned), so b got further
  // toward the goal's line, though it is the longer test. The same count
  // ties, and length decides.
  const model::UnitDescription d = description();
  const Goals goals(d, std::move(*makeCriteria({"line"})));
  const size_t g = goalOfLine(goals, 12);
  ASSERT_NE(g, SIZE_MAX);
  Execution a = run({1, 2, 0, 0}, {1, 2, 0, 0}), b = run({1, 2, 0, 0}, {1, 4, 0, 0});
  a.result.outcome = b.result.outcome = exec::Outcome::Crash;
  testcase::TestCase shortTest, longTest;
  shortTest.statements.resize(2);
  longTest.statements.resize(5);
  auto bbc = makeSecondary("bbc", goals, {.progress = [] { return 0.5; }, .usagePercent = 100});
  ASSERT_TRUE(bbc);
  EXPECT_GT((*bbc)->compare(g, {shortTest, a}, {longTest, b}), 0);
  EXPECT_LT((*bbc)->compare(g, {longTest, b}, {shortTest, a}), 0);
  Execution same = a;
  EXPECT_GT((*bbc)->compare(g, {longTest, same}, {shortTest, a}), 0) << "a tie: the shorter test";
}

namespace {

// The function criterion's goals, counting how often they are asked
// whether a run covers them.
class CountingCriterion final : public Criterion {
public:
  std::string_view name() const override { return function_->name(); }
  std::string_view plural() const override { return function_->plural(); }
  void goals(std::uint32_t fi, const Reach &reach, std::vector<Goal> &out) const override {
    function_->goals(fi, reach, out);
  }
  bool covered(const Goal &g, const Execution &e) const override {
    ++asked;
    return function_->covered(g, e);
  }
  double fitness(const Goal &g, const Execution &e, const Reach &reach) const override {
    ++fitnessAsked;
    return function_->fitness(g, e, reach);
  }
  double notCalled(const Goal &g, const Reach &reach) const override { return function_->notCalled(g, reach); }
  mutable int asked = 0;
  mutable int fitnessAsked = 0;

private:
  std::unique_ptr<const Criterion> function_ = functionCriterion();
};

// fourBlocks' f and a one-block g.
model::UnitDescription fAndG() {
  model::UnitDescription d = test::fourBlocks();
  model::FunctionInfo g;
  g.name = "g";
  g.entry = 4;
  g.blocks = {{4, {20}, {}, {}}};
  d.functions.push_back(g);
  d.blocks = 5;
  return d;
}

// A run of fAndG() that entered f alone.
Execution enteredFAlone() {
  Execution e = test::fourBlocksRun(true, false);
  e.blocks.push_back(0);
  return e;
}

} // namespace

TEST(Goals, ARunIsAskedOnlyAboutTheGoalsOfTheFunctionsItEntered) {
  const model::UnitDescription d = fAndG();
  auto counting = std::make_unique<CountingCriterion>();
  const CountingCriterion &c = *counting;
  CriterionList list;
  list.push_back(std::move(counting));
  list.push_back(branchCriterion());
  Goals goals(d, std::move(list));
  const Execution e = enteredFAlone();
  const std::vector<size_t> covered = goals.coveredBy(e);
  EXPECT_EQ(c.asked, 1); // f's goal; g's never
  ASSERT_FALSE(covered.empty());
  EXPECT_EQ(goals[covered.front()].label, "f()");
  // The same answer as asking about every goal.
  std::vector<size_t> all;
  for (size_t k = 0; k < goals.size(); ++k)
    if (goals.covered(k, e)) all.push_back(k);
  EXPECT_EQ(covered, all);
  // A run without block coverage is asked about every goal.
  c.asked = 0;
  goals.coveredBy(Execution{});
  EXPECT_EQ(c.asked, 2);
}

TEST(Goals, TheFitnessOfAGoalWhoseFunctionARunNeverEnteredIsNotCalledWithoutAskingItsCriterion) {
  const model::UnitDescription d = fAndG();
  auto counting = std::make_unique<CountingCriterion>();
  const CountingCriterion &c = *counting;
  CriterionList list;
  list.push_back(std::move(counting));
  list.push_back(branchCriterion());
  list.push_back(lineCriterion());
  Goals goals(d, std::move(list));
  const Execution e = enteredFAlone();
  size_t fGoal = SIZE_MAX, gGoal = SIZE_MAX;
  for (size_t k = 0; k < goals.size(); ++k)
    if (goals[k].criterion == &c) (goals[k].function == 0 ? fGoal : gGoal) = k;
  ASSERT_NE(gGoal, SIZE_MAX);
  EXPECT_TRUE(goals.entered(fGoal, e));
  EXPECT_FALSE(goals.entered(gGoal, e));
  EXPECT_DOUBLE_EQ(goals.fitness(gGoal, e), goals.notCalled(gGoal));
  EXPECT_EQ(c.fitnessAsked, 0);
  EXPECT_DOUBLE_EQ(goals.fitness(fGoal, e), 0.0);
  EXPECT_EQ(c.fitnessAsked, 1);
  // f's goals are function 0's, g's function 1's; the run entered f.
  EXPECT_EQ(goals.functionOf(goals.goalOfSide(0)), 0u);
  EXPECT_EQ(goals.functionOf(gGoal), 1u);
  EXPECT_EQ(goals.enteredFunctions(e), (std::vector<std::uint32_t>{0}));
  // A run that timed out entered nothing; one without block coverage, everything.
  Execution hung = e;
  hung.result.outcome = exec::Outcome::Timeout;
  EXPECT_FALSE(goals.entered(fGoal, hung));
  EXPECT_TRUE(goals.enteredFunctions(hung).empty());
  EXPECT_TRUE(goals.entered(gGoal, Execution{}));
  EXPECT_EQ(goals.enteredFunctions(Execution{}), (std::vector<std::uint32_t>{0, 1}));
}

// The crash criterion on the hand-made four-block function: one goal at the
// trace's line, fitness by WeightedSum or STDistance, covered only when
// reproduced.
#include "mosaic/crash/CrashGoal.h"

#include "common/UnitModel.h"
#include "mosaic/search/Goals.h"

#include <gtest/gtest.h>

#include <csignal>

using namespace mosaic;
using namespace mosaic::crash;

namespace {

double normalised(double x) { return x / (x + 1); }

} // namespace

TEST(CrashGoal, ReproducedWhenTheLineTheKindAndTheStackAllMatch) {
  const model::UnitDescription d = test::fourBlocks(); // f.c: line 12 is b3, behind c0 && c1
  const exec::Frame line12{"f", "/src/f.c", 12, 0, false};
  std::vector<exec::Frame> stack; // what the fake symboliser names
  search::CriterionList criteria;
  criteria.push_back(crashCriterion({{FailureClass::Signal, "SIGSEGV", ""}, {line12}, line12},
                                    [&stack](const search::Execution &) { return stack; }));
  const search::Goals goals(d, std::move(criteria));
  ASSERT_EQ(goals.size(), 1u);
  EXPECT_EQ(goals[0].label, "SIGSEGV at f /src/f.c:12");

  // Not reached: c1 false. Its distance to b3 is side 2's, and kind and
  // stack count their worst.
  search::Execution missed = test::fourBlocksRun(true, false);
  EXPECT_DOUBLE_EQ(goals.fitness(0, missed), 3 * normalised(goals.reach().block(3, missed)) + 3);
  EXPECT_FALSE(goals.covered(0, missed));
  // Reached, but it returned normally: the failure and the stack are missing.
  search::Execution reached = test::fourBlocksRun(true, true);
  EXPECT_DOUBLE_EQ(goals.fitness(0, reached), 2 + 1);
  // Reached and crashed with SIGSEGV, one line off.
  search::Execution crashed = reached;
  crashed.result.outcome = exec::Outcome::Crash;
  crashed.result.signal = SIGSEGV;
  stack = {{"f", "src/f.c", 13, 0, false}};
  EXPECT_DOUBLE_EQ(goals.fitness(0, crashed), normalised(normalised(normalised(1))));
  EXPECT_FALSE(goals.covered(0, crashed));
  // The same stack: reproduced.
  stack = {{"f", "src/f.c", 12, 0, false}};
  EXPECT_EQ(goals.fitness(0, crashed), 0.0);
  EXPECT_TRUE(goals.covered(0, crashed));
  // Another kind of failure at the same place is not the crash.
  search::Execution aborted = crashed;
  aborted.result.outcome = exec::Outcome::Abort;
  EXPECT_DOUBLE_EQ(goals.fitness(0, aborted), 2.0);
  EXPECT_FALSE(goals.covered(0, aborted));
}

TEST(CrashGoal, STDistanceReachesTheFramesOutermostFirstThenCountsTheFailure) {
  // Two frames in f.c: the outer at line 11 (b1, behind c0), the deepest at
  // line 12 (b3, behind c0 && c1).
  const model::UnitDescription d = test::fourBlocks();
  const exec::Frame line12{"f", "/src/f.c", 12, 0, false}, line11{"f", "/src/f.c", 11, 0, false};
  std::vector<exec::Frame> stack;
  search::CriterionList criteria;
  criteria.push_back(crashCriterion({{FailureClass::Signal, "SIGSEGV", ""}, {line12, line11}, line12, CrashFitness::STDistance},
                                    [&stack](const search::Execution &) { return stack; }));
  const search::Goals goals(d, std::move(criteria));
  ASSERT_EQ(goals.size(), 1u);
  // Neither line: one frame left after the next, its distance, the penalty.
  const search::Execution none = test::fourBlocksRun(false, false);
  EXPECT_DOUBLE_EQ(goals.fitness(0, none), 1 + normalised(goals.reach().block(1, none)) + 1);
  // The outer line only: the distance to the deepest, and the penalty.
  const search::Execution outer = test::fourBlocksRun(true, false);
  EXPECT_DOUBLE_EQ(goals.fitness(0, outer), normalised(goals.reach().block(3, outer)) + 1);
  EXPECT_LT(goals.fitness(0, outer), goals.fitness(0, none));
  // Both lines, no failure: the penalty alone.
  search::Execution both = test::fourBlocksRun(true, true);
  EXPECT_DOUBLE_EQ(goals.fitness(0, both), 1.0);
  // The crash with the trace's frames: reproduced, as under WeightedSum.
  both.result.outcome = exec::Outcome::Crash;
  both.result.signal = SIGSEGV;
  stack = {{"f", "src/f.c", 12, 0, false}, {"f", "src/f.c", 11, 0, false}};
  EXPECT_EQ(goals.fitness(0, both), 0.0);
  EXPECT_TRUE(goals.covered(0, both));
  // The same crash with a stack missing the outer frame is not.
  stack = {{"f", "src/f.c", 12, 0, false}};
  EXPECT_DOUBLE_EQ(goals.fitness(0, both), 1.0);
  EXPECT_FALSE(goals.covered(0, both));
}

TEST(CrashGoal, ASanitizerRunsClassComesFromItsReport) {
  search::Execution e;
  e.result.outcome = exec::Outcome::Sanitizer;
  e.report = "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n    #0 0x1 in f /src/f.c:12:3\n"
             "SUMMARY: AddressSanitizer: heap-buffer-overflow /src/f.c:12:3 in f\n";
  const RunFailure r = runFailure(e);
  EXPECT_TRUE(r.failed);
  EXPECT_EQ(r.kind.str(), "AddressSanitizer: heap-buffer-overflow");
  search::Execution thrown;
  thrown.threw = true;
  thrown.exceptionType = "std::out_of_range";
  EXPECT_EQ(runFailure(thrown).kind.str(), "uncaught std::out_of_range");
  EXPECT_FALSE(runFailure(search::Execution{}).failed);
}

TEST(CrashGoal, AFrameAtTheSignatureIsTheEntryBlock) {
  // A stack overflow's report puts the frame that ran out at the function's
  // declared line, before its first statement: the goal is its entry.
  model::UnitDescription d = test::fourBlocks();
  d.functions[0].line = 8; // f's first statement is at line 10
  const exec::Frame signature{"f", "/src/f.c", 8, 0, false};
  search::CriterionList criteria;
  criteria.push_back(crashCriterion({{FailureClass::Sanitizer, "stack-overflow", ""}, {signature}, signature},
                                    [](const search::Execution &) { return std::vector<exec::Frame>{}; }));
  const search::Goals goals(d, std::move(criteria));
  ASSERT_EQ(goals.size(), 1u);
  EXPECT_EQ(goals[0].blocks, std::vector<std::uint32_t>{0});
}

TEST(CrashGoal, NoGoalWhenNoFunctionHoldsTheLine) {
  const model::UnitDescription d = test::fourBlocks();
  const exec::Frame elsewhere{"g", "/src/f.c", 99, 0, false};
  search::CriterionList criteria;
  criteria.push_back(crashCriterion({{}, {elsewhere}, elsewhere}, [](const search::Execution &) {
    return std::vector<exec::Frame>{};
  }));
  EXPECT_EQ(search::Goals(d, std::move(criteria)).size(), 0u);
}

TEST(CrashGoal, AFailureInACallOfTheLibrarysInsideNeedsTheTracesCallerToo) {
  // The trace entered f from a caller in another unit (g.c:7); callable 2
  // is the library's inside. A run that fails in a call of it has the
  // trace's frames in the unit but not the caller's, so it reproduces
  // nothing; the same failure in a call of callable 1 does.
  const model::UnitDescription d = test::fourBlocks();
  const exec::Frame line12{"f", "/src/f.c", 12, 0, false};
  CrashTarget target{{FailureClass::Signal, "SIGSEGV", ""}, {line12}, line12};
  target.caller = exec::Frame{"g", "/src/g.c", 7, 0, false};
  target.insideEntries = {2};
  const std::vector<exec::Frame> stack{{"f", "src/f.c", 12, 0, false}};
  search::CriterionList criteria;
  criteria.push_back(crashCriterion(target, [&stack](const search::Execution &) { return stack; }));
  const search::Goals goals(d, std::move(criteria));
  search::Execution crashed = test::fourBlocksRun(true, true);
  crashed.result.outcome = exec::Outcome::Crash;
  crashed.result.signal = SIGSEGV;
  crashed.stoppedCallable = 2;
  EXPECT_FALSE(goals.covered(0, crashed));
  // d_tr: the caller's frame is missing, ν(3), so ν(ν(3)).
  EXPECT_DOUBLE_EQ(goals.fitness(0, crashed), normalised(normalised(3)));
  EXPECT_TRUE(crashDistance(target, goals[0], crashed, goals.reach(),
                            [&stack](const search::Execution &) { return stack; })
                  .enteredInside);
  crashed.stoppedCallable = 1;
  EXPECT_TRUE(goals.covered(0, crashed));
  // Without a caller (the trace's program called f itself) any entry counts.
  target.caller.reset();
  search::CriterionList direct;
  direct.push_back(crashCriterion(target, [&stack](const search::Execution &) { return stack; }));
  const search::Goals own(d, std::move(direct));
  crashed.stoppedCallable = 2;
  EXPECT_TRUE(own.covered(0, crashed));
}

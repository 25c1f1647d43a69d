// Runs known from the statements a test begins with (StoppedPrefixes.h),
// and the evaluator that uses them, with exact expectations.
#include "common/UnitModel.h"
#include "mosaic/search/Archive.h"
#include "mosaic/search/Search.h"
#include "mosaic/search/Secondary.h"
#include "mosaic/search/StoppedPrefixes.h"

#include <gtest/gtest.h>

using namespace mosaic;
using namespace mosaic::search;

namespace {

// A test of primitives with these values.
testcase::TestCase of(std::initializer_list<std::uint64_t> values) {
  testcase::TestCase t;
  for (std::uint64_t v : values) t.statements.push_back({.op = testcase::Op::Primitive, .bits = v});
  return t;
}

// A run that stopped (crashed) at statement `at`.
std::shared_ptr<const Execution> stoppedAt(int at) {
  Execution e;
  e.result.outcome = exec::Outcome::Crash;
  e.result.statement = at;
  e.stoppedAt = at;
  return std::make_shared<const Execution>(std::move(e));
}

} // namespace

TEST(StoppedPrefixes, ATestThatBeginsWithAStoppedRunsStatementsHasItsRun) {
  StoppedPrefixes known;
  const auto run = stoppedAt(1);
  known.add(std::make_shared<const testcase::TestCase>(of({3, 7, 9})), run);
  EXPECT_EQ(known.find(of({3, 7, 100, 200})), run); // what follows statement 1 never runs
  EXPECT_EQ(known.find(of({3, 7})), run);
  EXPECT_EQ(known.find(of({3})), nullptr);     // ends before the statement it stopped at
  EXPECT_EQ(known.find(of({3, 8, 9})), nullptr); // differs on the way
  EXPECT_EQ(known.find(of({4, 7, 9})), nullptr);
  // A run that ended (stoppedAt -1) is not kept: the statements after are the test.
  known.add(std::make_shared<const testcase::TestCase>(of({5})), std::make_shared<const Execution>());
  EXPECT_EQ(known.size(), 1u);
  EXPECT_EQ(known.find(of({5, 6})), nullptr);
}

TEST(StoppedPrefixes, TheOldestRunsGoFirstWhenTheBoundIsReached) {
  const size_t one = sizeof(Execution) + 1000 * sizeof(double);
  StoppedPrefixes known(2 * one + one / 2); // room for two
  for (std::uint64_t v = 0; v < 3; ++v) {
    Execution e;
    e.stoppedAt = 0;
    e.sides.assign(1000, 1.0);
    known.add(std::make_shared<const testcase::TestCase>(of({v})), std::make_shared<const Execution>(std::move(e)));
  }
  EXPECT_EQ(known.size(), 2u);
  EXPECT_EQ(known.find(of({0})), nullptr);
  EXPECT_NE(known.find(of({1})), nullptr);
  EXPECT_NE(known.find(of({2})), nullptr);
}

TEST(StoppedPrefixes, RunsKeptAfterManyWereForgottenAreStillFound) {
  // Room for three: 200 runs come and go, the bits of the forgotten ones
  // are rebuilt from the kept keys, and the last three are found, the
  // rest not.
  const size_t one = sizeof(Execution) + 10 * sizeof(double);
  StoppedPrefixes known(3 * one + one / 2);
  for (std::uint64_t v = 0; v < 200; ++v) {
    Execution e;
    e.stoppedAt = 1;
    e.sides.assign(10, 1.0);
    known.add(std::make_shared<const testcase::TestCase>(of({v, v + 1})),
              std::make_shared<const Execution>(std::move(e)));
  }
  EXPECT_EQ(known.size(), 3u);
  for (std::uint64_t v = 0; v < 200; ++v)
    EXPECT_EQ(known.find(of({v, v + 1, 5})) != nullptr, v >= 197) << v;
}

TEST(Evaluator, DoesNotRunATestKnownToStopWhereAnEarlierRunStopped) {
  const auto d = test::fourBlocks();
  const Goals goals(d);
  const auto shorter = shorterTest();
  Archive archive(goals.size(), *shorter);
  // Statement 0 crashes when its value is 7.
  test::FakeExecutor executor([](const testcase::TestCase &t) -> std::optional<Execution> {
    Execution e = test::fourBlocksRun(true, false);
    if (t.statements[0].bits == 7) {
      e.result.outcome = exec::Outcome::Crash;
      e.result.statement = 0;
      e.stoppedAt = 0;
    }
    return e;
  });
  Budget budget;
  budget.maxExecutions = 100;
  budget.stopWhenCovered = false;
  Evaluator evaluator(goals, archive, executor, budget);
  const auto first = evaluator.evaluate(of({7, 1}));
  ASSERT_TRUE(first);
  EXPECT_EQ(evaluator.evaluate(of({7, 2, 3})), first); // predicted
  EXPECT_NE(evaluator.evaluate(of({8, 1})), first);     // run
  EXPECT_EQ(executor.runs, 2);
  EXPECT_EQ(evaluator.executions(), 2u);
  EXPECT_EQ(evaluator.predicted(), 1u);
}

namespace {

// Runs tests as FakeExecutor does, several at a time (batchCapacity 4);
// once `cutAfter` tests have run in all, a batch runs its first test only
// (as one cut at its deadline).
class BatchingExecutor final : public Executor {
public:
  explicit BatchingExecutor(test::FakeExecutor::Decide decide) : decide_(std::move(decide)) {}
  std::optional<Execution> run(const testcase::TestCase &test) override {
    ++runs;
    return decide_(test);
  }
  size_t batchCapacity() const override { return 4; }
  std::vector<std::optional<Execution>> runBatch(std::span<const testcase::TestCase *const> tests,
                                                 const BatchBounds &) override {
    ++batches;
    std::vector<std::optional<Execution>> out;
    for (const testcase::TestCase *t : tests) {
      if (!out.empty() && cutAfter && runs >= *cutAfter) break;
      out.push_back(run(*t));
    }
    return out;
  }
  int runs = 0, batches = 0;
  std::optional<int> cutAfter;

private:
  test::FakeExecutor::Decide decide_;
};

} // namespace

TEST(Evaluator, EvaluatesTestsTogetherInTheExecutorsBatchesAsOneByOne) {
  const auto d = test::fourBlocks();
  const Goals goals(d);
  const auto shorter = shorterTest();
  // Statement 0 crashes when its value is 7; a value of 1 takes both branches.
  auto decide = [](const testcase::TestCase &t) -> std::optional<Execution> {
    Execution e = test::fourBlocksRun(true, t.statements[0].bits == 1);
    if (t.statements[0].bits == 7) {
      e.result.outcome = exec::Outcome::Crash;
      e.result.statement = 0;
      e.stoppedAt = 0;
    }
    return e;
  };
  const std::vector<testcase::TestCase> tests = {of({7, 1}), of({2}), of({}), of({3}), of({4}), of({1}),
                                                 of({5}),    of({6}), of({7, 2}), of({8}), of({9}), of({7, 3})};
  Budget budget;
  budget.maxExecutions = 100;
  budget.stopWhenCovered = false;
  // One by one.
  Archive one(goals.size(), *shorter);
  test::FakeExecutor single(decide);
  Evaluator byOne(goals, one, single, budget);
  for (const testcase::TestCase &t : tests) byOne.evaluate(t);
  EXPECT_EQ(byOne.predicted(), 2u); // 7, 2 and 7, 3 after 7, 1
  // Together, in batches of 4: the empty test is not run. The tests are
  // made (and predicted) a batch's worth at a time, each after the runs
  // of the batches two before it were recorded: 7, 2 and 7, 3 (the third
  // four) are known to stop where 7, 1 did, as one by one.
  Archive together(goals.size(), *shorter);
  BatchingExecutor batching(decide);
  Evaluator all(goals, together, batching, budget);
  const auto runs = all.evaluateAll(tests);
  ASSERT_EQ(runs.size(), tests.size());
  EXPECT_EQ(runs[2], nullptr);
  EXPECT_EQ(runs[8], runs[0]);
  EXPECT_EQ(runs[11], runs[0]);
  EXPECT_EQ(batching.runs, 9);
  EXPECT_EQ(batching.batches, 3); // 0, 1, 3, 4; 5, 6, 7 (while the first is read); 9, 10
  EXPECT_EQ(all.executions(), byOne.executions());
  EXPECT_EQ(all.predicted(), 2u);
  EXPECT_EQ(together.coveredCount(), one.coveredCount());
  EXPECT_EQ(all.newlyCovered().size(), together.coveredCount());
  // A batch never runs past --max-executions.
  Budget five = budget;
  five.maxExecutions = 5;
  Archive capped(goals.size(), *shorter);
  BatchingExecutor bounded(decide);
  Evaluator fewer(goals, capped, bounded, five);
  fewer.evaluateAll(tests);
  EXPECT_EQ(bounded.runs, 5);
  // A batch cut short goes on from its first test not run while the
  // budget lasts: after its third test the executor runs one a batch.
  Archive cut(goals.size(), *shorter);
  BatchingExecutor cutting(decide);
  cutting.cutAfter = 3;
  Evaluator afterCut(goals, cut, cutting, budget);
  const auto partial = afterCut.evaluateAll(tests);
  for (size_t k = 0; k < tests.size(); ++k) EXPECT_EQ(partial[k] == nullptr, k == 2) << k;
  EXPECT_EQ(cutting.runs + static_cast<int>(afterCut.predicted()), 11); // each test once
  EXPECT_EQ(cutting.batches, 1 + (cutting.runs - 3)); // {0, 1, 3} of 0, 1, 3, 4; then one a batch
  EXPECT_EQ(cut.coveredCount(), one.coveredCount());
}

namespace {

// Logs the batch protocol's steps ("start 3", "wait", "take") and runs
// each test as FakeExecutor would, when its batch is waited for.
class LoggingExecutor final : public Executor {
public:
  explicit LoggingExecutor(std::vector<std::string> &log) : log_(log) {}
  std::optional<Execution> run(const testcase::TestCase &test) override {
    log_.push_back("run " + std::to_string(test.statements[0].bits));
    return test::fourBlocksRun(true, test.statements[0].bits == 1);
  }
  size_t batchCapacity() const override { return 2; }
  void startBatch(std::span<const testcase::TestCase *const> tests, const BatchBounds &bounds) override {
    log_.push_back("start " + std::to_string(tests.size()));
    Executor::startBatch(tests, bounds);
  }
  size_t waitBatch() override {
    log_.push_back("wait");
    return Executor::waitBatch();
  }
  std::vector<std::optional<Execution>> takeBatch() override {
    log_.push_back("take");
    return Executor::takeBatch();
  }

private:
  std::vector<std::string> &log_;
};

} // namespace

TEST(Evaluator, StreamsBatchesSoThatTheNextRunsWhileTheLastIsReadAndTheOneAfterIsMade) {
  const auto d = test::fourBlocks();
  const Goals goals(d);
  const auto shorter = shorterTest();
  Archive archive(goals.size(), *shorter);
  std::vector<std::string> log;
  LoggingExecutor executor(log);
  Budget budget;
  budget.maxExecutions = 100;
  budget.stopWhenCovered = false;
  Evaluator evaluator(goals, archive, executor, budget);
  // Five tests made two at a time (values 1..5), then none.
  std::uint64_t next = 1;
  std::vector<std::pair<size_t, std::uint64_t>> taken;
  evaluator.evaluateStream(
      [&] {
        log.push_back("make");
        std::vector<testcase::TestCase> made;
        for (int k = 0; k < 2 && next <= 5; ++k) made.push_back(of({next++}));
        return made;
      },
      [&](size_t id, testcase::TestCase test, std::shared_ptr<const Execution> run) {
        ASSERT_NE(run, nullptr);
        log.push_back("took " + std::to_string(id));
        taken.emplace_back(id, test.statements[0].bits);
      });
  // Batch 2 is made while batch 1 runs (no run recorded yet: the rule
  // below lets it come), and starts before batch 1 is read; batch 3's test
  // is made while batch 2 runs, once batch 1's runs are recorded (make()'s
  // j-th call comes after the runs of its calls 0..j-2 are recorded and
  // before any of call j-1's is); make() is asked again after batch 2's,
  // and has none.
  const std::vector<std::string> expected = {
      "make", "start 2", "make", "wait", "run 1",   "run 2", "start 2", "take", "took 0", "took 1", "make", "wait",
      "run 3", "run 4",  "start 1", "take", "took 2", "took 3", "make",    "wait", "run 5",  "take",   "took 4"};
  EXPECT_EQ(log, expected);
  ASSERT_EQ(taken.size(), 5u);
  for (size_t k = 0; k < taken.size(); ++k) EXPECT_EQ(taken[k], std::make_pair(k, std::uint64_t{k + 1}));
  EXPECT_EQ(evaluator.executions(), 5u);
}

// The search's extension points, each with a new implementation that only
// this test defines: a criterion, a secondary objective and an evaluation
// observer, plugged in without touching the goals, archive or algorithms.
// Runs through a fake executor (no harness build).
#include "common/UnitModel.h"
#include "mosaic/search/Goals.h"
#include "mosaic/search/Observers.h"
#include "mosaic/search/Ranking.h"
#include "mosaic/search/Search.h"
#include "mosaic/search/Secondary.h"
#include "mosaic/testcase/TestFactory.h"

#include <gtest/gtest.h>

using namespace mosaic;
using namespace mosaic::search;
using namespace mosaic::test;

namespace {

const std::string kExtensionFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/";

// Basic-block coverage: one goal per block, the fitness of reaching it.
class BlockCriterion final : public Criterion {
public:
  std::string_view name() const override { return "block"; }
  std::string_view plural() const override { return "blocks"; }
  void goals(std::uint32_t fi, const Reach &reach, std::vector<Goal> &out) const override {
    for (const model::BlockInfo &b : reach.description().functions[fi].blocks)
      out.push_back({.function = fi, .line = b.lines.empty() ? 0 : b.lines[0], .blocks = {b.id},
                     .label = "block " + std::to_string(b.id)});
  }
  bool covered(const Goal &g, const Execution &e) const override { return g.blocks[0] < e.blocks.size() && e.blocks[g.blocks[0]]; }
  double fitness(const Goal &g, const Execution &e, const Reach &reach) const override { return reach.block(g.blocks[0], e); }
};

// The longer test is better: the opposite of the default.
class LongerTest final : public SecondaryObjective {
public:
  std::string_view name() const override { return "longer"; }
  int compare(size_t, const Scored &a, const Scored &b) const override {
    const size_t x = a.test.statements.size(), y = b.test.statements.size();
    return x > y ? -1 : x < y ? 1 : 0;
  }
};

// Every evaluation an observer sees.
class Recorder final : public EvaluationObserver {
public:
  void evaluated(const Evaluator &, const Evaluation &ev) override { searching.push_back(ev.searching); }
  void finished(const Evaluator &) override { ++finishes; }
  std::vector<bool> searching;
  int finishes = 0;
};

// fourBlocks() driven by the shapes.c model: c0 holds when the test calls
// is_name, c1 when it also calls check_magic.
FakeExecutor shapesOnFourBlocks(const model::Program &p) {
  return FakeExecutor([&p](const testcase::TestCase &t) -> std::optional<Execution> {
    bool c0 = false, c1 = false;
    for (const testcase::Statement &s : t.statements)
      if (s.op == testcase::Op::Call) {
        c0 |= p.callable(s.callable).name == "is_name";
        c1 |= p.callable(s.callable).name == "check_magic";
      }
    return fourBlocksRun(c0, c1);
  });
}

testcase::TestCase ofLength(size_t n) {
  testcase::TestCase t;
  t.statements.resize(n);
  return t;
}

} // namespace

TEST(Criteria, AreNamedAndKeptInCanonicalOrder) {
  auto made = makeCriteria({"line", "branch", "line"});
  ASSERT_TRUE(made);
  ASSERT_EQ(made->size(), 2u);
  EXPECT_EQ((*made)[0]->name(), "branch");
  EXPECT_EQ((*made)[1]->name(), "line");
  EXPECT_EQ(criterionNames(), (std::vector<std::string>{"function", "branch", "direct-branch", "line", "wm",
                                                        "top-level", "no-exception", "exception", "output"}));
  // Seed 001's abbreviations name the same criteria.
  auto abbreviated = makeCriteria({"ntmc", "bc", "dbc"});
  ASSERT_TRUE(abbreviated);
  ASSERT_EQ(abbreviated->size(), 3u);
  EXPECT_EQ((*abbreviated)[0]->name(), "branch");
  EXPECT_EQ((*abbreviated)[1]->name(), "direct-branch");
  EXPECT_EQ((*abbreviated)[2]->name(), "no-exception");
  auto unknown = makeCriteria({"branch", "mutation"});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind, ErrorKind::Usage);
  EXPECT_NE(unknown.error().message.find("known: function, branch, direct-branch, line, wm, top-level"), std::string::npos);
  EXPECT_FALSE(makeCriteria({}));
}

TEST(Criteria, OnlyTheChosenOnesGiveGoals) {
  const auto d = fourBlocks();
  Goals g(d, std::move(*makeCriteria({"branch"})));
  EXPECT_EQ(g.size(), 4u);
  EXPECT_EQ(g.count("branch"), 4u);
  EXPECT_EQ(g.count("line"), 0u);
  // Without line goals, side 0 still releases the branch below it.
  EXPECT_EQ(g.dependents(0), (std::vector<size_t>{g.goalOfSide(2), g.goalOfSide(3)}));
}

TEST(Criteria, ANewCriterionHangsInTheGoalGraphAndIsSearchedUnchanged) {
  const auto d = fourBlocks();
  CriterionList criteria;
  criteria.push_back(branchCriterion());
  criteria.push_back(std::make_unique<BlockCriterion>());
  const Goals goals(d, std::move(criteria));
  ASSERT_EQ(goals.count("block"), 4u);
  auto blockGoal = [&](std::uint32_t b) {
    for (size_t i = 0; i < goals.size(); ++i)
      if (goals[i].criterion->name() == "block" && goals[i].blocks[0] == b) return i;
    return SIZE_MAX;
  };
  // Blocks 0 and 2 run whenever f does; 1 is released by side 0, 3 by side 2.
  for (std::uint32_t b : {0u, 2u})
    EXPECT_NE(std::find(goals.initial().begin(), goals.initial().end(), blockGoal(b)), goals.initial().end());
  EXPECT_NE(std::find(goals.dependents(0).begin(), goals.dependents(0).end(), blockGoal(1)), goals.dependents(0).end());
  EXPECT_EQ(goals.dependents(2), std::vector<size_t>{blockGoal(3)});
  // Fitness through the shared Reach: block 3 is two levels below a missed side 0.
  const Execution missed = fourBlocksRun(false, false);
  EXPECT_DOUBLE_EQ(goals.fitness(blockGoal(3), missed), 2.0 + Reach::normalise(1.0));

  // DynaMOSA covers every goal, the new criterion's included.
  auto m = UnitModel::make(MOSAIC_FIXTURE_DB_DIR, kExtensionFixtures + "shapes.c");
  FakeExecutor executor = shapesOnFourBlocks(m->program);
  const auto shorter = shorterTest();
  Archive archive(goals.size(), *shorter);
  Budget budget;
  budget.maxExecutions = 5000;
  Evaluator evaluator(goals, archive, executor, budget);
  runSearch(AlgorithmKind::DynaMosa, *m, evaluator, 3);
  EXPECT_EQ(archive.coveredCount(), goals.size());
  const auto byCriterion = coverageByCriterion(goals, archive);
  ASSERT_EQ(byCriterion.size(), 2u);
  EXPECT_EQ(byCriterion[1].criterion->name(), "block");
  EXPECT_EQ(byCriterion[1].covered, 4u);
}

TEST(SecondaryObjectives, DecideWhichEquallyCleanTestTheArchiveKeeps) {
  const auto shorter = shorterTest();
  const LongerTest longer;
  auto clean = std::make_shared<const Execution>();
  for (const SecondaryObjective *objective : {shorter.get(), static_cast<const SecondaryObjective *>(&longer)}) {
    Archive a(1, *objective);
    a.update(std::make_shared<const testcase::TestCase>(ofLength(4)), clean, {0});
    a.update(std::make_shared<const testcase::TestCase>(ofLength(2)), clean, {0});
    a.update(std::make_shared<const testcase::TestCase>(ofLength(7)), clean, {0});
    EXPECT_EQ(a.at(0).test->statements.size(), objective == shorter.get() ? 2u : 7u) << objective->name();
  }
  EXPECT_EQ(shorter->compare(0, {ofLength(3), *clean}, {ofLength(3), *clean}), 0);
  EXPECT_FALSE(makeSecondary("bbc-later", Goals(fourBlocks())));
}

TEST(SecondaryObjectives, LeadPreferenceSortingForAGoal) {
  // Two individuals equally fit for the only goal: the objective picks front 0.
  const FitnessMatrix f{{0.5}, {0.5}};
  const std::vector<testcase::TestCase> tests{ofLength(2), ofLength(9)};
  const Execution run;
  const LongerTest longer;
  Rng rng(1);
  const auto fronts = preferenceSort(
      f, [&](size_t column, size_t a, size_t b) { return longer.compare(column, {tests[a], run}, {tests[b], run}); }, 2,
      rng);
  EXPECT_EQ(fronts[0], std::vector<size_t>{1});
}

TEST(EvaluationObservers, SeeSearchRunsAndLaterStagesRunsApart) {
  const auto d = fourBlocks();
  const Goals goals(d);
  const auto shorter = shorterTest();
  Archive archive(goals.size(), *shorter);
  int call = 0;
  FakeExecutor executor([&](const testcase::TestCase &) -> std::optional<Execution> {
    Execution e = fourBlocksRun(call % 2 == 1, false);
    if (call++ == 2) e.result.outcome = exec::Outcome::Crash;
    return e;
  });
  Budget budget;
  budget.maxExecutions = 3;
  budget.stopWhenCovered = false;
  Evaluator evaluator(goals, archive, executor, budget);
  Recorder recorder;
  CoverageTimeline timeline(goals.size());
  OutcomeCounter outcomes;
  evaluator.addObserver(recorder);
  evaluator.addObserver(timeline);
  evaluator.addObserver(outcomes);
  const testcase::TestCase t = ofLength(1);
  EXPECT_TRUE(evaluator.evaluate(t)); // c0 false
  EXPECT_TRUE(evaluator.evaluate(t)); // c0 true: side 0 covered
  EXPECT_TRUE(evaluator.execute(t));  // a stage's run: a crash, not counted
  EXPECT_EQ(evaluator.executions(), 2u);
  EXPECT_TRUE(evaluator.evaluate(t));
  EXPECT_FALSE(evaluator.evaluate(t)); // the budget of 3 is spent
  evaluator.finish();
  EXPECT_EQ(recorder.searching, (std::vector<bool>{true, true, false, true}));
  EXPECT_EQ(recorder.finishes, 1);
  EXPECT_EQ(outcomes.counts()[static_cast<size_t>(exec::Outcome::Crash)], 1u);
  EXPECT_EQ(outcomes.counts()[static_cast<size_t>(exec::Outcome::Ok)], 3u);
  // Side 0 first covered by the second run; side 2 never.
  EXPECT_GE(timeline.firstCovered()[goals.goalOfSide(0)], 0.0);
  EXPECT_LT(timeline.firstCovered()[goals.goalOfSide(2)], 0.0);
  ASSERT_FALSE(timeline.samples().empty());
  EXPECT_EQ(timeline.samples().back().executions, 3u);
}

TEST(EvaluationObservers, AGoalOnlyAFailingTestCoversStaysOpenUnlessFailingTestsCover) {
  // `generate` wants each goal covered cleanly: a failing test goes to the
  // failing suite, whose death tests count for no coverage.
  const auto d = fourBlocks();
  const Goals goals(d);
  const auto shorter = shorterTest();
  bool crash = true;
  FakeExecutor executor([&](const testcase::TestCase &) -> std::optional<Execution> {
    Execution e = fourBlocksRun(true, false);
    if (crash) e.result.outcome = exec::Outcome::Crash;
    return e;
  });
  const size_t g = goals.goalOfSide(0);
  for (bool failingTestsCover : {false, true}) {
    Archive archive(goals.size(), *shorter);
    Budget budget;
    budget.failingTestsCover = failingTestsCover;
    Evaluator evaluator(goals, archive, executor, budget);
    EXPECT_TRUE(evaluator.open(g));
    crash = true;
    ASSERT_TRUE(evaluator.evaluate(ofLength(1)));
    EXPECT_TRUE(archive.covered(g));
    EXPECT_EQ(evaluator.open(g), !failingTestsCover);
    crash = false;
    ASSERT_TRUE(evaluator.evaluate(ofLength(3)));
    EXPECT_FALSE(evaluator.open(g));
  }
}

// `reproduce` seeks the crash's goal beside guiding goals: the search is
// done once that one goal is covered, though others are still open.
TEST(EvaluationObservers, TheSearchIsDoneWhenItsOneGoalIsCoveredWhateverElseIsOpen) {
  const auto d = fourBlocks();
  const Goals goals(d);
  const auto shorter = shorterTest();
  FakeExecutor executor([&](const testcase::TestCase &) -> std::optional<Execution> { return fourBlocksRun(true, false); });
  const size_t g = goals.goalOfSide(0);
  for (bool doneAtG : {false, true}) {
    Archive archive(goals.size(), *shorter);
    Budget budget;
    if (doneAtG) budget.doneWhenCovered = g;
    Evaluator evaluator(goals, archive, executor, budget);
    EXPECT_FALSE(evaluator.done());
    ASSERT_TRUE(evaluator.evaluate(ofLength(1)));
    ASSERT_TRUE(archive.covered(g));
    EXPECT_LT(archive.coveredCount(), goals.soughtCount()); // other goals are open
    EXPECT_EQ(evaluator.done(), doneAtG);
  }
}

TEST(EvaluationObservers, AnEvaluatorThatCannotRunGivesUp) {
  const auto d = fourBlocks();
  const Goals goals(d);
  const auto shorter = shorterTest();
  Archive archive(goals.size(), *shorter);
  FakeExecutor never([](const testcase::TestCase &) { return std::optional<Execution>(); });
  Evaluator evaluator(goals, archive, never, Budget{});
  const testcase::TestCase t = ofLength(1);
  for (int i = 0; i < 21; ++i) EXPECT_FALSE(evaluator.evaluate(t));
  EXPECT_TRUE(evaluator.gaveUp());
  EXPECT_TRUE(evaluator.done());
}

TEST(Criteria, SmartSelectionKeepsTheRepresentativesAndLongBlocksLastLines) {
  auto smart = makeCriteria({"smart"});
  ASSERT_TRUE(smart);
  std::vector<std::string> names;
  for (const auto &c : *smart) names.push_back(std::string(c->name()));
  EXPECT_EQ(names, (std::vector<std::string>{"branch", "direct-branch", "line", "wm", "no-exception", "exception",
                                             "output"}));
  auto all = makeCriteria({"all"});
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), allCriteria().size());
  EXPECT_FALSE(makeCriteria({"smart", "branch"}));
  // fourBlocks' blocks span one line each: smart keeps none of their lines.
  // Without targets every function is one the tests call: each side is a
  // direct-branch goal the search seeks, and a branch goal it only keeps
  // (sought are those of the functions the tests cannot call).
  const auto d = fourBlocks();
  const Goals smartGoals(d, std::move(*smart));
  EXPECT_EQ(smartGoals.count("line"), 0u);
  EXPECT_GT(smartGoals.count("direct-branch"), 0u);
  EXPECT_EQ(smartGoals.count("branch"), smartGoals.count("direct-branch"));
  for (size_t i = 0; i < smartGoals.size(); ++i)
    EXPECT_EQ(smartGoals.sought(i), smartGoals[i].criterion->name() != "branch") << smartGoals[i].label;
  // Kept, never sought: in no part of DynaMOSA's goal graph.
  for (size_t g : smartGoals.initial()) EXPECT_TRUE(smartGoals.sought(g));
  EXPECT_EQ(smartGoals.soughtCount(), smartGoals.size() - smartGoals.count("branch"));
  auto longBlock = fourBlocks();
  longBlock.functions[0].blocks[2].lines = {14, 15, 16, 17, 18, 19, 20, 21};
  Goals g(longBlock, std::move(*makeCriteria({"smart"})));
  ASSERT_EQ(g.count("line"), 1u);
  for (size_t i = 0; i < g.size(); ++i)
    if (g[i].criterion->name() == "line") EXPECT_EQ(g[i].line, 21u);
}

namespace {

// FakeExecutor's runs, in batches of up to 8, counting them.
class CountingBatches final : public Executor {
public:
  explicit CountingBatches(FakeExecutor inner) : inner_(std::move(inner)) {}
  std::optional<Execution> run(const testcase::TestCase &test) override { return inner_.run(test); }
  size_t batchCapacity() const override { return 8; }
  std::vector<std::optional<Execution>> runBatch(std::span<const testcase::TestCase *const> tests,
                                                 const BatchBounds &) override {
    ++batches;
    std::vector<std::optional<Execution>> out;
    for (const testcase::TestCase *t : tests) out.push_back(inner_.run(*t));
    runs += out.size();
    return out;
  }
  // A batch started while none has ended unread is one the executor waited
  // for: the pipeline started again (evaluateStream starts the next batch
  // between waitBatch() and takeBatch() of the one before).
  void startBatch(std::span<const testcase::TestCase *const> tests, const BatchBounds &bounds) override {
    coldStarts += !unread_;
    Executor::startBatch(tests, bounds);
  }
  size_t waitBatch() override {
    unread_ = true;
    return Executor::waitBatch();
  }
  std::vector<std::optional<Execution>> takeBatch() override {
    unread_ = false;
    return Executor::takeBatch();
  }
  size_t batches = 0, runs = 0, coldStarts = 0;

private:
  FakeExecutor inner_;
  bool unread_ = false;
};

// `kind`'s search on `executor` for 1,000 runs at seed 3, covered or not.
void runThousand(AlgorithmKind kind, const UnitModel &m, const Goals &goals, Executor &executor, Archive &archive) {
  Budget budget;
  budget.maxExecutions = 1000;
  budget.stopWhenCovered = false;
  Evaluator evaluator(goals, archive, executor, budget);
  runSearch(kind, m, evaluator, 3);
}

} // namespace

TEST(Algorithms, ThePopulationBasedOnesAndRandomSearchRunTheirTestsInTheExecutorsBatches) {
  // MIO and GRT learn from each run before the next (a child replaces its
  // parent, the pool grows): they run tests one at a time; the others run
  // what a generation (or a random batch) makes together.
  auto m = UnitModel::make(MOSAIC_FIXTURE_DB_DIR, kExtensionFixtures + "shapes.c");
  const auto d = fourBlocks();
  const Goals goals(d);
  const auto shorter = shorterTest();
  for (AlgorithmKind kind : {AlgorithmKind::Random, AlgorithmKind::Mosa, AlgorithmKind::DynaMosa,
                             AlgorithmKind::WholeSuite, AlgorithmKind::Mio}) {
    CountingBatches executor(shapesOnFourBlocks(m->program));
    Archive archive(goals.size(), *shorter);
    runThousand(kind, *m, goals, executor, archive);
    ASSERT_GT(executor.batches, 0u) << toString(kind);
    const double mean = static_cast<double>(executor.runs) / static_cast<double>(executor.batches);
    if (kind == AlgorithmKind::Mio) EXPECT_EQ(mean, 1.0);
    else EXPECT_GT(mean, 6.0) << toString(kind);
    EXPECT_EQ(archive.coveredCount(), goals.size()) << toString(kind);
  }
}

TEST(Algorithms, DynaMosaStartsTheNextGenerationWhileTheLastOneRuns) {
  // The selection needs every run of a generation; the next generation's
  // first chunk is bred from the population before it and runs while the
  // selection does, so the executor never waits for a selection (a fork
  // server left idle). 1,000 runs are ~18 generations of 55 tests (50
  // children, 5 inserted); a stream per generation would start cold 18
  // times. Here: the initial population's stream, the generations' stream,
  // and a start or two where the stream's rule holds a chunk back.
  auto m = UnitModel::make(MOSAIC_FIXTURE_DB_DIR, kExtensionFixtures + "shapes.c");
  const auto d = fourBlocks();
  const Goals goals(d);
  const auto shorter = shorterTest();
  CountingBatches executor(shapesOnFourBlocks(m->program));
  Archive archive(goals.size(), *shorter);
  runThousand(AlgorithmKind::DynaMosa, *m, goals, executor, archive);
  EXPECT_GE(executor.runs, 990u);
  EXPECT_LE(executor.coldStarts, 4u) << executor.batches << " batches";
}

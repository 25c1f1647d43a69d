// The post-search stages on tests of a real fixture model (shapes.c),
// with fake executors that make up each run (no harness build): what each
// stage keeps, removes and counts, as its contract in Stage.h says.
#include "common/UnitModel.h"
#include "mosaic/search/Goals.h"
#include "mosaic/search/Search.h"
#include "mosaic/stages/Classify.h"
#include "mosaic/stages/Failures.h"
#include "mosaic/stages/Stage.h"
#include "mosaic/testcase/Printer.h"

#include <gtest/gtest.h>

using namespace mosaic;
using namespace mosaic::test;

namespace {

const std::string kFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/";

bool calls(const model::Program &p, const testcase::TestCase &t, const std::string &name) {
  for (const testcase::Statement &s : t.statements)
    if ((s.op == testcase::Op::Call || s.op == testcase::Op::MethodCall) && p.callable(s.callable).name == name)
      return true;
  return false;
}

// fourBlocks() as the shapes.c tests drive it: c0 when a test calls is_name,
// c1 when it calls check_magic.
search::Execution runOf(const model::Program &p, const testcase::TestCase &t) {
  return fourBlocksRun(calls(p, t, "is_name"), calls(p, t, "check_magic"));
}

// runOf, except that a test calling is_name crashes there (SIGSEGV).
search::Execution crashingAtIsName(const model::Program &p, const testcase::TestCase &t) {
  search::Execution e = runOf(p, t);
  for (size_t i = 0; i < t.statements.size(); ++i)
    if (t.statements[i].op == testcase::Op::Call && p.callable(t.statements[i].callable).name == "is_name") {
      e.result.outcome = exec::Outcome::Crash;
      e.result.signal = 11;
      e.result.statement = e.stoppedAt = static_cast<int>(i);
      break;
    }
  return e;
}

class Stages : public ::testing::Test {
protected:
  void SetUp() override { m = UnitModel::make(MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c"); }

  const model::Program &p() const { return m->program; }
  testcase::TestCase test(const std::vector<std::pair<std::string, std::vector<Arg>>> &callsOf) const {
    testcase::TestCase t;
    for (const auto &[name, args] : callsOf) appendCall(m->program, t, name, args);
    return t;
  }
  stages::Context context(search::Executor &run, search::Executor &isolated, search::Executor *fresh = nullptr) {
    return stages::Context{m->program, *m->catalog, goals, run, isolated, fresh, {}, {}, nullptr, {}, {}};
  }

  std::unique_ptr<UnitModel> m;
  const model::UnitDescription description = fourBlocks();
  const search::Goals goals{description};
};

} // namespace

TEST_F(Stages, ReduceKeepsATestOnlyForGoalsTheOthersMissAndAFailingTestsCleanPrefix) {
  FakeExecutor executor([&](const testcase::TestCase &t) { return std::optional(runOf(p(), t)); });
  stages::Work work;
  auto solution = [&](testcase::TestCase t, search::Execution e) {
    work.archived.push_back({std::make_shared<const testcase::TestCase>(std::move(t)),
                             std::make_shared<const search::Execution>(std::move(e))});
  };
  const testcase::TestCase a = test({{"is_name", {std::string("a")}}});
  solution(a, runOf(p(), a));
  // Covers side 2 but crashes after it: its prefix stands in for it.
  const testcase::TestCase f =
      test({{"is_name", {std::string("x")}}, {"check_magic", {std::int64_t{2}}}, {"square_area", {nullptr}}});
  search::Execution crashed = runOf(p(), f);
  crashed.result.outcome = exec::Outcome::Crash;
  crashed.result.statement = crashed.stoppedAt = 5;
  solution(f, crashed);
  const testcase::TestCase b = test({{"check_magic", {std::int64_t{1}}}});
  solution(b, runOf(p(), b));
  solution(b, runOf(p(), b)); // the same goals again: dropped
  work.firstCovered.assign(goals.size(), 1.5);

  auto c = context(executor, executor);
  stages::reduce()->run(work, c);
  EXPECT_EQ(executor.runs, 1); // the failing test's prefix
  ASSERT_EQ(work.passing.size(), 3u);
  // Most goals first: the prefix (7: the function, sides 0 and 2, four lines).
  EXPECT_EQ(work.passing[0].test.statements.size(), 5u) << testcase::toCode(p(), work.passing[0].test);
  EXPECT_FALSE(calls(p(), work.passing[0].test, "square_area"));
  EXPECT_EQ(work.passing[0].goals.size(), 7u);
  EXPECT_EQ(work.passing[1].test, a);
  EXPECT_EQ(work.passing[1].goals, std::vector<size_t>{goals.goalOfSide(3)});
  EXPECT_EQ(work.passing[2].goals, std::vector<size_t>{goals.goalOfSide(1)});
  EXPECT_DOUBLE_EQ(work.passing[2].foundAt, 1.5);
}

TEST_F(Stages, MinimiseDropsWhatNoGoalNeedsUntilTheDeadline) {
  FakeExecutor executor([&](const testcase::TestCase &t) { return std::optional(runOf(p(), t)); });
  const testcase::TestCase full =
      test({{"registry_new", {std::int64_t{4}}}, {"is_name", {std::string("a")}}, {"check_magic", {std::int64_t{7}}}});
  stages::Work work;
  work.passing.push_back({.test = full, .goals = {goals.goalOfSide(2)}});
  work.passing.push_back({.test = full, .goals = {goals.goalOfSide(2)}});
  auto c = context(executor, executor);
  auto minimise = stages::minimise();
  minimise->run(work, c);
  EXPECT_FALSE(calls(p(), work.passing[0].test, "registry_new")) << testcase::toCode(p(), work.passing[0].test);
  EXPECT_EQ(work.passing[0].test.statements.size(), 4u);
  EXPECT_EQ(work.passing[0].goals, std::vector<size_t>{goals.goalOfSide(2)});
  EXPECT_EQ(work.counts.minimiseRuns, executor.runs);

  // Past its deadline it runs nothing.
  stages::Work late;
  late.passing.push_back({.test = full, .goals = {goals.goalOfSide(2)}});
  c.deadline = stages::Deadline::in(0);
  const int before = executor.runs;
  minimise->run(late, c);
  EXPECT_EQ(executor.runs, before);
  EXPECT_EQ(late.passing[0].test, full);
}

TEST_F(Stages, ExtendAppendsAReleaseOnlyWhenTheTestStillRunsCleanly) {
  bool releaseCrashes = false;
  FakeExecutor executor([&](const testcase::TestCase &t) {
    search::Execution e = runOf(p(), t);
    if (releaseCrashes && calls(p(), t, "registry_free")) e.result.outcome = exec::Outcome::Abort;
    return std::optional(e);
  });
  const testcase::TestCase made = test({{"registry_new", {std::int64_t{4}}}});
  auto c = context(executor, executor);
  stages::Work work;
  work.passing.push_back({.test = made, .goals = {0}});
  stages::extend()->run(work, c);
  ASSERT_EQ(work.passing[0].test.statements.size(), 3u) << testcase::toCode(p(), work.passing[0].test);
  EXPECT_TRUE(calls(p(), work.passing[0].test, "registry_free"));
  EXPECT_EQ(work.passing[0].appendedFrom, 2u);
  EXPECT_EQ(work.counts.releases, 1);

  releaseCrashes = true;
  stages::Work refused;
  refused.passing.push_back({.test = made, .goals = {0}});
  stages::extend()->run(refused, c);
  EXPECT_EQ(refused.passing[0].test, made);
  EXPECT_EQ(refused.counts.releases, 0);
}

TEST_F(Stages, ObserveKeepsWhatEveryRunAgreesOnAndDropsWhatFails) {
  auto observation = [](std::int16_t field, std::int64_t value) {
    exec::Observation o;
    o.statement = 1;
    o.kind = MOSAIC_OBS_INT;
    o.field = field;
    o.integer = value;
    return o;
  };
  const testcase::TestCase good = test({{"is_name", {std::string("a")}}});
  const testcase::TestCase bad = test({{"check_magic", {std::int64_t{3}}}});
  FakeExecutor isolated([&](const testcase::TestCase &t) {
    search::Execution e = runOf(p(), t);
    if (t == bad) e.result.outcome = exec::Outcome::Timeout;
    e.observations = {observation(-1, 1), observation(0, 7)};
    return std::optional(e);
  });
  FakeExecutor fresh([&](const testcase::TestCase &t) {
    search::Execution e = runOf(p(), t);
    e.observations = {observation(-1, 1), observation(0, 8)}; // field 0 differs in another layout
    return std::optional(e);
  });
  auto c = context(isolated, isolated, &fresh);
  stages::Work work;
  work.passing.push_back({.test = good, .goals = {0}});
  work.passing.push_back({.test = bad, .goals = {0}});
  stages::observe()->run(work, c);
  ASSERT_EQ(work.passing.size(), 1u);
  EXPECT_EQ(work.counts.unstable, 1);
  ASSERT_EQ(work.passing[0].observations.size(), 1u);
  EXPECT_EQ(work.passing[0].observations[0].field, -1);
  EXPECT_EQ(isolated.runs, 3); // two runs of `good`, one of `bad`
  EXPECT_EQ(fresh.runs, 1);
}

TEST_F(Stages, AShortTestToACrashDoesNotHideAMoreTrustedWayThere) {
  // is_name(NULL) and is_name("abc") crash in the same call: the first is
  // robustness (NULL given), the second a likely defect. Met shortest first,
  // both are kept (one per class), and minimising the second keeps its string.
  auto crashAtIsName = [&](const testcase::TestCase &t) { return std::optional(crashingAtIsName(p(), t)); };
  FakeExecutor executor(crashAtIsName);
  stages::Work work;
  const auto shorter = search::shorterTest();
  search::Archive archive(goals.size(), *shorter);
  search::Evaluator evaluator(goals, archive, executor, search::Budget{});
  stages::FailureRecorder recorder(p(), work.failures, m->catalog.get());
  evaluator.addObserver(recorder);
  evaluator.evaluate(test({{"is_name", {nullptr}}}));
  const testcase::TestCase plain = test({{"check_magic", {std::int64_t{1}}}, {"is_name", {std::string("abc")}}});
  evaluator.evaluate(plain);
  ASSERT_EQ(work.failures.size(), 2u);
  ASSERT_TRUE(work.failures.count("crash/11/is_name/robustness"));
  ASSERT_TRUE(work.failures.count("crash/11/is_name/defect"));
  EXPECT_EQ(work.failures.at("crash/11/is_name/defect").test, plain);

  FakeExecutor isolated(crashAtIsName);
  auto c = context(executor, isolated);
  stages::minimiseFailures()->run(work, c);
  // check_magic goes; the string stays (without it, is_name would be given NULL).
  const testcase::TestCase &minimal = work.failures.at("crash/11/is_name/defect").test;
  EXPECT_FALSE(calls(p(), minimal, "check_magic")) << testcase::toCode(p(), minimal);
  EXPECT_EQ(stages::classify(*m->catalog, minimal, work.failures.at("crash/11/is_name/defect").result, {}).kind,
            stages::FailureClass::Defect)
      << testcase::toCode(p(), minimal);
}

TEST_F(Stages, FailuresAreRecordedByKeyThenConfirmedAndMinimisedAlone) {
  auto crashAtIsName = [&](const testcase::TestCase &t) { return std::optional(crashingAtIsName(p(), t)); };
  FakeExecutor executor(crashAtIsName);
  stages::Work work;
  const search::Goals &g = goals;
  const auto shorter = search::shorterTest();
  search::Archive archive(g.size(), *shorter);
  search::Evaluator evaluator(g, archive, executor, search::Budget{});
  stages::FailureRecorder recorder(p(), work.failures);
  evaluator.addObserver(recorder);
  const testcase::TestCase longer =
      test({{"registry_new", {std::int64_t{4}}}, {"check_magic", {std::int64_t{1}}}, {"is_name", {nullptr}}});
  const testcase::TestCase shortest = test({{"check_magic", {std::int64_t{1}}}, {"is_name", {nullptr}}});
  evaluator.evaluate(longer);
  evaluator.evaluate(shortest);
  evaluator.evaluate(test({{"check_magic", {std::int64_t{5}}}}));
  ASSERT_EQ(work.failures.size(), 1u);
  const stages::Failure &f = work.failures.begin()->second;
  EXPECT_EQ(work.failures.begin()->first, "crash/11/is_name");
  EXPECT_EQ(f.count, 2u);
  EXPECT_EQ(f.test, shortest);

  // A failure that does not happen again alone is not reproducible.
  stages::Failure ghost;
  ghost.test = test({{"check_magic", {std::int64_t{9}}}});
  ghost.result.outcome = exec::Outcome::Abort;
  ghost.result.statement = 1;
  ghost.where = "check_magic";
  work.failures["abort/0/check_magic"] = ghost;

  FakeExecutor isolated(crashAtIsName);
  auto c = context(executor, isolated);
  stages::minimiseFailures()->run(work, c);
  const stages::Failure &minimal = work.failures.at("crash/11/is_name");
  EXPECT_TRUE(minimal.reproducible);
  EXPECT_EQ(minimal.test, test({{"is_name", {nullptr}}})) << testcase::toCode(p(), minimal.test);
  EXPECT_FALSE(work.failures.at("abort/0/check_magic").reproducible);
  EXPECT_TRUE(minimal.confirmed);
  EXPECT_EQ(work.counts.failureRuns, isolated.runs);

  // With no time left (`run`'s budget spent) a failure stays as it was met.
  stages::Work late;
  late.failures["crash/11/is_name"] = stages::Failure{.test = longer, .where = "is_name"};
  auto spent = context(executor, isolated);
  spent.failureDeadline = stages::Deadline::in(0);
  const int before = isolated.runs;
  stages::minimiseFailures()->run(late, spent);
  EXPECT_EQ(isolated.runs, before);
  EXPECT_FALSE(late.failures.begin()->second.confirmed);
  EXPECT_EQ(late.failures.begin()->second.test, longer);
}

namespace {

// A schemata harness made up: the original run observes `original`; mutant
// m's run observes what `mutated` gives, or ends another way when it says so.
class FakeMutants final : public stages::MutantRunner {
public:
  std::vector<exec::Observation> original;
  std::vector<std::uint32_t> reached;
  std::function<search::Execution(std::uint32_t)> mutated;
  int runs = 0;
  std::optional<search::Execution> run(const testcase::TestCase &, std::optional<std::uint32_t> mutant,
                                       std::vector<std::uint32_t> *reachedOut) override {
    ++runs;
    if (reachedOut) *reachedOut = reached;
    if (!mutant) {
      search::Execution e;
      e.observations = original;
      return e;
    }
    return mutated(*mutant);
  }
};

exec::Observation observed(std::uint32_t statement, std::uint8_t target, std::int16_t field, std::int64_t value) {
  exec::Observation o;
  o.statement = statement;
  o.kind = MOSAIC_OBS_INT;
  o.target = target;
  o.field = field;
  o.integer = value;
  return o;
}

} // namespace

TEST_F(Stages, FilterAssertionsKeepsWhatAMutantChangesAndEveryResult) {
  FakeExecutor none([](const testcase::TestCase &) { return std::optional<search::Execution>(); });
  FakeMutants mutants;
  // move_point(p, 3): its result, and two fields of *p.
  const exec::Observation result = observed(1, MOSAIC_OBS_RESULT, -1, 0), x = observed(1, MOSAIC_OBS_ARG0, 0, 4),
                          y = observed(1, MOSAIC_OBS_ARG0, 1, 9);
  mutants.original = {result, x, y};
  mutants.reached = {0, 1, 2};
  mutants.mutated = [&](std::uint32_t m) {
    search::Execution e;
    e.observations = {result, x, y};
    if (m == 0) e.observations[1].integer = 5;             // changes x
    if (m == 2) e.result.outcome = exec::Outcome::Crash;   // told apart by its ending
    return e;
  };
  stages::Work work;
  stages::Candidate c;
  c.test = test({{"is_name", {std::string("a")}}});
  c.observations = mutants.original;
  work.passing = {c, c};
  work.passing[1].observations = {y}; // only what no mutant changes: kept, or nothing would remain
  auto ctx = context(none, none);
  ctx.mutants = &mutants;
  stages::filterAssertions()->run(work, ctx);
  ASSERT_EQ(work.passing[0].observations.size(), 2u);
  EXPECT_EQ(work.passing[0].observations[0].target, MOSAIC_OBS_RESULT);
  EXPECT_EQ(work.passing[0].observations[1].field, 0);
  EXPECT_EQ(work.passing[1].observations.size(), 1u);
  EXPECT_EQ(work.counts.assertionsBefore, 4);
  EXPECT_EQ(work.counts.assertionsAfter, 3);
  EXPECT_EQ(work.counts.mutantsTried, 6);
  EXPECT_EQ(work.counts.mutantsKilled, 3); // 0 and 2 by the first test; 2 only by the second, which sees no x
  // Without a schemata harness nothing changes.
  stages::Work untouched;
  untouched.passing = {c};
  auto plain = context(none, none);
  stages::filterAssertions()->run(untouched, plain);
  EXPECT_EQ(untouched.passing[0].observations.size(), 3u);
}

TEST(StagesCxx, MinimiseKeepsTheCopyOfAConstViewThatTheTestChanges) {
  // Item copy(inventory[0]); copy.setPrice(p): the copy is what the test may
  // change; used in its place, inventory[0]'s const Item & would be written
  // through (jsoncpp's Value(Value::nullSingleton()) then removeMember: the
  // suite did not compile, and the harness changed the singleton).
  const auto m = UnitModel::make(MOSAIC_FIXTURE_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/inventory.cpp");
  const model::Program &p = m->program;
  const auto id = [&](const std::string &signature) {
    for (const model::Callable &c : p.callables)
      if (c.signature == signature) return c.id;
    throw std::runtime_error("no callable " + signature);
  };
  using testcase::Op;
  using testcase::Statement;
  const model::Callable &at = p.callable(id("shop::Inventory::operator[](std::size_t) const"));
  const model::Callable &setPrice = p.callable(id("shop::Item::setPrice(shop::Price)"));
  testcase::TestCase t;
  t.statements = {Statement{.op = Op::Construct, .callable = id("shop::Inventory::Inventory()")},
                  Statement{.op = Op::Primitive, .type = p.type(at.params[0].type).value, .bits = 0},
                  Statement{.op = Op::MethodCall, .callable = at.id, .refs = {0, 1}},
                  Statement{.op = Op::Construct, .callable = id("shop::Item::Item(const shop::Item &)"), .refs = {2}},
                  Statement{.op = Op::Aggregate, .type = p.type(setPrice.params[0].type).value},
                  Statement{.op = Op::MethodCall, .callable = setPrice.id, .refs = {3, 4}}};
  ASSERT_EQ(m->catalog->dropWritesThroughConst(t), 0u) << testcase::toCode(p, t);
  // Every run covers the goal while the test still calls setPrice.
  const model::UnitDescription description = fourBlocks();
  const search::Goals goals{description};
  FakeExecutor executor([&](const testcase::TestCase &x) {
    bool sets = false;
    for (const Statement &s : x.statements) sets |= s.op == Op::MethodCall && s.callable == setPrice.id;
    return std::optional(fourBlocksRun(sets, false));
  });
  stages::Work work;
  work.passing.push_back({.test = t, .goals = {goals.goalOfSide(0)}});
  stages::Context c{p, *m->catalog, goals, executor, executor, nullptr, {}, {}, nullptr, {}, {}};
  stages::minimise()->run(work, c);
  testcase::TestCase kept = work.passing[0].test;
  EXPECT_EQ(m->catalog->dropWritesThroughConst(kept), 0u) << testcase::toCode(p, work.passing[0].test);
  const auto copies = [&](const testcase::TestCase &x) {
    return std::any_of(x.statements.begin(), x.statements.end(), [&](const Statement &s) {
      return s.op == Op::Construct && p.callable(s.callable).isCopyConstructor;
    });
  };
  EXPECT_TRUE(copies(kept)) << testcase::toCode(p, kept);
  // Nor a copy of what a pointer points to (`Item copy(*item)`): the
  // pointer is no Item (leveldb's `Slice copy(*input)`, then `&copy`
  // became `&input`, a Slice **).
  const model::Callable &itemCopy = p.callable(id("shop::Item::Item(const shop::Item &)"));
  testcase::TestCase viaPointer;
  viaPointer.statements = {
      Statement{.op = Op::Construct, .callable = id("shop::Item::Item()")},
      Statement{.op = Op::AddressOf, .type = p.type(setPrice.params[0].type).value, .refs = {0}},
      Statement{.op = Op::Construct, .callable = itemCopy.id, .refs = {1}},
      Statement{.op = Op::Aggregate, .type = p.type(setPrice.params[0].type).value},
      Statement{.op = Op::MethodCall, .callable = setPrice.id, .refs = {2, 3}}};
  for (const model::Type &ty : p.types)
    if (ty.kind == model::TypeKind::Pointer && ty.pointee && !ty.pointeeConst &&
        p.type(p.type(*ty.pointee).value).recordId == p.callable(itemCopy.id).parent)
      viaPointer.statements[1].type = ty.id;
  stages::Work pointed;
  pointed.passing.push_back({.test = viaPointer, .goals = {goals.goalOfSide(0)}});
  stages::minimise()->run(pointed, c);
  EXPECT_TRUE(copies(pointed.passing[0].test)) << testcase::toCode(p, pointed.passing[0].test);
}

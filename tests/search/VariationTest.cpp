// Variation operators on tests of a real fixture model: every result is a
// well-formed test (references point backwards, at variables of a type
// that fits), and the harness performs it.
#include "common/UnitHarness.h"
#include "common/UnitModel.h"
#include "mosaic/search/Variation.h"
#include "mosaic/testcase/Printer.h"

#include <gtest/gtest.h>

using namespace mosaic;
using namespace mosaic::test;

namespace {

const std::string kFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/";

void expectWellFormed(const model::Program &p, const testcase::TestCase &t) {
  for (size_t i = 0; i < t.statements.size(); ++i)
    for (testcase::Ref r : t.statements[i].refs)
      if (r != testcase::kNoRef) {
        ASSERT_LT(r, i) << testcase::toCode(p, t);
        ASSERT_TRUE(testcase::variableType(p, t, r).has_value()) << testcase::toCode(p, t);
      }
  EXPECT_EQ(testcase::Catalog(p).typeError(t), "") << testcase::toCode(p, t);
}

// Every callable function and member of a fixture's unit, as the search's targets.
std::vector<model::CallableId> callableTargets(const UnitModel &m) {
  std::vector<model::CallableId> targets;
  for (const model::Callable &c : m.program.callables)
    if (m.catalog->callable(c.id) && (c.parent || c.kind == model::CallableKind::Function)) targets.push_back(c.id);
  return targets;
}

} // namespace

TEST(Variation, MutationAndCrossoverKeepTestsPerformable) {
  auto u = UnitHarness::make(MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c");
  Rng rng(11);
  testcase::ConstantPool pool;
  pool.addStatic(u->program);
  testcase::TestFactory factory(*u->catalog, pool, rng);
  search::Variation variation(*u->catalog, factory, rng, u->program.targets);
  exec::Limits limits;
  limits.timeoutMs = 200;
  int changed = 0;
  for (int i = 0; i < 150; ++i) {
    testcase::TestCase a = variation.randomTest(), b = variation.randomTest();
    auto [c, d] = variation.crossover(a, b);
    for (testcase::TestCase *t : {&c, &d}) {
      changed += variation.mutate(*t, nullptr);
      expectWellFormed(u->program, *t);
      EXPECT_TRUE(variation.callsTarget(*t));
      EXPECT_LE(t->statements.size(), 40u);
      const exec::RunResult r = u->run(*t, limits);
      ASSERT_NE(r.outcome, exec::Outcome::HarnessError) << testcase::toCode(u->program, *t);
    }
  }
  EXPECT_GT(changed, 250); // mutation changes the test (it retries until it does)
}

TEST(Variation, DeletionTakesDependantsAlong) {
  auto u = UnitHarness::make(MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c");
  Rng rng(2);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  search::Variation variation(*u->catalog, factory, rng, u->program.targets);
  for (int i = 0; i < 50; ++i) {
    testcase::TestCase t = variation.randomTest();
    if (t.statements.size() < 2) continue;
    // Removing the first statement removes whatever used it, directly or not.
    const testcase::TestCase rest = testcase::withoutStatement(t, 0);
    // With l = 1 only the first statement is considered, with probability 1.
    testcase::TestCase deleted = t;
    EXPECT_TRUE(variation.deleteStep(deleted, 1));
    EXPECT_EQ(deleted, rest);
    expectWellFormed(u->program, rest);
    EXPECT_LT(rest.statements.size(), t.statements.size());
  }
}

TEST(Variation, CrossoverSplicesHeadsAndTails) {
  auto u = UnitHarness::make(MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c");
  Rng rng(4);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*u->catalog, pool, rng);
  search::Variation variation(*u->catalog, factory, rng, u->program.targets);
  for (int i = 0; i < 50; ++i) {
    testcase::TestCase a = variation.randomTest(), b = variation.randomTest();
    if (a.statements.size() < 2 || b.statements.size() < 2) continue;
    auto [c, d] = variation.crossover(a, b);
    // Each child starts with a non-empty head of its first parent.
    ASSERT_FALSE(c.statements.empty());
    EXPECT_EQ(c.statements[0], a.statements[0]);
    EXPECT_EQ(d.statements[0], b.statements[0]);
    expectWellFormed(u->program, c);
    expectWellFormed(u->program, d);
  }
}

TEST(TypeCheck, NamesWhatIsPassedWhereItDoesNotFit) {
  auto u = UnitHarness::make(MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c");
  const model::Callable &clamp = u->callable("clamp"), &isName = u->callable("is_name");
  testcase::TestCase t;
  t.statements = {
      testcase::Statement{.op = testcase::Op::CString, .type = isName.params[0].type, .bytes = "magic"},
      testcase::Statement{.op = testcase::Op::Primitive, .type = clamp.params[0].type, .bits = 3},
      testcase::Statement{.op = testcase::Op::Call, .callable = clamp.id, .refs = {1, 1, 1}},
      testcase::Statement{.op = testcase::Op::Call, .callable = isName.id, .refs = {0}},
  };
  EXPECT_EQ(u->catalog->typeError(t), "");
  t.statements[2].refs[2] = 0; // a string as `hi`
  EXPECT_EQ(u->catalog->typeError(t), "statement 2 passes a const char * (statement 0) as parameter 3 of clamp of type int");
  t.statements[2].refs = {1, 1};
  EXPECT_EQ(u->catalog->typeError(t), "statement 2 calls clamp with 2 arguments");
}

TEST(Variation, NoTestCallsANonConstMethodThroughAConstView) {
  // ledger.h: first() and find() hand out const views of an Entry, whose
  // add() and clear() change it; random tests, mutants and children never
  // call those through such a view (the written test would const_cast).
  auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/ledger.cpp");
  const std::vector<model::CallableId> targets = callableTargets(*m);
  Rng rng(5);
  testcase::ConstantPool pool;
  pool.addStatic(m->program);
  testcase::TestFactory factory(*m->catalog, pool, rng);
  search::Variation variation(*m->catalog, factory, rng, targets);
  int onConstViews = 0, nonConstCalls = 0;
  for (int i = 0; i < 300; ++i) {
    testcase::TestCase a = variation.randomTest(), b = variation.randomTest();
    auto [c, d] = variation.crossover(a, b);
    variation.mutate(c, nullptr);
    for (const testcase::TestCase *t : {&a, &b, &c, &d})
      for (const testcase::Statement &s : t->statements) {
        if (s.op != testcase::Op::MethodCall) continue;
        const model::Callable &callee = m->program.callable(s.callable);
        const auto receiver = testcase::variableType(m->program, *t, s.refs[0]);
        ASSERT_TRUE(receiver.has_value());
        if (m->catalog->constView(*receiver)) ++onConstViews;
        if (callee.isConst) continue;
        ++nonConstCalls;
        EXPECT_FALSE(m->catalog->constView(*receiver)) << testcase::toCode(m->program, *t);
      }
  }
  EXPECT_GT(onConstViews, 0); // const methods are called on them
  EXPECT_GT(nonConstCalls, 0);
}

TEST(Variation, CrossoverGivesADescriptorOnlyADescriptor) {
  // records.c's records_source(int fd) and records_peek(int fd) take
  // descriptors, records_write(FILE *, int value) an int: a child's
  // descriptor is a temporary file or -1 as its parent's was, never the
  // other head's int (a number the runner has open made a test hang).
  auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/records.c");
  const std::vector<model::CallableId> targets = callableTargets(*m); // C: functions only
  Rng rng(7);
  testcase::ConstantPool pool;
  pool.addStatic(m->program);
  testcase::TestFactory factory(*m->catalog, pool, rng);
  search::Variation variation(*m->catalog, factory, rng, targets);
  int descriptors = 0, files = 0;
  for (int i = 0; i < 400; ++i) {
    testcase::TestCase a = variation.randomTest(), b = variation.randomTest();
    auto [c, d] = variation.crossover(a, b);
    for (const testcase::TestCase *t : {&c, &d})
      for (size_t k = 0; k < t->statements.size(); ++k) {
        if (!m->catalog->descriptorArgument(*t, k)) continue;
        const testcase::Statement &s = t->statements[k];
        ++descriptors;
        files += s.op == testcase::Op::File;
        EXPECT_TRUE(s.op == testcase::Op::File || (s.op == testcase::Op::Primitive && s.bits == ~std::uint64_t{0}))
            << testcase::toCode(m->program, *t);
      }
  }
  EXPECT_GT(descriptors, 100);
  EXPECT_GT(files, descriptors / 2);
}

TEST(Variation, InsertionCallsAnotherFilesFunctionOnAnObjectTheTestHolds) {
  // tape_core.c's tape_next reads a tape that tape_setup.c's tape_load
  // loads (libyaml's parser.c and api.c's yaml_parser_set_input_string):
  // tape_load is no target, yet insertion calls it on the tape a test
  // holds, as it calls a class's methods on an object.
  auto m = UnitModel::make(MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/tape_core.c");
  const model::Callable &next = m->callable("tape_next"), &load = m->callable("tape_load");
  Rng rng(3);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*m->catalog, pool, rng);
  search::Variation variation(*m->catalog, factory, rng, {next.id});
  int loadedThenRead = 0;
  for (int i = 0; i < 200; ++i) {
    testcase::TestCase t = variation.randomTest();
    variation.insertStep(t);
    expectWellFormed(m->program, t);
    // tape_load(p, ...) before tape_next(p), on the same pointer.
    for (size_t a = 0; a < t.statements.size(); ++a)
      for (size_t b = a + 1; b < t.statements.size(); ++b)
        loadedThenRead += t.statements[a].op == testcase::Op::Call && t.statements[a].callable == load.id &&
                          t.statements[b].op == testcase::Op::Call && t.statements[b].callable == next.id &&
                          t.statements[a].refs[0] == t.statements[b].refs[0];
  }
  EXPECT_GT(loadedThenRead, 0);
}

// Crash reproduction's guided variation (Variation::guideTo): every random
// test, mutant and crossover child ends with a call of the entry, here the
// base's evaluate() that the crash-inherited fixture's trace enters
// through, on an IntCalculator the test holds; the statements before it
// stay well formed.
TEST(Variation, GuidedTestsEndWithACallOfTheEntry) {
  auto m = UnitModel::make(MOSAIC_FIXTURE_CRASH_INHERITED_DB_DIR,
                           std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/crash-inherited/int_calculator.cpp");
  const model::Callable &evaluate = m->callable("Calculator::evaluate");
  Rng rng(5);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(*m->catalog, pool, rng);
  search::Variation variation(*m->catalog, factory, rng, m->program.targets);
  const auto endsWithEvaluate = [&](const testcase::TestCase &t) {
    return !t.statements.empty() && t.statements.back().op == testcase::Op::MethodCall &&
           t.statements.back().callable == evaluate.id;
  };
  // Unguided (generate), a random test seldom ends with it.
  int unguided = 0;
  for (int i = 0; i < 50; ++i) unguided += endsWithEvaluate(variation.randomTest());
  EXPECT_LT(unguided, 25);
  variation.guideTo({evaluate.id});
  int moved = 0;
  for (int i = 0; i < 100; ++i) {
    testcase::TestCase a = variation.randomTest(), b = variation.randomTest();
    ASSERT_TRUE(endsWithEvaluate(a)) << testcase::toCode(m->program, a);
    auto [c, d] = variation.crossover(a, b);
    for (testcase::TestCase *t : {&c, &d}) {
      const size_t calls = static_cast<size_t>(std::count_if(t->statements.begin(), t->statements.end(), [&](const auto &s) {
        return s.op == testcase::Op::MethodCall && s.callable == evaluate.id;
      }));
      variation.mutate(*t, nullptr);
      expectWellFormed(m->program, *t);
      EXPECT_TRUE(endsWithEvaluate(*t)) << testcase::toCode(m->program, *t);
      // An insertion after the entry moves the entry call to the end
      // rather than adding another.
      moved += std::count_if(t->statements.begin(), t->statements.end(), [&](const auto &s) {
                 return s.op == testcase::Op::MethodCall && s.callable == evaluate.id;
               }) == static_cast<std::ptrdiff_t>(calls);
    }
  }
  EXPECT_GT(moved, 100);
}

// The symbolic harness against the fast one (issue 22): symbolic tracing
// must not change what a test does. The same random tests run through both
// fork servers end the same way, statement by statement, and every
// symbolic region the program leaves is one the host reads.
#include "common/UnitHarness.h"
#include "mosaic/solver/PathCondition.h"
#include "mosaic/testcase/Printer.h"
#include "mosaic/testcase/TestFactory.h"

#include <gtest/gtest.h>

using namespace mosaic;
using namespace mosaic::test;

namespace {

const std::string kHarnessFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/";

class SymbolicAgainstFast : public ::testing::TestWithParam<const char *> {};

} // namespace

TEST_P(SymbolicAgainstFast, RandomTestsEndAlikeAndLeaveReadableTraces) {
  auto fast = UnitHarness::make(MOSAIC_FIXTURE_DB_DIR, kHarnessFixtures + GetParam());
  harness::BuildOptions o;
  o.workDir = std::string(MOSAIC_BINARY_DIR) + "/test-harnesses";
  o.symbolic = true;
  auto built = harness::buildHarness(fast->program, *fast->catalog, testToolchain(), o);
  ASSERT_TRUE(built) << built.error().message << "\n" << built.error().detail;
  exec::ServerOptions so;
  so.harness = built->binary;
  so.symbolic = true;
  auto server = exec::ForkServer::start(so, fast->description.blocks, fast->description.sides, 0);
  ASSERT_TRUE(server) << server.error().message << server.error().detail;

  Rng rng(7);
  testcase::ConstantPool pool;
  pool.addStatic(fast->program);
  testcase::TestFactory factory(*fast->catalog, pool, rng);
  exec::Limits limits;
  limits.timeoutMs = 500;
  int constrained = 0;
  for (int k = 0; k < 150; ++k) {
    const testcase::TestCase t = factory.randomTest(fast->program.targets);
    const exec::RunResult a = fast->run(t, limits);
    auto b = (*server)->run(testcase::encode(t), limits);
    ASSERT_TRUE(b) << b.error().message;
    const std::string code = testcase::toCode(fast->program, t);
    ASSERT_EQ(a.outcome, b->outcome) << code;
    const auto sa = fast->server->trace().statements(), sb = (*server)->trace().statements();
    ASSERT_EQ(sa.size(), sb.size()) << code;
    for (size_t i = 0; i < sa.size(); ++i) EXPECT_EQ(sa[i].status, sb[i].status) << code;
    auto trace = solver::readSymbolicTrace((*server)->symbolic());
    ASSERT_TRUE(trace) << trace.error().message << "\n" << code;
    constrained += !trace->constraints.empty();
  }
  EXPECT_GT(constrained, 10) << "tests whose path depends on their values";
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SymbolicAgainstFast, ::testing::Values("shapes.c", "inventory.cpp", "hooks.c"),
                         [](const auto &info) {
                           return std::string(info.index == 0 ? "C" : info.index == 1 ? "Cxx" : "OneRecordTwoSpellings");
                         });

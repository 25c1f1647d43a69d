// The API a unit's classes inherit (testcase/Inherited.h), on the
// crash-inherited fixture: IntCalculator (int_calculator.cpp) derives from
// Calculator, whose methods calculator.cpp defines.
#include "common/UnitModel.h"
#include "mosaic/testcase/Inherited.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mosaic;
using namespace mosaic::test;

namespace {

const std::string kUnit = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/crash-inherited/int_calculator.cpp";

std::vector<std::string> signatures(const model::Program &p, const std::vector<model::CallableId> &ids) {
  std::vector<std::string> out;
  for (model::CallableId id : ids) out.push_back(p.callable(id).signature);
  return out;
}

} // namespace

// The unit's targets are IntCalculator's constructors and its clear(); its
// operators are private. What a test can call on an IntCalculator besides:
// the base's setExpression and evaluate, not the base's clear, which the
// derived class's own hides (`calculator.clear()` calls IntCalculator's).
TEST(Inherited, TheBasesPublicMethodsThatTheDerivedClassDoesNotHide) {
  auto m = UnitModel::make(MOSAIC_FIXTURE_CRASH_INHERITED_DB_DIR, kUnit);
  const std::vector<std::string> targets = signatures(m->program, m->program.targets);
  EXPECT_NE(std::find(targets.begin(), targets.end(), "IntCalculator::clear()"), targets.end());
  EXPECT_EQ(signatures(m->program, testcase::inheritedMethods(*m->catalog, m->program.targets)),
            (std::vector<std::string>{"Calculator::setExpression(const std::string &)", "Calculator::evaluate() const"}));
  // Nothing is inherited by a unit whose targets are no class's.
  EXPECT_TRUE(testcase::inheritedMethods(*m->catalog, {}).empty());
}

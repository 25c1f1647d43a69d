// Weak mutation through the whole engine: the mutants the pass lists for
// each operator (and those it leaves out as provably the same), and the
// infection distances a weak-mutation harness reports (ALGORITHMS.md §6).
#include "common/UnitHarness.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace mosaic;
using namespace mosaic::test;

namespace {

const std::string kMutantsUnit = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/exec/mutants.c";

UnitHarness &weak() {
  static std::unique_ptr<UnitHarness> h = UnitHarness::make(MOSAIC_FIXTURE_EXEC_O0_DB_DIR, kMutantsUnit, false, true, true);
  return *h;
}

const model::FunctionInfo &mutantsFunction(const UnitHarness &u, const std::string &name) {
  for (const auto &f : u.description.functions)
    if (f.name == name) return f;
  throw std::runtime_error("no function " + name);
}

// "original -> replacement" of each mutant of `name`, subsuming ones marked '*'.
std::vector<std::string> mutants(const UnitHarness &u, const std::string &name) {
  std::vector<std::string> out;
  for (const auto &m : mutantsFunction(u, name).mutants)
    out.push_back(m.op + " " + m.original + " -> " + m.replacement + (m.subsuming ? " *" : ""));
  return out;
}

// The trace's slot of the mutant of `name` that computes `replacement`:
// 0 = not reached, else 1 + the infection distance.
double slot(const UnitHarness &u, const std::string &name, const std::string &replacement) {
  for (const auto &m : mutantsFunction(u, name).mutants)
    if (m.replacement == replacement) return u.server->trace().mutants()[m.id];
  throw std::runtime_error("no mutant " + replacement + " in " + name);
}

} // namespace

TEST(Mutants, ArithmeticOperatorsAreReplacedByEachOther) {
  EXPECT_EQ(mutants(weak(), "add"),
            (std::vector<std::string>{"AOR + -> - *", "AOR + -> * *", "AOR + -> / *", "AOR + -> % *"}));
  // x + 0 computes what x - 0 does: that mutant is not listed.
  EXPECT_EQ(mutants(weak(), "plus_zero"), (std::vector<std::string>{"AOR + -> * *", "AOR + -> / *", "AOR + -> % *"}));
  // No % on floating point; bitwise among themselves.
  EXPECT_EQ(mutants(weak(), "times"), (std::vector<std::string>{"AOR * -> + *", "AOR * -> - *", "AOR * -> / *"}));
  // a | b differs from a & b exactly when a != b, where a ^ b differs too:
  // `|` subsumes `^` (abi/Subsumption.h, proven by tests/solver).
  EXPECT_EQ(mutants(weak(), "mask"), (std::vector<std::string>{"BOR & -> | *", "BOR & -> ^"}));
}

TEST(Mutants, RelationsGetTheSufficientSetFirst) {
  // Kaminski et al.'s set for < is <=, != and false (ALGORITHMS.md §6.1).
  EXPECT_EQ(mutants(weak(), "less"),
            (std::vector<std::string>{"ROR < -> <= *", "ROR < -> != *", "ROR < -> false *", "ROR < -> ==",
                                      "ROR < -> >", "ROR < -> >=", "ROR < -> true"}));
  EXPECT_EQ(mutants(weak(), "is_zero").size(), 7u);
}

TEST(Mutants, WhatNoValueTellsApartIsLeftOut) {
  // An address is never below null: p <= 0 is p == 0, p < 0 is false,
  // p > 0 is p != 0, p >= 0 is true. Three mutants stay.
  EXPECT_EQ(mutants(weak(), "is_null"),
            (std::vector<std::string>{"ROR == -> >= *", "ROR == -> false *", "ROR == -> !="}));
  // ~a is a unary operator; pointer subtraction's division by the element
  // size is the compiler's; the subtraction itself is the source's.
  EXPECT_TRUE(mutants(weak(), "complement").empty());
  for (const std::string &m : mutants(weak(), "count")) EXPECT_EQ(m.rfind("AOR - ", 0), 0u) << m;
}

TEST(Mutants, ArithmeticMutantsAreInfectedWhenTheResultDiffers) {
  UnitHarness &u = weak();
  ASSERT_EQ(u.run(u.call("add", {std::int64_t{2}, std::int64_t{0}})).outcome, exec::Outcome::Ok);
  EXPECT_EQ(slot(u, "add", "-"), 2.0); // 2 - 0 == 2 + 0: distance 1
  EXPECT_EQ(slot(u, "add", "*"), 1.0); // 0: infected
  EXPECT_EQ(slot(u, "add", "/"), 1.0); // division by zero: the mutant would trap
  EXPECT_EQ(slot(u, "add", "%"), 1.0);
  EXPECT_EQ(slot(u, "mask", "|"), 0.0); // not reached
  ASSERT_EQ(u.run(u.call("times", {2.0, 2.0})).outcome, exec::Outcome::Ok);
  EXPECT_EQ(slot(u, "times", "+"), 2.0); // 2 + 2 == 2 * 2
  EXPECT_EQ(slot(u, "times", "-"), 1.0);
  EXPECT_EQ(slot(u, "times", "/"), 1.0);
}

TEST(Mutants, RelationalDistanceIsHowFarTheOperandsAreFromDisagreeing) {
  UnitHarness &u = weak();
  ASSERT_EQ(u.run(u.call("less", {std::int64_t{5}, std::int64_t{2}})).outcome, exec::Outcome::Ok);
  EXPECT_EQ(slot(u, "less", "<="), 4.0);    // they disagree at a == b: |5 - 2| away
  EXPECT_EQ(slot(u, "less", "!="), 1.0);    // 5 != 2 while 5 < 2 is false: infected
  EXPECT_EQ(slot(u, "less", "false"), 5.0); // they disagree below: 5 - 2 + 1 away
  EXPECT_EQ(slot(u, "less", "=="), 4.0);    // at equality, nearer than below
  EXPECT_EQ(slot(u, "less", ">"), 1.0);
  ASSERT_EQ(u.run(u.call("is_null", {nullptr})).outcome, exec::Outcome::Ok);
  EXPECT_EQ(slot(u, "is_null", "!="), 1.0);
  EXPECT_EQ(slot(u, "is_null", ">="), 2.0); // true both ways at null
}

TEST(Mutants, OnlyAWeakMutationBuildProbesThem) {
  auto plain = UnitHarness::make(MOSAIC_FIXTURE_EXEC_O0_DB_DIR, kMutantsUnit);
  EXPECT_GT(plain->description.mutants, 20u); // listed all the same
  ASSERT_EQ(plain->run(plain->call("add", {std::int64_t{2}, std::int64_t{0}})).outcome, exec::Outcome::Ok);
  EXPECT_TRUE(plain->server->trace().mutants().empty());
  EXPECT_NE(plain->built.binary, weak().built.binary);
}

TEST(Mutants, ASchemataHarnessRunsTheMutantEachTestAsksFor) {
  // Assertion filtering's harness: every mutant compiled in, the one that
  // runs chosen per test through the trace, the sites reached marked.
  static std::unique_ptr<UnitHarness> h =
      UnitHarness::make(MOSAIC_FIXTURE_EXEC_O0_DB_DIR, kMutantsUnit, false, true, false, true);
  UnitHarness &u = *h;
  auto idOf = [&](const std::string &replacement) {
    for (const auto &m : mutantsFunction(u, "add").mutants)
      if (m.replacement == replacement) return m.id;
    throw std::runtime_error("no mutant " + replacement);
  };
  const auto t = u.call("add", {std::int64_t{2}, std::int64_t{3}});
  ASSERT_EQ(u.run(t).outcome, exec::Outcome::Ok);
  EXPECT_EQ(u.result(2), 5);
  EXPECT_EQ(u.server->trace().mutantArea()[idOf("-")], 1.0); // reached
  EXPECT_EQ(u.server->trace().mutantArea()[mutantsFunction(u, "less").mutants.front().id], 0.0);
  u.server->setMutant(idOf("-"));
  u.run(t);
  EXPECT_EQ(u.result(2), -1);
  u.server->setMutant(idOf("*"));
  u.run(t);
  EXPECT_EQ(u.result(2), 6);
  u.server->setMutant(std::nullopt);
  u.run(t);
  EXPECT_EQ(u.result(2), 5);
}

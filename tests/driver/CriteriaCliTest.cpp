// `mosaic generate --criteria ... --measure-criteria` end to end: a suite
// searched for one criterion is measured against every goal of the eight.
#include "common/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace mosaic::test;

namespace {

nlohmann::json generate(const std::string &dir, const std::string &criteria, ProcessResult &r,
                        const std::string &unit = "hard.c") {
  const std::string fixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/";
  r = runProcess({MOSAIC_EXE, "generate", "-p", MOSAIC_FIXTURE_SEARCH_DB_DIR, fixtures + unit, "-o", dir + "/suite",
                  "--criteria", criteria, "--measure-criteria", "--no-verify", "--max-executions", "3000", "--budget",
                  "120s", "--seed", "1", "--work-dir", dir + "/work", "--json", dir + "/stats.json", "--no-progress"});
  return nlohmann::json::parse(readFile(dir + "/stats.json"));
}

} // namespace

TEST(CriteriaCli, ABranchOnlySuiteIsMeasuredOnEveryGoalOfTheEightCriteria) {
  const std::string dir = makeTempDir("mosaic-criteria");
  ProcessResult r;
  const auto j = generate(dir, "branch", r);
  ASSERT_LE(r.exitCode, 1) << r.out << r.err;
  // The search had branch goals only; the measurement has all eight.
  EXPECT_EQ(j["goals"].size(), 1u) << j["goals"].dump(2);
  const auto &m = j["measured_criteria"];
  for (const char *c : {"branch", "direct-branch", "line", "wm", "top-level", "no-exception", "exception", "output"}) {
    ASSERT_TRUE(m.contains(c)) << c << "\n" << m.dump(2);
    EXPECT_LE(m[c]["covered"].get<int>(), m[c]["total"].get<int>()) << c;
  }
  // hard.c's comparisons have mutants, and its functions results to classify.
  EXPECT_GT(m["wm"]["total"].get<int>(), 0);
  EXPECT_GT(m["wm"]["covered"].get<int>(), 0);
  EXPECT_GT(m["output"]["covered"].get<int>(), 0);
  // The suite keeps a test for each branch side the search covered: run
  // again, they cover the same ones (a test dropped as unstable aside).
  const int searched = j["goals"]["branch"]["covered"].get<int>();
  EXPECT_LE(m["branch"]["covered"].get<int>(), searched);
  EXPECT_GE(m["branch"]["covered"].get<int>(), searched - 1);
  EXPECT_EQ(m["branch"]["total"], j["goals"]["branch"]["total"]);
  EXPECT_NE(r.out.find("criteria     branch "), std::string::npos) << r.out;
}

TEST(CriteriaCli, SmartSelectionSearchesTheGroupsRepresentatives) {
  // §6.1: direct branch, no-exception, exception, output, long blocks'
  // last lines and the subsuming mutants; no top-level goal; branch goals
  // sought only in functions the tests cannot call (hard.c's are all
  // callable: its branch goals are kept, not sought, and as many as its
  // direct-branch goals).
  const std::string dir = makeTempDir("mosaic-criteria");
  ProcessResult r;
  const auto j = generate(dir, "smart", r);
  ASSERT_LE(r.exitCode, 1) << r.out << r.err;
  const auto &g = j["goals"];
  EXPECT_EQ(g["branch"]["total"], g["direct-branch"]["total"]) << g.dump(2);
  EXPECT_FALSE(g.contains("top-level")) << g.dump(2);
  for (const char *c : {"direct-branch", "line", "wm", "no-exception", "output"})
    EXPECT_TRUE(g.contains(c)) << c << "\n" << g.dump(2);
  // Fewer line goals than lines: only the last line of a long block.
  EXPECT_LT(g["line"]["total"].get<int>(), j["measured_criteria"]["line"]["total"].get<int>());
  // The suite's header states what it covers per criterion.
  const std::string suite = readFile(dir + "/suite/hard_test.cpp");
  EXPECT_NE(suite.find("direct branches"), std::string::npos) << suite.substr(0, 600);
}

TEST(CriteriaCli, SmartSelectionKeepsTheBranchesOfFunctionsTheTestsCannotCall) {
  // ticker_step.cpp defines only Ticker's private step(): no test calls it,
  // so it has no direct-branch goal, and its branches stay branch goals,
  // which the search covers through Ticker's public members.
  const std::string dir = makeTempDir("mosaic-criteria");
  ProcessResult r;
  const auto j = generate(dir, "smart", r, "ticker_step.cpp");
  ASSERT_LE(r.exitCode, 1) << r.out << r.err;
  const auto &g = j["goals"];
  EXPECT_EQ(g["direct-branch"]["total"], 0) << g.dump(2);
  EXPECT_GT(g["branch"]["total"].get<int>(), 0) << g.dump(2);
  EXPECT_EQ(g["branch"]["covered"], g["branch"]["total"]) << g.dump(2);
}

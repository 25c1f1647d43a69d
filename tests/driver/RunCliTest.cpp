// `mosaic run` end to end on a fixture.
#include "common/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace mosaic::test;

namespace {
const std::string kRunFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/";
}

TEST(RunCli, RandomTestingReportsCoverageOutcomesAndFailures) {
  const std::string dir = makeTempDir("mosaic-run");
  auto r = runProcess({MOSAIC_EXE, "run", "-p", MOSAIC_FIXTURE_DB_DIR, kRunFixtures + "shapes.c", "--random",
                       "--max-executions", "400", "--budget", "60s", "--seed", "5", "--timeout", "200",
                       "--work-dir", dir, "--json", dir + "/run.json", "--no-progress"});
  // shapes.c dereferences what it is given: random tests find failures.
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("executions   400 in"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("a minimal test of"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(readFile(dir + "/run.json"));
  EXPECT_EQ(j["executions"], 400);
  EXPECT_EQ(j["seed"], 5);
  EXPECT_GT(j["goals"]["branch"]["covered"].get<int>(), 10);
  EXPECT_EQ(j["goals"]["branch"]["total"], 37);
  EXPECT_TRUE(j["harness_errors"].empty()) << j["harness_errors"].dump(2);
  EXPECT_FALSE(j["failures"].empty());
  bool assertion = false;
  for (const auto &f : j["failures"]) assertion |= f["outcome"] == "abort" && f["callable"] == "move_point";
  EXPECT_TRUE(assertion) << "move_point asserts its argument is not null";
}

TEST(RunCli, TheSameSeedGivesTheSameRun) {
  // A timeout is wall-clock time: 1 s rather than 200 ms, so that a slow
  // test on a loaded machine (CI's two cores) is not a timeout in one run
  // and a crash in the other.
  const std::string dir = makeTempDir("mosaic-run");
  auto once = [&](const std::string &name) {
    auto r = runProcess({MOSAIC_EXE, "run", "-p", MOSAIC_FIXTURE_DB_DIR, kRunFixtures + "shapes.c", "--max-executions",
                         "150", "--budget", "60s", "--seed", "9", "--timeout", "1000", "--work-dir", dir, "--json",
                         dir + "/" + name, "--no-progress"});
    auto j = nlohmann::json::parse(readFile(dir + "/" + name));
    return std::make_tuple(j["goals"], j["outcomes"]);
  };
  EXPECT_EQ(once("a.json"), once("b.json"));
}

TEST(RunCli, ASanitizedHarnessHasTheSameBranchesAsAPlainOne) {
  // UBSan's checks are branches in the IR (marked !nosanitize); they are not
  // the program's and must not become goals: before, shapes.c had more.
  const std::string dir = makeTempDir("mosaic-run");
  auto total = [&](const std::vector<std::string> &extra) {
    std::vector<std::string> cmd = {MOSAIC_EXE, "run", "-p", MOSAIC_FIXTURE_DB_DIR, kRunFixtures + "shapes.c",
                                    "--max-executions", "20", "--timeout", "1000", "--work-dir", dir, "--json",
                                    dir + "/run.json", "--no-progress"};
    cmd.insert(cmd.end(), extra.begin(), extra.end());
    auto r = runProcess(cmd);
    EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1) << r.err;
    return nlohmann::json::parse(readFile(dir + "/run.json"))["goals"]["branch"]["total"].get<int>();
  };
  EXPECT_EQ(total({"--sanitize"}), 37);
  EXPECT_EQ(total({}), 37);
}

TEST(RunCli, RelativePathsWork) {
  // The harness compiles in the unit's directory; a relative work dir must still be found.
  const std::string dir = makeTempDir("mosaic-rel");
  const std::string rel = std::filesystem::relative(dir, std::filesystem::current_path()).string();
  auto r = runProcess({MOSAIC_EXE, "run", "-p", MOSAIC_FIXTURE_DB_DIR, kRunFixtures + "shapes.c", "--max-executions",
                       "20", "--work-dir", rel + "/work", "--timeout", "200", "--no-progress"});
  EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1) << r.err;
}

TEST(RunCli, BadBudgetIsAUsageError) {
  auto r = runProcess({MOSAIC_EXE, "run", "-p", MOSAIC_FIXTURE_DB_DIR, kRunFixtures + "shapes.c", "--budget", "soon"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("is not a duration"), std::string::npos);
}

TEST(RunCli, AUnitOfDataOnlySaysThereIsNothingToTest) {
  const std::string dir = makeTempDir("mosaic-run");
  auto r = runProcess({MOSAIC_EXE, "run", "-p", MOSAIC_FIXTURE_DB_DIR, kRunFixtures + "tables.c", "--max-executions",
                       "10", "--work-dir", dir, "--no-progress"});
  EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("mosaic: error: nothing to test: the unit defines no function or method a test could call"),
            std::string::npos)
      << r.err;
}

TEST(RunCli, AUnitWhoseCodeIsInAFileItIncludesSaysWhere) {
  // lzo1x_1.c defines nothing itself: lzo1x_c.ch, which it includes, does.
  const std::string dir = makeTempDir("mosaic-run");
  auto r = runProcess({MOSAIC_EXE, "run", "-p", MOSAIC_FIXTURE_DB_DIR, kRunFixtures + "chunks.c", "--max-executions",
                       "10", "--work-dir", dir, "--no-progress"});
  EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("mosaic: error: nothing to test in the unit's own file: its functions are defined in "
                       "chunks_body.ch, which it includes"),
            std::string::npos)
      << r.err;
}

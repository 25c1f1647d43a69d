// `mosaic project` end to end on a small C project with git history: every
// library unit searched in worker processes, the state kept, a re-run
// redoing only the unit that changed, and one CMake build over the suites.
#include "common/TestSupport.h"
#include "driver/GitProject.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace mosaic::test;
namespace fs = std::filesystem;

namespace {

nlohmann::json stateOf(const std::string &out) { return nlohmann::json::parse(readFile(out + "/project.json")); }

std::string statusOf(const nlohmann::json &state, const std::string &file) {
  for (const auto &u : state["units"])
    if (u["file"] == file) return u["status"];
  return "(absent)";
}

} // namespace

TEST(ProjectCli, EveryLibraryUnitOnceThenOnlyWhatChangedAndOneBuildOverAll) {
  const std::string dir = makeGitProject(true);
  const std::string out = dir + "/out";
  // --no-verify: the suites are written, not built by each unit; the one
  // build below builds them all.
  const std::vector<std::string> run{MOSAIC_EXE, "project", "-p", dir + "/build", "-o", out,
                                     "--budget-per-unit", "1s", "-j", "2", "--no-verify", "--no-progress",
                                     "--function-weights"};
  auto first = runProcess(run);
  ASSERT_LE(first.exitCode, 1) << first.err << first.out;
  nlohmann::json state = stateOf(out);
  ASSERT_EQ(state["units"].size(), 2u) << state.dump(2); // the test is not a unit
  EXPECT_EQ(statusOf(state, "lib/parse.c"), "done") << first.out;
  EXPECT_EQ(statusOf(state, "lib/util.c"), "done") << first.out;
  // parse.c, fixed twice, is the riskier: BADS gives it the larger share.
  double parseBudget = 0, utilBudget = 0;
  for (const auto &u : state["units"])
    (u["file"] == "lib/parse.c" ? parseBudget : utilBudget) = u["budget_seconds"].get<double>();
  EXPECT_GT(parseBudget, utilBudget);
  // 2 s less the prediction's own time (T_DP).
  EXPECT_LE(parseBudget + utilBudget, 2.0);
  EXPECT_GT(parseBudget + utilBudget, 1.5);
  EXPECT_NE(first.out.find("bads over 3 commits"), std::string::npos) << first.out;
  // parse(), fixed twice, is parse.c's riskier function: its search calls it more.
  const auto weights = nlohmann::json::parse(readFile(out + "/work/lib_parse_c.functions.json"));
  EXPECT_GT(weights.value("parse", 0.0), weights.value("count", 0.0)) << weights.dump();
  EXPECT_NE(readFile(out + "/logs/lib_parse_c.log").find("defect prediction weights 2 of the unit's callables"),
            std::string::npos)
      << readFile(out + "/logs/lib_parse_c.log");

  // Nothing changed: nothing runs.
  auto second = runProcess(run);
  ASSERT_LE(second.exitCode, 1) << second.err;
  EXPECT_NE(second.out.find("2 units unchanged"), std::string::npos) << second.out;
  EXPECT_EQ(second.out.find("[1/2]"), std::string::npos) << second.out;

  // A header only util.c includes changed: only util.c runs again (the
  // headers each unit depends on are those its harness was built with).
  writeText(dir + "/lib/util.h", "#define FACTOR 3\n");
  auto header = runProcess(run);
  ASSERT_LE(header.exitCode, 1) << header.err;
  EXPECT_NE(header.out.find("1 units unchanged"), std::string::npos) << header.out;
  EXPECT_NE(header.out.find("lib/util.c: done"), std::string::npos) << header.out;
  const nlohmann::json afterHeader = stateOf(out);
  for (const auto &u : afterHeader["units"])
    if (u["file"] == "lib/util.c") EXPECT_EQ(u["headers"], nlohmann::json::array({"lib/util.h"})) << u.dump(2);

  // One unit changed: only it runs again.
  writeText(dir + "/lib/util.c", "#include \"util.h\"\nint twice(int x) { return x + x; }\n");
  auto third = runProcess(run);
  ASSERT_LE(third.exitCode, 1) << third.err;
  EXPECT_NE(third.out.find("1 units unchanged"), std::string::npos) << third.out;
  EXPECT_NE(third.out.find("lib/util.c: done"), std::string::npos) << third.out;
  EXPECT_EQ(third.out.find("lib/parse.c: done"), std::string::npos) << third.out;

  // The root CMakeLists.txt builds both suites, and CTest runs their tests.
  const std::string root = readFile(out + "/CMakeLists.txt");
  EXPECT_NE(root.find("add_subdirectory(units/lib_parse_c)"), std::string::npos) << root;
  EXPECT_NE(root.find("add_subdirectory(units/lib_util_c)"), std::string::npos) << root;
  ASSERT_NO_FATAL_FAILURE(buildWithCMake(out, out + "/build"));
  auto ctest = runProcess({"ctest", "--test-dir", out + "/build", "-N"});
  ASSERT_EQ(ctest.exitCode, 0) << ctest.out;
  EXPECT_NE(ctest.out.find("parseTest."), std::string::npos) << ctest.out;
  EXPECT_NE(ctest.out.find("utilTest."), std::string::npos) << ctest.out;
}

TEST(ProjectCli, ADryRunPrintsThePlanAndRunsNothing) {
  const std::string dir = makeGitProject(true);
  const std::string out = dir + "/out";
  auto r = runProcess({MOSAIC_EXE, "project", "-p", dir + "/build", "-o", out, "--budget", "100s", "--dry-run"});
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("no unit was run"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out + "/project.json"));
  EXPECT_FALSE(fs::exists(out + "/units"));
  const auto plan = nlohmann::json::parse(readFile(out + "/plan.json"));
  ASSERT_EQ(plan["units"].size(), 2u) << plan.dump(1);
  // The riskier parse.c (fixed twice) first, with the larger budget.
  EXPECT_EQ(plan["units"][0]["path"], "lib/parse.c") << plan.dump(1);
  EXPECT_GT(plan["units"][0]["budget_seconds"].get<double>(), plan["units"][1]["budget_seconds"].get<double>());
  EXPECT_GT(plan["units"][0]["score"].get<double>(), plan["units"][1]["score"].get<double>());
  EXPECT_EQ(plan["units"][0]["state"], "to run");
  // Even: the same budget each.
  auto even = runProcess({MOSAIC_EXE, "project", "-p", dir + "/build", "-o", out, "--budget", "100s", "--dry-run",
                          "--allocation", "even"});
  ASSERT_EQ(even.exitCode, 0) << even.err;
  const auto evenPlan = nlohmann::json::parse(readFile(out + "/plan.json"));
  EXPECT_DOUBLE_EQ(evenPlan["units"][0]["budget_seconds"].get<double>(), 50.0) << evenPlan.dump(1);
  EXPECT_DOUBLE_EQ(evenPlan["units"][1]["budget_seconds"].get<double>(), 50.0) << evenPlan.dump(1);
}

TEST(ProjectCli, BadAllocationAndNoUnitAreUsageErrors) {
  const std::string dir = makeGitProject(false);
  auto bad = runProcess({MOSAIC_EXE, "project", "-p", dir + "/build", "-o", dir + "/out", "--allocation", "lucky"});
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("bads or even"), std::string::npos) << bad.err;
  auto none = runProcess({MOSAIC_EXE, "project", "-p", dir + "/build", "-o", dir + "/out", "--include", "src/*.c"});
  EXPECT_EQ(none.exitCode, 2);
  EXPECT_NE(none.err.find("no unit left"), std::string::npos) << none.err;
}

TEST(ProjectCli, TwoShardsRunEveryUnitOnceAndMergeIntoOne) {
  const std::string dir = makeGitProject(true);
  std::vector<std::string> ids;
  for (const char *shard : {"0/2", "1/2"}) {
    const std::string out = dir + "/shard-" + std::string(1, shard[0]);
    auto r = runProcess({MOSAIC_EXE, "project", "-p", dir + "/build", "-o", out, "--budget-per-unit", "1s",
                         "--shard", shard, "--no-verify", "--no-progress"});
    ASSERT_LE(r.exitCode, 1) << r.err << r.out;
    EXPECT_NE(r.out.find("of the 2 units"), std::string::npos) << r.out;
    const nlohmann::json state = stateOf(out);
    for (const auto &u : state["units"]) ids.push_back(u["id"]);
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"lib_parse_c", "lib_util_c"})); // each once
  // The same split from a Slurm array's environment.
  const std::string viaSlurm = dir + "/slurm-1";
  auto slurm = runProcess({"env", "SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=2", MOSAIC_EXE, "project", "-p",
                           dir + "/build", "-o", viaSlurm, "--budget-per-unit", "1s", "--no-verify", "--no-progress"});
  ASSERT_LE(slurm.exitCode, 1) << slurm.err;
  EXPECT_EQ(stateOf(viaSlurm)["units"][0]["id"], stateOf(dir + "/shard-1")["units"][0]["id"]);

  auto merge = runProcess({MOSAIC_EXE, "project", "--merge", dir + "/shard-0," + dir + "/shard-1", "-o", dir + "/all"});
  ASSERT_LE(merge.exitCode, 1) << merge.err << merge.out;
  const nlohmann::json all = stateOf(dir + "/all");
  EXPECT_EQ(all["units"].size(), 2u);
  const std::string root = readFile(dir + "/all/CMakeLists.txt");
  EXPECT_NE(root.find("add_subdirectory(units/lib_parse_c)"), std::string::npos) << root;
  EXPECT_NE(root.find("add_subdirectory(units/lib_util_c)"), std::string::npos) << root;
  EXPECT_TRUE(fs::exists(dir + "/all/units/lib_util_c/CMakeLists.txt"));
}

// `mosaic predict` end to end: a small C project with a git history made
// here (a fixed function, a busy file, a test file), ranked through its
// compile database.
#include "common/TestSupport.h"
#include "driver/GitProject.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>


using namespace mosaic::test;


TEST(PredictCli, RanksTheLibraryCodeByItsHistoryWithItsFixesAndFunctions) {
  const std::string dir = makeGitProject(true);
  auto r = runProcess({MOSAIC_EXE, "predict", "-p", dir + "/build", "--json", "-"});
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["units"].size(), 2u) << j.dump(2); // not the test
  EXPECT_EQ(j["units"][0]["file"], "lib/parse.c");
  EXPECT_EQ(j["units"][0]["fix_commits"], 2);
  EXPECT_EQ(j["units"][1]["file"], "lib/util.c");
  EXPECT_EQ(j["units"][1]["commits"], 1);
  EXPECT_GT(j["units"][0]["score"].get<double>(), j["units"][1]["score"].get<double>());
  ASSERT_EQ(j["units"][0]["recent_fixes"].size(), 2u);
  EXPECT_EQ(j["units"][0]["recent_fixes"][0]["summary"], "parse: fix the empty string");
  // Its functions from the front end: parse fixed twice, count never.
  const auto &functions = j["units"][0]["functions"];
  ASSERT_EQ(functions.size(), 2u) << functions.dump(2);
  EXPECT_EQ(functions[0]["name"], "parse");
  EXPECT_EQ(functions[0]["begin_line"], 1);
  EXPECT_EQ(functions[0]["fix_commits"], 2);
  EXPECT_EQ(functions[1]["name"], "count");
  EXPECT_EQ(functions[1]["commits"], 1);
  EXPECT_EQ(functions[1]["fix_commits"], 0);
  ASSERT_EQ(j["left_out"].size(), 1u);
  EXPECT_NE(j["left_out"][0]["why"].get<std::string>().find("tests/"), std::string::npos);

  // The table says the same, with the reasons.
  auto table = runProcess({MOSAIC_EXE, "predict", "-p", dir + "/build"});
  ASSERT_EQ(table.exitCode, 0) << table.err;
  EXPECT_NE(table.out.find("lib/parse.c"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("parse: fix the empty string"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("function parse (lines 1-3)"), std::string::npos) << table.out;

  // Before the fixes: the history cut at the first commit.
  auto before = runProcess({MOSAIC_EXE, "predict", "-p", dir + "/build", "--revision", "HEAD~2", "--json", "-"});
  ASSERT_EQ(before.exitCode, 0) << before.err;
  EXPECT_EQ(nlohmann::json::parse(before.out)["units"][0]["fix_commits"], 0);
}

TEST(PredictCli, AProjectWithoutHistoryIsToldSoAndScoredEvenly) {
  const std::string dir = makeGitProject(false);
  auto r = runProcess({MOSAIC_EXE, "predict", "-p", dir + "/build", "--no-functions"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("no git repository"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("an even split"), std::string::npos) << r.out;
  auto missing = runProcess({MOSAIC_EXE, "predict", "-p", dir + "/nowhere"});
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_NE(missing.err.find("no compile database"), std::string::npos) << missing.err;
}

// `mosaic predict` end to end: a small C project with a git history made
// here (a fixed function, a busy file, a test file), ranked through its
// compile database.
#include "common/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace mosaic::test;
namespace fs = std::filesystem;

namespace {

// Runs git in `dir` with a fixed author and time (seconds after 2020-09-13).
void git(const std::string &dir, const std::string &args, long time = 0) {
  const std::string date = "@" + std::to_string(1600000000 + time) + " +0000";
  const std::string env = "GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@x GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@x "
                          "GIT_CONFIG_NOSYSTEM=1 HOME=" + dir + " GIT_AUTHOR_DATE='" + date + "' GIT_COMMITTER_DATE='" +
                          date + "' ";
  ASSERT_EQ(std::system((env + "git -C " + dir + " " + args + " >/dev/null 2>&1").c_str()), 0) << args;
}

void write(const std::string &path, const std::string &text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

// lib/parse.c (two functions, one of them fixed twice), lib/util.c (one
// old commit), tests/test_parse.c; a compile database for all three.
std::string makeProject(bool withGit) {
  const std::string dir = makeTempDir("mosaic-predict-cli");
  const std::string parseV1 = "int parse(const char *s) {\n  return s[0];\n}\n\nint count(int n) {\n  return n;\n}\n";
  write(dir + "/lib/parse.c", parseV1);
  write(dir + "/lib/util.c", "int twice(int x) { return 2 * x; }\n");
  write(dir + "/tests/test_parse.c", "int parse(const char *);\nint main(void) { return parse(\"a\"); }\n");
  nlohmann::json db = nlohmann::json::array();
  for (const char *f : {"lib/parse.c", "lib/util.c", "tests/test_parse.c"})
    db.push_back({{"directory", dir}, {"file", f}, {"arguments", {"cc", "-c", f}}});
  write(dir + "/build/compile_commands.json", db.dump(2));
  if (!withGit) return dir;
  git(dir, "init -q -b main");
  git(dir, "add -A", 100);
  git(dir, "commit -q -m 'first version'", 100);
  write(dir + "/lib/parse.c", "int parse(const char *s) {\n  return s ? s[0] : 0;\n}\n\nint count(int n) {\n  return n;\n}\n");
  git(dir, "commit -q -am 'Fix a null dereference in parse'", 200);
  write(dir + "/lib/parse.c", "int parse(const char *s) {\n  return s && *s ? s[0] : -1;\n}\n\nint count(int n) {\n  return n;\n}\n");
  git(dir, "commit -q -am 'parse: fix the empty string'", 300);
  return dir;
}

} // namespace

TEST(PredictCli, RanksTheLibraryCodeByItsHistoryWithItsFixesAndFunctions) {
  const std::string dir = makeProject(true);
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
  const std::string dir = makeProject(false);
  auto r = runProcess({MOSAIC_EXE, "predict", "-p", dir + "/build", "--no-functions"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("no git repository"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("an even split"), std::string::npos) << r.out;
  auto missing = runProcess({MOSAIC_EXE, "predict", "-p", dir + "/nowhere"});
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_NE(missing.err.find("no compile database"), std::string::npos) << missing.err;
}

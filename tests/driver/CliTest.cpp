// The mosaic executable, end to end: help, version, exit codes, analyze.
#include "common/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace mosaic::test;

namespace {

const std::string kFixtures = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/";

ProcessResult runMosaic(std::vector<std::string> args) {
  args.insert(args.begin(), MOSAIC_EXE);
  return runProcess(args);
}

} // namespace

TEST(Cli, VersionAndHelp) {
  auto v = runMosaic({"--version"});
  EXPECT_EQ(v.exitCode, 0);
  EXPECT_NE(v.out.find("mosaic 0.1.0 (LLVM 19."), std::string::npos) << v.out;
  auto h = runMosaic({"--help"});
  EXPECT_EQ(h.exitCode, 0);
  EXPECT_NE(h.out.find("analyze"), std::string::npos);
  EXPECT_NE(h.out.find("Exit codes"), std::string::npos);
  auto ah = runMosaic({"analyze", "--help"});
  EXPECT_EQ(ah.exitCode, 0);
  EXPECT_NE(ah.out.find("--function"), std::string::npos);
  EXPECT_NE(ah.out.find("--json"), std::string::npos);
}

TEST(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(runMosaic({}).exitCode, 2);
  EXPECT_EQ(runMosaic({"frobnicate"}).exitCode, 2);
  EXPECT_EQ(runMosaic({"analyze"}).exitCode, 2);
  EXPECT_EQ(runMosaic({"analyze", "-p", MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c", "--function", "f", "--class", "C"})
                .exitCode,
            2);
}

TEST(Cli, AnalyzePrintsASummary) {
  auto r = runMosaic({"analyze", "-p", MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("targets   20 callables: 20 functions (3 static)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 x function: declared without a prototype (K&R style): argument types unknown: old_style"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("mosaic: note: dropped flag '-Werror'"), std::string::npos) << r.err;
}

TEST(Cli, AnalyzeCxxSummaryCountsKinds) {
  auto r = runMosaic({"analyze", "-p", MOSAIC_FIXTURE_DB_DIR, kFixtures + "inventory.cpp", "--class", "Inventory"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("targets   17 callables: 2 constructors, 12 methods (8 const), 1 static method, 2 operators"),
            std::string::npos)
      << r.out;
}

TEST(Cli, JsonGoesToAFileOrStdout) {
  const std::string out = makeTempDir("mosaic-json") + "/model.json";
  auto r = runMosaic({"analyze", "-p", MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c", "--function", "is_name", "--json", out});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto j = nlohmann::json::parse(readFile(out));
  EXPECT_EQ(j["format"], 13);
  ASSERT_EQ(j["targets"].size(), 1u);
  EXPECT_EQ(j["callables"][j["targets"][0].get<int>()]["name"], "is_name");

  auto s = runMosaic({"analyze", "-p", MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c", "--json", "-"});
  ASSERT_EQ(s.exitCode, 0);
  EXPECT_EQ(nlohmann::json::parse(s.out)["language"], "c");
}

TEST(Cli, UnknownFunctionSuggestsANameAndExitsWithTwo) {
  auto r = runMosaic({"analyze", "-p", MOSAIC_FIXTURE_DB_DIR, kFixtures + "shapes.c", "--function", "point_prase"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("did you mean point_parse?"), std::string::npos) << r.err;
}

TEST(Cli, BadInputIsAClearErrorWithExitCodeTwo) {
  const std::string empty = makeTempDir("mosaic-cli-nodb");
  auto noDb = runMosaic({"analyze", "-p", empty, kFixtures + "shapes.c"});
  EXPECT_EQ(noDb.exitCode, 2);
  EXPECT_NE(noDb.err.find("mosaic: error: no compile_commands.json in"), std::string::npos) << noDb.err;

  auto noFile = runMosaic({"analyze", "-p", MOSAIC_FIXTURE_DB_DIR, kFixtures + "missing.c"});
  EXPECT_EQ(noFile.exitCode, 2);
  EXPECT_NE(noFile.err.find("does not exist"), std::string::npos) << noFile.err;

  auto broken = runMosaic({"analyze", "-p", MOSAIC_FIXTURE_DB_DIR, kFixtures + "broken.c"});
  EXPECT_EQ(broken.exitCode, 2);
  EXPECT_NE(broken.err.find("cannot parse"), std::string::npos) << broken.err;
  EXPECT_NE(broken.err.find("error: expected expression"), std::string::npos) << broken.err;
  EXPECT_TRUE(broken.out.empty());

  auto stray = runMosaic({"analyze", "-p", MOSAIC_FIXTURE_DB_DIR, kFixtures + "stray.c"});
  EXPECT_EQ(stray.exitCode, 0);
  EXPECT_NE(stray.err.find("is not in compile_commands.json; using the flags of"), std::string::npos) << stray.err;
}

// Finding and adjusting a unit's compile command; the front end's errors.
#include "CompileDatabase.h"

#include "analysis/FixtureModel.h"
#include "common/TestSupport.h"

#include <fstream>

using namespace mosaic;
using namespace mosaic::analysis;
using namespace mosaic::test;

TEST(AdjustForClang, DropsUnknownFlagsWerrorAndLaunchers) {
  std::vector<std::string> notes;
  auto args = adjustForClang({"ccache", "gcc", "-O2", "-Werror", "-Werror=format", "-fvar-tracking-assignments",
                              "-Wall", "-resource-dir", "/old", "-c", "x.c"},
                             "/rd", notes);
  EXPECT_EQ(args, (std::vector<std::string>{"gcc", "-resource-dir=/rd", "-Wno-error", "-w", "-O2", "-Wall", "-c", "x.c"}));
  EXPECT_EQ(notes, (std::vector<std::string>{"dropped compiler launcher 'ccache'",
                                             "dropped flag '-fvar-tracking-assignments' (not known to Clang 19)",
                                             "dropped flag '-Werror' (warnings must not stop the analysis)",
                                             "dropped flag '-Werror=format' (warnings must not stop the analysis)"}));
}

TEST(AdjustForClang, KeepsFlagsClangKnows) {
  std::vector<std::string> notes;
  auto args = adjustForClang({"clang++", "-std=c++17", "-DX=1", "-Iinc", "-isystem", "/sys", "-c", "a.cpp"}, "/rd", notes);
  EXPECT_EQ(args, (std::vector<std::string>{"clang++", "-resource-dir=/rd", "-Wno-error", "-w", "-std=c++17", "-DX=1",
                                            "-Iinc", "-isystem", "/sys", "-c", "a.cpp"}));
  EXPECT_TRUE(notes.empty());
}

TEST(FindUnitCommand, ExactEntry) {
  auto cmd = findUnitCommand(MOSAIC_FIXTURE_DB_DIR, fixturePath("shapes.c"));
  ASSERT_TRUE(cmd) << cmd.error().message;
  EXPECT_EQ(cmd->file, fixturePath("shapes.c"));
  EXPECT_EQ(cmd->directory, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis");
  EXPECT_EQ(cmd->args.front(), "/usr/bin/gcc");
  EXPECT_TRUE(cmd->notes.empty());
}

TEST(FindUnitCommand, AcceptsTheJsonFileItself) {
  auto cmd = findUnitCommand(std::string(MOSAIC_FIXTURE_DB_DIR) + "/compile_commands.json", fixturePath("shapes.c"));
  ASSERT_TRUE(cmd) << cmd.error().message;
}

TEST(FindUnitCommand, UnitNotInTheDatabaseBorrowsTheClosestEntry) {
  auto cmd = findUnitCommand(MOSAIC_FIXTURE_DB_DIR, fixturePath("stray.c"));
  ASSERT_TRUE(cmd) << cmd.error().message;
  ASSERT_EQ(cmd->notes.size(), 1u);
  EXPECT_NE(cmd->notes[0].find("is not in compile_commands.json; using the flags of inferred from"), std::string::npos)
      << cmd->notes[0];
}

TEST(FindUnitCommand, MissingDatabaseIsAnInputError) {
  const std::string empty = makeTempDir("mosaic-nodb");
  auto cmd = findUnitCommand(empty, fixturePath("shapes.c"));
  ASSERT_FALSE(cmd);
  EXPECT_EQ(cmd.error().kind, ErrorKind::Input);
  EXPECT_EQ(cmd.error().message, "no compile_commands.json in '" + empty + "'");
  EXPECT_NE(cmd.error().detail.find("CMAKE_EXPORT_COMPILE_COMMANDS"), std::string::npos);
}

TEST(FindUnitCommand, MissingUnitIsAnInputError) {
  auto cmd = findUnitCommand(MOSAIC_FIXTURE_DB_DIR, fixturePath("no_such_file.c"));
  ASSERT_FALSE(cmd);
  EXPECT_EQ(cmd.error().kind, ErrorKind::Input);
  EXPECT_NE(cmd.error().message.find("does not exist"), std::string::npos);
}

TEST(FindUnitCommand, MalformedDatabaseIsAnInputError) {
  const std::string dir = makeTempDir("mosaic-baddb");
  std::ofstream(dir + "/compile_commands.json") << "{ this is not json";
  auto cmd = findUnitCommand(dir, fixturePath("shapes.c"));
  ASSERT_FALSE(cmd);
  EXPECT_EQ(cmd.error().kind, ErrorKind::Input);
  EXPECT_NE(cmd.error().message.find("cannot read"), std::string::npos);
}

TEST(FrontEnd, ParseErrorCarriesClangDiagnostics) {
  auto p = analyzeUnit({MOSAIC_FIXTURE_DB_DIR, fixturePath("broken.c")});
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().kind, ErrorKind::Input);
  EXPECT_EQ(p.error().message, "cannot parse '" + fixturePath("broken.c") + "' (1 error)");
  EXPECT_NE(p.error().detail.find("broken.c:3:13: error: expected expression"), std::string::npos) << p.error().detail;
}

TEST(FrontEnd, StrayUnitIsAnalysedWithBorrowedFlags) {
  auto p = analyzeUnit({MOSAIC_FIXTURE_DB_DIR, fixturePath("stray.c")});
  ASSERT_TRUE(p) << p.error().message << p.error().detail;
  EXPECT_EQ(callable(*p, "stray_twice").origin, model::Origin::Unit);
  EXPECT_NE(p->notes.at(0).find("not in compile_commands.json"), std::string::npos);
}

// Input samples from the project's own files: which literals, in which
// order, from which files.
#include "ProjectSamples.h"

#include "common/TestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace mosaic::analysis;
using namespace mosaic::test;
namespace fs = std::filesystem;

namespace {

using Ranks = std::vector<std::string>[3];

void write(const fs::path &path, const std::string &text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

} // namespace

TEST(LexSamples, RanksLiteralsByTheCallTheyAreWrittenIn) {
  Ranks ranks;
  const bool calls = lexSamples(R"(#include "parser.h"
#define GREETING "not this one"
static const char *doc = "<a>" "<b/>" "</a>";   /* adjacent literals join */
int main(void) {
  if (parse(doc, "strict\tmode") != 0) printf("failed: %s\n", doc);
  p.load_string(STR("<node attr='1'/>"));
  x = L"wide" ; y = "x"; z = R"raw(a\nb)raw";
  return 0;
})",
                                {"parse", "load_string"}, 4096, ranks);
  EXPECT_TRUE(calls);
  EXPECT_EQ(ranks[0], (std::vector<std::string>{"strict\tmode", "<node attr='1'/>"}));
  EXPECT_EQ(ranks[1], (std::vector<std::string>{"<a><b/></a>", "a\\nb"}));
  EXPECT_EQ(ranks[2], (std::vector<std::string>{"failed: %s\n"}));
}

TEST(LexSamples, KeepsNothingFromAFileThatDoesNotCallTheUnit) {
  Ranks ranks;
  EXPECT_FALSE(lexSamples("int f(void) { return g(\"<doc/>\"); }  /* parse( in a comment */", {"parse"}, 4096, ranks));
  EXPECT_TRUE(ranks[0].empty() && ranks[1].empty() && ranks[2].empty());
}

TEST(LexSamples, DropsLiteralsLongerThanTheLimitAndSurvivesUnbalancedParentheses) {
  Ranks ranks;
  EXPECT_TRUE(lexSamples("void t() { parse(\"0123456789\"); parse(\"short\"; } void u() { k(\"free\"); }", {"parse"}, 8,
                         ranks));
  EXPECT_EQ(ranks[0], (std::vector<std::string>{"short"}));
  EXPECT_EQ(ranks[2], (std::vector<std::string>{"free"}));
}

TEST(ProjectRoot, IsTheDeepestFolderOfTheUnitAndTheDatabase) {
  EXPECT_EQ(projectRoot("/p/src/lib/a.c", {"/p/src/lib/a.c", "/p/src/tests/t.c"}), "/p/src");
  // A database spanning unrelated trees (gtest built from /usr/src): from
  // the unit's own folder.
  EXPECT_EQ(projectRoot("/home/me/lib/a.c", {"/home/me/lib/a.c", "/usr/src/gtest/gtest-all.cc"}), "/home/me");
}

TEST(ProjectRoot, GoesUpToTheFirstFolderWithABuildFile) {
  const fs::path top = makeTempDir("mosaic-root");
  write(top / "CMakeLists.txt", "project(p)");
  write(top / "src/lib/a.c", "");
  write(top / "tests/t.c", "");
  // The database lists the library only; its tests are in the project.
  EXPECT_EQ(projectRoot((top / "src/lib/a.c").string(), {(top / "src/lib/a.c").string()}), top.string());
  // The library's own build file is as far as it goes.
  write(top / "src/CMakeLists.txt", "add_library(p lib/a.c)");
  EXPECT_EQ(projectRoot((top / "src/lib/a.c").string(), {(top / "src/lib/a.c").string()}), (top / "src").string());
}

TEST(MineProjectSamples, ReadsTheCallingFilesUnderTheRootInPathOrder) {
  const fs::path root = makeTempDir("mosaic-samples");
  write(root / "lib/unit.c", "int parse(const char *s) { return s[0] == '<'; } const char *own = \"own literal\";");
  write(root / "tests/b_test.c", "void b(void) { parse(\"<b/>\"); parse(\"<a/>\"); }");
  write(root / "tests/a_test.cpp", "TEST(A, B) { EXPECT_EQ(parse(\"<a/>\"), 1) << \"message\"; }");
  write(root / "tools/other.c", "void o(void) { puts(\"not calling\"); }");
  write(root / ".git/hooks/x.c", "void h(void) { parse(\"hidden\"); }");
  write(root / "tests/data.txt", "parse(\"not source\")");
  write(root / "build/CMakeCache.txt", "");
  write(root / "build/copy.c", "void c(void) { parse(\"build tree\"); }");
  const auto found = mineProjectSamples(root.string(), (root / "lib/unit.c").string(), {"parse"});
  EXPECT_EQ(found.samples, (std::vector<std::string>{"<a/>", "<b/>", "message"}));
  EXPECT_EQ(found.filesLexed, 3u);
  EXPECT_EQ(found.filesCalling, 2u);
}

TEST(MineProjectSamples, ThinsTheLastRankEvenlyToTheLimit) {
  const fs::path root = makeTempDir("mosaic-samples");
  std::string text = "void t(void) { parse(\"first\"); }\n";
  for (int i = 0; i < 10; ++i) text += "const char *s" + std::to_string(i) + " = \"doc" + std::to_string(i) + "\";\n";
  write(root / "t.c", text);
  SampleLimits limits;
  limits.maxSamples = 4;
  const auto found = mineProjectSamples(root.string(), (root / "unit.c").string(), {"parse"}, limits);
  EXPECT_EQ(found.samples, (std::vector<std::string>{"first", "doc0", "doc3", "doc6"}));
}

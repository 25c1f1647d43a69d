// Paths in a written suite that survive a move (lib/emit/Portable.h).
#include "Portable.h"
#include "common/TestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace mosaic::emit;

namespace {

UnitBuild placed(const std::string &root, const std::string &buildDir, const std::string &suiteDir) {
  UnitBuild b;
  b.root = root;
  b.buildDir = buildDir;
  b.suiteDir = suiteDir;
  return b;
}

} // namespace

TEST(Portable, PathsUnderTheProjectAndItsBuildFolderGoThroughTheirVariables) {
  const ProjectPaths paths(placed("/w/calc", "/w/calc-build", "/w/calc/tests/mosaic"));
  EXPECT_EQ(paths.cmakePath("/w/calc/src/a.c"), "${MOSAIC_PROJECT_ROOT}/src/a.c");
  EXPECT_EQ(paths.cmakePath("/w/calc"), "${MOSAIC_PROJECT_ROOT}");
  EXPECT_EQ(paths.cmakePath("/w/calc-build/config.h"), "${MOSAIC_BUILD_DIR}/config.h");
  EXPECT_EQ(paths.cmakePath("/usr/include/libxml2"), "/usr/include/libxml2"); // a system folder stays
  EXPECT_EQ(paths.cmakeFlag("-I/w/calc/include"), "-I${MOSAIC_PROJECT_ROOT}/include");
  EXPECT_EQ(paths.cmakeFlag("-isystem/w/calc-build/gen"), "-isystem${MOSAIC_BUILD_DIR}/gen");
  EXPECT_EQ(paths.cmakeFlag("-include/w/calc/config.h"), "-include${MOSAIC_PROJECT_ROOT}/config.h");
  EXPECT_EQ(paths.cmakeFlag("-DNAME=/w/calc"), "-DNAME=/w/calc"); // only the flags that name paths
  const std::string defaults = paths.cmakeDefaults();
  EXPECT_NE(defaults.find("set(MOSAIC_PROJECT_ROOT \"${CMAKE_CURRENT_SOURCE_DIR}/../..\")"), std::string::npos)
      << defaults;
  EXPECT_NE(defaults.find("set(MOSAIC_BUILD_DIR \"${CMAKE_CURRENT_SOURCE_DIR}/../../../calc-build\")"),
            std::string::npos)
      << defaults;
  // The variables stay live inside a quoted argument; other `$` are escaped.
  EXPECT_EQ(cmakeQuotePath("${MOSAIC_PROJECT_ROOT}/a;b $x"), "\"${MOSAIC_PROJECT_ROOT}/a\\;b \\$x\"");
  EXPECT_EQ(cmakeQuotePath("-DA;-DB", true), "\"-DA;-DB\"");
}

TEST(Portable, ABuildFolderInsideTheProjectAndNoProjectNeedNoSecondVariable) {
  const ProjectPaths inside(placed("/w/calc", "/w/calc/build", "/w/out"));
  EXPECT_EQ(inside.cmakePath("/w/calc/build/config.h"), "${MOSAIC_PROJECT_ROOT}/build/config.h");
  EXPECT_EQ(inside.cmakeDefaults().find("MOSAIC_BUILD_DIR"), std::string::npos);
  const ProjectPaths none(placed("", "/w/calc/build", "/w/out"));
  EXPECT_EQ(none.cmakePath("/w/calc/src/a.c"), "/w/calc/src/a.c");
  EXPECT_EQ(none.cmakeDefaults(), "");
}

TEST(Portable, AHeaderIsSpelledThroughTheIncludeFolderThatFindsItFirst) {
  const std::string dir = fs::canonical(mosaic::test::makeTempDir("mosaic-portable")).string();
  for (const char *f : {"include/json/value.h", "include/json/config.h", "src/config.h", "src/json/value.h"}) {
    fs::create_directories(fs::path(dir + "/" + f).parent_path());
    std::ofstream(dir + "/" + f) << "\n";
  }
  const std::vector<std::string> flags{"-I" + dir + "/include", "-DX"};
  EXPECT_EQ(includeThroughFolders(dir + "/include/json/value.h", flags), "<json/value.h>");
  // Not through a folder the header is not in.
  EXPECT_EQ(includeThroughFolders(dir + "/src/config.h", flags), "");
  // The same spelling would find another file first: not that spelling.
  const std::vector<std::string> shadowed{"-I" + dir + "/src", "-I" + dir + "/include"};
  EXPECT_EQ(includeThroughFolders(dir + "/include/json/value.h", shadowed), "");
  EXPECT_EQ(includeThroughFolders(dir + "/src/json/value.h", shadowed), "<json/value.h>");
  // -iquote folders are searched only by quoted includes.
  EXPECT_EQ(includeThroughFolders(dir + "/src/config.h", {"-iquote" + dir + "/src"}), "\"config.h\"");
}

TEST(Portable, TheMainHeadersFolderIsSearchedFirst) {
  // libplist's plist.c: its main header include/plist/plist.h, its private
  // src/plist.h. The suite's CMake file puts the main header's folder
  // first, where `<plist.h>` is the public one: 13 tests that needed the
  // private header's declarations did not compile.
  const std::string dir = fs::canonical(mosaic::test::makeTempDir("mosaic-portable")).string();
  for (const char *f : {"include/plist/plist.h", "src/plist.h"}) {
    fs::create_directories(fs::path(dir + "/" + f).parent_path());
    std::ofstream(dir + "/" + f) << "\n";
  }
  const std::vector<std::string> flags{"-I" + dir + "/src", "-I" + dir + "/include", "-I" + dir};
  const std::vector<std::string> first{dir + "/include/plist"};
  EXPECT_EQ(includeThroughFolders(dir + "/src/plist.h", flags), "<plist.h>"); // without it
  EXPECT_EQ(includeThroughFolders(dir + "/src/plist.h", flags, first), "<src/plist.h>");
  EXPECT_EQ(includeThroughFolders(dir + "/include/plist/plist.h", flags, first), "<plist/plist.h>");
}

TEST(Portable, AMergedSuiteNamesTheProjectFromItsNewFolder) {
  const ProjectPaths paths(placed("/w/calc", "/w/calc-build", "/scratch/shard-0/units/lib_a_c"));
  const std::string text = "project(x)\n" + paths.cmakeDefaults() + "add_library(y)\n";
  const std::string moved = relocateSuite(text, "/scratch/shard-0/units/lib_a_c", "/w/calc/mosaic/units/lib_a_c");
  EXPECT_NE(moved.find("set(MOSAIC_PROJECT_ROOT \"${CMAKE_CURRENT_SOURCE_DIR}/../../..\")"), std::string::npos) << moved;
  EXPECT_NE(moved.find("set(MOSAIC_BUILD_DIR \"${CMAKE_CURRENT_SOURCE_DIR}/../../../../calc-build\")"),
            std::string::npos)
      << moved;
  EXPECT_NE(moved.find("add_library(y)"), std::string::npos);
  EXPECT_EQ(relocateSuite("project(x)\n", "/a", "/b"), "project(x)\n"); // none to move
}

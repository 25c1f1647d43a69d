// A written suite is something a team commits: it names the project's
// files relative to the project (and its build folder), includes the
// unit's headers as the project's code does, links only the project's
// library code the unit needs, and builds and passes after the project,
// its build folder and the suite have all moved to another folder.
#include "common/TestSupport.h"
#include "driver/GitProject.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace mosaic::test;
namespace fs = std::filesystem;

namespace {

// TOP/calc: include/calc/calc.h, src/calc.c (calls src/helper.c, reads
// CALC_BASE from the build folder's generated config.h), tools/calc_tool.c
// and tests/test_calc.c (programs); TOP/calc-build: config.h and the
// compile database, outside the project as an out-of-tree build is.
void makeProject(const std::string &top) {
  const std::string calc = top + "/calc", build = top + "/calc-build";
  writeText(calc + "/include/calc/calc.h", "int calc_add(int a, int b);\nint calc_scaled(int x);\n");
  writeText(calc + "/src/helper.h", "int helper_scale(int x);\n");
  writeText(calc + "/src/helper.c", "#include \"helper.h\"\nint helper_scale(int x) { return x * 3; }\n");
  writeText(calc + "/src/calc.c", "#include <calc/calc.h>\n#include \"config.h\"\n#include \"helper.h\"\n"
                                  "int calc_add(int a, int b) {\n  if (a > 100) return -1;\n  return a + b;\n}\n"
                                  "int calc_scaled(int x) {\n  if (x == 7) return 0;\n  return helper_scale(x) + CALC_BASE;\n}\n");
  writeText(calc + "/tools/calc_tool.c", "#include <calc/calc.h>\nint main(void) { return calc_add(1, 2); }\n");
  writeText(calc + "/tests/test_calc.c", "#include <calc/calc.h>\nint main(void) { return calc_scaled(1) != 13; }\n");
  writeText(build + "/config.h", "#define CALC_BASE 10\n");
  nlohmann::json db = nlohmann::json::array();
  for (const char *f : {"src/calc.c", "src/helper.c", "tools/calc_tool.c", "tests/test_calc.c"})
    db.push_back({{"directory", calc},
                  {"file", f},
                  {"arguments", {"cc", "-Iinclude", "-Isrc", "-I../calc-build", "-DCALC_API=1", "-c", f}}});
  writeText(build + "/compile_commands.json", db.dump(2));
}

// Every file of the folder (not its build trees) that names `text`.
std::vector<std::string> filesNaming(const std::string &dir, const std::string &text) {
  std::vector<std::string> out;
  for (const auto &e : fs::directory_iterator(dir))
    if (e.is_regular_file() && readFile(e.path().string()).find(text) != std::string::npos)
      out.push_back(e.path().filename().string());
  return out;
}

} // namespace

TEST(PortableSuiteCli, BuildsAndPassesAfterTheProjectAndTheSuiteMoved) {
  const std::string top = makeTempDir("mosaic-portable");
  makeProject(top);
  const std::string suite = top + "/calc/mosaic-tests";
  auto r = runProcess({MOSAIC_EXE, "generate", "-p", top + "/calc-build", top + "/calc/src/calc.c", "-o", suite,
                       "--max-executions", "800", "--budget", "60s", "--seed", "1", "--work-dir", top + "/work",
                       "--no-progress", "--no-coverage"});
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("removed 0"), std::string::npos) << r.out;

  const std::string cmake = readFile(suite + "/CMakeLists.txt");
  // Only the library code the unit calls is built beside it: not the
  // project's tool and test programs.
  EXPECT_NE(cmake.find("\"${MOSAIC_PROJECT_ROOT}/src/helper.c\""), std::string::npos) << cmake;
  EXPECT_EQ(cmake.find("calc_tool.c"), std::string::npos) << cmake;
  EXPECT_EQ(cmake.find("test_calc.c"), std::string::npos) << cmake;
  EXPECT_NE(cmake.find("-I${MOSAIC_PROJECT_ROOT}/include"), std::string::npos) << cmake;
  EXPECT_NE(cmake.find("-I${MOSAIC_BUILD_DIR}"), std::string::npos) << cmake;
  EXPECT_NE(cmake.find("set(MOSAIC_PROJECT_ROOT \"${CMAKE_CURRENT_SOURCE_DIR}/..\")"), std::string::npos) << cmake;
  EXPECT_NE(cmake.find("set(MOSAIC_BUILD_DIR \"${CMAKE_CURRENT_SOURCE_DIR}/../../calc-build\")"), std::string::npos)
      << cmake;
  // The header as the project's code includes it.
  const std::string tests = readFile(suite + "/calc_test.cpp");
  EXPECT_NE(tests.find("#include <calc/calc.h>"), std::string::npos) << tests;
  // No file of the suite names the folder it was written in.
  fs::remove_all(suite + "/build");
  fs::remove_all(suite + "/build-coverage");
  EXPECT_EQ(filesNaming(suite, top), std::vector<std::string>{}) << cmake;

  // Everything moves; the suite builds and passes where it now is.
  const std::string moved = top + "-moved";
  fs::rename(top, moved);
  const std::string there = moved + "/calc/mosaic-tests";
  ASSERT_NO_FATAL_FAILURE(buildWithCMake(there, there + "/build"));
  auto ctest = runProcess({"ctest", "--test-dir", there + "/build", "--output-on-failure"});
  EXPECT_EQ(ctest.exitCode, 0) << ctest.out;
  EXPECT_NE(ctest.out.find("100% tests passed"), std::string::npos) << ctest.out;
  fs::remove_all(moved);
}

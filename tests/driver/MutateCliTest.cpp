// `mosaic mutate` end to end on a small CMake project with plain test
// programs: the exact mutants killed, survived and not covered.
#include "common/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace mosaic::test;
namespace fs = std::filesystem;

TEST(MutateCli, KillsWhatTheTestsCheckAndLeavesOutWhatTheyNeverReach) {
  const std::string fixture = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/mutate";
  const fs::path work = fs::path(MOSAIC_BINARY_DIR) / "mutate-cli";
  fs::remove_all(work);
  const std::string json = (work / "mutants.json").string();
  fs::create_directories(work);
  auto r = runProcess({MOSAIC_EXE, "mutate", "-p", fixture, fixture + "/calc.c", "--suite", fixture, "--mutants", "0",
                       "--json", json, "--work-dir", work.string()});
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  // add's four AOR mutants all change add(2, 3); of x < 10's seven, <=, !=
  // and true answer 3 as < does; twice's four are never run (calc_broken,
  // the only test that calls it, fails on the original and is left out).
  EXPECT_EQ(j["sampled"], 15);
  EXPECT_EQ(j["total"]["killed"], 8);
  EXPECT_EQ(j["total"]["survived"], 3);
  EXPECT_EQ(j["total"]["not_covered"], 4);
  EXPECT_EQ(j["by_operator"]["AOR"]["killed"], 4);
  EXPECT_EQ(j["failing_on_original"], nlohmann::json::array({"calc_broken"}));
  for (const auto &m : j["mutants"])
    if (m["fate"] == "survived") EXPECT_EQ(m["line"], 4) << m.dump();
  EXPECT_NE(r.out.find("score        53.3%: 8 killed, 3 survived, 4 not covered"), std::string::npos) << r.out;
}

TEST(MutateCli, TwoSuitesOfOneUnitShareAWorkFolder) {
  // A second suite of the same unit (a project in another folder that
  // builds the first one) builds in a folder of its own: CMake ties a build
  // folder to one source folder (mutate once failed on the second of two
  // suites so).
  const std::string fixture = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/mutate";
  const fs::path work = fs::path(MOSAIC_BINARY_DIR) / "mutate-cli-two";
  fs::remove_all(work);
  const fs::path copy = work / "copy";
  fs::create_directories(copy);
  std::ofstream(copy / "CMakeLists.txt") << "cmake_minimum_required(VERSION 3.16)\nproject(again C)\nenable_testing()\n"
                                         << "add_subdirectory(\"" << fixture << "\" fixture)\n";
  for (const std::string &suite : {fixture, copy.string()}) {
    auto r = runProcess({MOSAIC_EXE, "mutate", "-p", fixture, fixture + "/calc.c", "--suite", suite, "--mutants", "0",
                         "--work-dir", (work / "work").string()});
    EXPECT_EQ(r.exitCode, 0) << suite << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("8 killed, 3 survived, 4 not covered"), std::string::npos) << r.out;
  }
}

TEST(MutateCli, RunsASuiteAnotherBuildSystemBuildsThroughItsTestCommand) {
  // The fixture's Makefile builds calc_test with $(CC): mosaic copies the
  // folder, builds the copy with its compilers and runs `make check` once
  // per mutant. calc_test alone is calc_broken-free CTest's run: the same
  // fates. The fixture folder itself gets no object file.
  const std::string fixture = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/mutate";
  const fs::path work = fs::path(MOSAIC_BINARY_DIR) / "mutate-cli-make";
  fs::remove_all(work);
  const std::string json = (work / "mutants.json").string();
  fs::create_directories(work);
  auto r = runProcess({MOSAIC_EXE, "mutate", "-p", fixture, fixture + "/calc.c", "--suite", fixture, "--test",
                       "make check", "--mutants", "0", "--json", json, "--work-dir", work.string()});
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("8 killed, 3 survived, 4 not covered"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(fixture + "/calc.o"));
  EXPECT_FALSE(fs::exists(fixture + "/calc_test"));
  // A command that fails on the original is an error, not a score.
  auto broken = runProcess({MOSAIC_EXE, "mutate", "-p", fixture, fixture + "/calc.c", "--suite", fixture, "--test",
                            "false", "--work-dir", work.string()});
  EXPECT_EQ(broken.exitCode, 2) << broken.out << broken.err;
  EXPECT_NE(broken.err.find("fail on the original"), std::string::npos) << broken.err;
}

TEST(MutateCli, BuildsAProjectThatMakesWarningsErrorsAndTestsOnlyWhenAskedTwice) {
  // A project whose own compiler flags make a warning Clang gives an error
  // (json-c's -Werror with -Wstrict-prototypes), and that adds its tests
  // only when a cache entry asks (pugixml's PUGIXML_BUILD_TESTS): built
  // with -Wno-error last and --define, and a second run on the same work
  // folder finds the build up to date and still knows the mutants (mutate
  // once removed their description and then had nothing rebuild it).
  const std::string fixture = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/mutate";
  const fs::path work = fs::path(MOSAIC_BINARY_DIR) / "mutate-cli-strict";
  fs::remove_all(work);
  const fs::path project = work / "project";
  fs::create_directories(project);
  for (const char *f : {"calc.c", "calc_test.c"}) fs::copy_file(fixture + "/" + f, project / f);
  std::ofstream(project / "legacy.c") << "int legacy() { return 1; }\n";
  std::ofstream(project / "CMakeLists.txt")
      << "cmake_minimum_required(VERSION 3.16)\nproject(strict C)\n"
      << "add_compile_options(-Werror -Wstrict-prototypes)\n"
      << "add_library(calc STATIC calc.c legacy.c)\n"
      << "option(STRICT_TESTS \"build the tests\" OFF)\n"
      << "if(STRICT_TESTS)\n  enable_testing()\n  add_executable(calc_test calc_test.c)\n"
      << "  target_link_libraries(calc_test calc)\n  add_test(NAME calc_test COMMAND calc_test)\nendif()\n";
  const std::vector<std::string> argv{MOSAIC_EXE,  "mutate", "-p", fixture, (project / "calc.c").string(), "--suite",
                                      project.string(), "--mutants", "0", "--work-dir", (work / "work").string()};
  auto without = runProcess(argv);
  EXPECT_EQ(without.exitCode, 2) << without.out << without.err;
  EXPECT_NE(without.err.find("did not run"), std::string::npos) << without.err;
  std::vector<std::string> asked = argv;
  asked.insert(asked.end(), {"--define", "STRICT_TESTS=ON"});
  for (int run = 0; run < 2; ++run) {
    auto r = runProcess(asked);
    ASSERT_EQ(r.exitCode, 0) << "run " << run << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("8 killed, 3 survived, 4 not covered"), std::string::npos) << r.out;
  }
}

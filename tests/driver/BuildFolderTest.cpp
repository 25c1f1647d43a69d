// A second build folder of a written suite configured beside the first:
// seeded with its compiler detection, and afresh when the seed does not take.
#include "BuildFolder.h"
#include "common/TestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace mosaic::test;
using mosaic::driver::configureBeside;

namespace {

namespace fs = std::filesystem;

// A C project with an option, as a written suite's CMakeLists.txt has.
std::string makeProject(const std::string &top) {
  const std::string source = top + "/src";
  fs::create_directories(source);
  std::ofstream(source + "/CMakeLists.txt") << "cmake_minimum_required(VERSION 3.16)\n"
                                               "project(seeded LANGUAGES C)\n"
                                               "option(FLAVOUR \"a second build\" OFF)\n"
                                               "if(FLAVOUR)\n  add_compile_definitions(FLAVOUR=1)\nendif()\n"
                                               "add_executable(hello hello.c)\n";
  std::ofstream(source + "/hello.c") << "int main(void) {\n#ifdef FLAVOUR\n  return 3;\n#else\n  return 0;\n#endif\n}\n";
  return source;
}

std::string cacheOf(const std::string &folder) { return readFile(folder + "/CMakeCache.txt"); }

} // namespace

TEST(BuildFolder, ASecondFolderTakesTheFirstsCompilersWithoutDetectingThemAndBuildsItsOwnFlavour) {
  const std::string top = makeTempDir("mosaic-buildfolder");
  const std::string source = makeProject(top);
  auto first = mosaic::runProcess({"cmake", "-S", source, "-B", top + "/build", "-G", "Ninja",
                                   "-DCMAKE_C_COMPILER=clang-19"});
  ASSERT_TRUE(first && first->exitCode == 0) << (first ? first->output : first.error().message);
  ASSERT_NE(first->output.find("Detecting C compiler ABI info"), std::string::npos) << first->output;

  auto second = configureBeside(source, top + "/build", top + "/build-flavour",
                                {"-DFLAVOUR=ON", "-DCMAKE_C_COMPILER=clang-19"});
  ASSERT_TRUE(second && second->exitCode == 0) << (second ? second->output : second.error().message);
  EXPECT_EQ(second->output.find("Detecting C compiler ABI info"), std::string::npos) << second->output;
  const std::string cache = cacheOf(top + "/build-flavour");
  EXPECT_NE(cache.find("CMAKE_CACHEFILE_DIR:INTERNAL=" + top + "/build-flavour\n"), std::string::npos) << cache;
  EXPECT_NE(cache.find("FLAVOUR:BOOL=ON"), std::string::npos) << cache;
  // The first folder is untouched, and each builds its own program.
  EXPECT_NE(cacheOf(top + "/build").find("FLAVOUR:BOOL=OFF"), std::string::npos);
  for (const auto &[folder, code] : {std::pair{top + "/build", 0}, std::pair{top + "/build-flavour", 3}}) {
    auto b = mosaic::runProcess({"cmake", "--build", folder});
    ASSERT_TRUE(b && b->exitCode == 0) << (b ? b->output : b.error().message);
    auto r = mosaic::runProcess({folder + "/hello"});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->exitCode, code) << folder;
  }
  fs::remove_all(top);
}

TEST(BuildFolder, ASeedThatDoesNotTakeIsConfiguredAfresh) {
  // The "configured" folder's cache belongs to another source folder: CMake
  // refuses the seeded cache, and the folder is configured from scratch.
  const std::string top = makeTempDir("mosaic-buildfolder");
  const std::string source = makeProject(top);
  const std::string other = makeProject(top + "/other");
  auto first = mosaic::runProcess({"cmake", "-S", other, "-B", top + "/build", "-G", "Ninja",
                                   "-DCMAKE_C_COMPILER=clang-19"});
  ASSERT_TRUE(first && first->exitCode == 0) << (first ? first->output : first.error().message);
  auto second = configureBeside(source, top + "/build", top + "/build-flavour",
                                {"-DFLAVOUR=ON", "-DCMAKE_C_COMPILER=clang-19"});
  ASSERT_TRUE(second && second->exitCode == 0) << (second ? second->output : second.error().message);
  EXPECT_NE(second->output.find("Detecting C compiler ABI info"), std::string::npos) << second->output;
  EXPECT_NE(cacheOf(top + "/build-flavour").find("CMAKE_HOME_DIRECTORY:INTERNAL=" + source + "\n"), std::string::npos);
  fs::remove_all(top);
}

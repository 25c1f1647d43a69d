// A small C project with a git history, made in a fresh folder for the
// tests of `predict` and `project`: lib/parse.c (two functions, parse fixed
// twice), lib/util.c (one commit, including lib/util.h), tests/test_parse.c,
// and a compile database for the three sources in build/.
#pragma once

#include "common/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace mosaic::test {


// Runs git in `dir` with a fixed author and time (seconds after 2020-09-13).
inline void git(const std::string &dir, const std::string &args, long time = 0) {
  const std::string date = "@" + std::to_string(1600000000 + time) + " +0000";
  const std::string env = "GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@x GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@x "
                          "GIT_CONFIG_NOSYSTEM=1 HOME=" + dir + " GIT_AUTHOR_DATE='" + date + "' GIT_COMMITTER_DATE='" +
                          date + "' ";
  ASSERT_EQ(std::system((env + "git -C " + dir + " " + args + " >/dev/null 2>&1").c_str()), 0) << args;
}

inline void writeText(const std::string &path, const std::string &text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

// lib/parse.c (two functions, one of them fixed twice), lib/util.c (one
// old commit), tests/test_parse.c; a compile database for all three.
inline std::string makeGitProject(bool withGit) {
  const std::string dir = makeTempDir("mosaic-predict-cli");
  const std::string parseV1 = "int parse(const char *s) {\n  return s[0];\n}\n\nint count(int n) {\n  return n;\n}\n";
  writeText(dir + "/lib/parse.c", parseV1);
  writeText(dir + "/lib/util.h", "#define FACTOR 2\n");
  writeText(dir + "/lib/util.c", "#include \"util.h\"\nint twice(int x) { return FACTOR * x; }\n");
  writeText(dir + "/tests/test_parse.c", "int parse(const char *);\nint main(void) { return parse(\"a\"); }\n");
  nlohmann::json db = nlohmann::json::array();
  for (const char *f : {"lib/parse.c", "lib/util.c", "tests/test_parse.c"})
    db.push_back({{"directory", dir}, {"file", f}, {"arguments", {"cc", "-c", f}}});
  writeText(dir + "/build/compile_commands.json", db.dump(2));
  if (!withGit) return dir;
  git(dir, "init -q -b main");
  git(dir, "add -A", 100);
  git(dir, "commit -q -m 'first version'", 100);
  writeText(dir + "/lib/parse.c", "int parse(const char *s) {\n  return s ? s[0] : 0;\n}\n\nint count(int n) {\n  return n;\n}\n");
  git(dir, "commit -q -am 'Fix a null dereference in parse'", 200);
  writeText(dir + "/lib/parse.c", "int parse(const char *s) {\n  return s && *s ? s[0] : -1;\n}\n\nint count(int n) {\n  return n;\n}\n");
  git(dir, "commit -q -am 'parse: fix the empty string'", 300);
  return dir;
}


// Configures `source` with CMake (Ninja) into `build` and builds it; a
// fatal failure when either fails (callers wrap it in ASSERT_NO_FATAL_FAILURE).
inline void buildWithCMake(const std::string &source, const std::string &build) {
  auto configure = runProcess({"cmake", "-S", source, "-B", build, "-G", "Ninja"});
  ASSERT_EQ(configure.exitCode, 0) << configure.out << configure.err;
  auto made = runProcess({"cmake", "--build", build});
  ASSERT_EQ(made.exitCode, 0) << made.out << made.err;
}

} // namespace mosaic::test

// Helpers for the tests on real Debian source packages (label "online").
#pragma once

#include "common/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>

namespace mosaic::test {

/// DEST/NAME as scripts/fetch-subject.sh left it (the CTest fixture
/// subject.NAME.fetch runs it first); skips the test when it is not there.
inline std::string subjectDir(const std::string &name) {
  return std::string(MOSAIC_SUBJECTS_DIR) + "/" + name;
}

inline bool subjectReady(const std::string &name) {
  return std::filesystem::exists(subjectDir(name) + "/.ready");
}

/// `mosaic analyze --json` on a unit of a subject, parsed.
inline nlohmann::json analyzeSubject(const std::string &name, const std::string &unit) {
  const std::string out = makeTempDir("mosaic-subject") + "/model.json";
  auto r = runProcess({MOSAIC_EXE, "analyze", "-p", subjectDir(name) + "/build", subjectDir(name) + "/src/" + unit,
                       "--json", out});
  if (r.exitCode != 0) throw std::runtime_error("mosaic analyze failed (" + std::to_string(r.exitCode) + "): " + r.err);
  return nlohmann::json::parse(readFile(out));
}

/// mosaic's summary lines (not the indented failure listings): CI shows
/// only the head of a failing test's output, and the failure must be in it.
inline void printSummary(const std::string &out) {
  std::istringstream lines(out);
  for (std::string l; std::getline(lines, l);)
    if (!l.empty() && l[0] != ' ') std::cout << l << "\n";
}

/// `mosaic run --random` on a unit of a subject for `executions` tests (a
/// count, not a time: a loaded machine runs the same tests, only slower;
/// the 300 s budget only stops a hang); its --json statistics. Fails the
/// calling test when mosaic does not finish with 0 or 1.
inline nlohmann::json runSubject(const std::string &name, const std::string &unit, int executions) {
  const std::string dir = makeTempDir("mosaic-subject-run");
  auto r = runProcess({MOSAIC_EXE, "run", "-p", subjectDir(name) + "/build", subjectDir(name) + "/src/" + unit,
                       "--random", "--max-executions", std::to_string(executions), "--budget", "300s", "--seed", "1",
                       "--no-progress",
                       "--work-dir", subjectDir(name) + "/mosaic", "--json", dir + "/run.json"});
  if (r.exitCode != 0 && r.exitCode != 1)
    throw std::runtime_error("mosaic run failed (" + std::to_string(r.exitCode) + "): " + r.err + r.out);
  printSummary(r.out);
  return nlohmann::json::parse(readFile(dir + "/run.json"));
}

/// `mosaic generate` on a unit of a subject for `executions` test
/// executions of search (an execution budget, not a time budget, so that the
/// suite is the same on a slow CI machine as here; `--budget` is only a
/// ceiling); its --json statistics. The suite is built, run 5 times and measured with
/// llvm-cov by mosaic itself. Fails the calling test when mosaic does not
/// finish with 0 or 1 (1: the failing suite is not empty).
inline nlohmann::json generateSubject(const std::string &name, const std::string &unit, int executions) {
  const std::string dir = makeTempDir("mosaic-subject-generate");
  auto r = runProcess({MOSAIC_EXE, "generate", "-p", subjectDir(name) + "/build", subjectDir(name) + "/src/" + unit,
                       "-o", dir + "/suite", "--max-executions", std::to_string(executions), "--budget", "300s", "--seed",
                       "1", "--no-progress",
                       "--work-dir", subjectDir(name) + "/mosaic", "--json", dir + "/generate.json"});
  if (r.exitCode != 0 && r.exitCode != 1)
    throw std::runtime_error("mosaic generate failed (" + std::to_string(r.exitCode) + "): " + r.err + r.out);
  printSummary(r.out);
  // Why tests were removed (not compiling, failing or slow in the
  // suite), if any were: a CI log then says what went wrong.
  std::istringstream err(r.err);
  for (std::string l; std::getline(err, l);)
    if (l.find(": error:") != std::string::npos || l.find("removed") != std::string::npos) std::cout << l << "\n";
  return nlohmann::json::parse(readFile(dir + "/generate.json"));
}

/// The search and the writer on real code: every test written compiles
/// with no hand edits (no type spelled wrong, no ambiguous overload), at
/// most 5% fail or flake and are removed, the suite passes 5 runs, and
/// llvm-cov sees over half the unit's branches covered after 8,000
/// executions (cJSON.c 73.5%, tinyxml2.cpp 58.1% at seed 1; 3,000 executions
/// leave tinyxml2.cpp at 44.5%, which is what a 10 s budget gave on CI).
inline void expectGeneratedSuiteCompilesPassesAndCovers(const std::string &name, const std::string &unit) {
  const nlohmann::json j = generateSubject(name, unit, 8000);
  const nlohmann::json &t = j["tests"];
  ASSERT_TRUE(t["verified"].get<bool>()) << j.dump(2);
  EXPECT_GT(t["written"].get<int>(), 20);
  EXPECT_EQ(t["compiled"], t["written"]) << t.dump(2);
  EXPECT_LE(t["removed"].get<int>(), t["written"].get<int>() / 20) << t.dump(2);
  const nlohmann::json &cov = j["llvm_cov"];
  EXPECT_GT(cov["branches_covered"].get<double>(), 0.5 * cov["branches"].get<double>()) << cov.dump(2);
}

/// Removes C and C++ comments (string literals are not special-cased: the
/// headers read here have no comment markers inside strings).
inline std::string stripComments(const std::string &text) {
  static const std::regex kBlock(R"(/\*[\s\S]*?\*/)"), kLine(R"(//[^\n]*)");
  return std::regex_replace(std::regex_replace(text, kBlock, " "), kLine, " ");
}

/// A type as text without any spaces: "const char * const" -> "constchar*const".
inline std::string squeeze(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
  return s;
}

} // namespace mosaic::test

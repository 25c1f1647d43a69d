// A project's files from its compile database (ProjectFiles.h).
#include "ProjectFiles.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace mosaic::driver {

namespace fs = std::filesystem;

Expected<std::vector<std::string>> databaseFiles(const std::string &buildDir) {
  const fs::path db = fs::path(buildDir).extension() == ".json" ? fs::path(buildDir)
                                                                : fs::path(buildDir) / "compile_commands.json";
  std::ifstream in(db);
  if (!in) return Error::input("no compile database: cannot read " + db.string());
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception &e) {
    return Error::input(db.string() + " is not JSON: " + e.what());
  }
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto &entry : j) {
    if (!entry.is_object() || !entry.contains("file")) continue;
    const fs::path file = fs::path(entry.value("directory", "")) / entry.value("file", "");
    const std::string canonical = fs::weakly_canonical(file, ec).string();
    if (std::find(out.begin(), out.end(), canonical) == out.end()) out.push_back(canonical);
  }
  return out;
}

std::string commonFolder(const std::vector<std::string> &files) {
  if (files.empty()) return "";
  fs::path common = fs::path(files.front()).parent_path();
  for (const std::string &f : files) {
    const fs::path p = fs::path(f).parent_path();
    while (!common.empty() && common != common.root_path()) {
      const auto rel = p.lexically_relative(common);
      if (!rel.empty() && *rel.begin() != "..") break;
      common = common.parent_path();
    }
  }
  return common.string();
}

std::string projectRoot(const std::vector<std::string> &files, const std::vector<std::string> &flags,
                        const std::string &buildDir) {
  const std::string common = commonFolder(files);
  if (common.empty()) return "";
  std::error_code ec;
  for (fs::path at = common; !at.empty(); at = at.parent_path()) {
    if (fs::exists(at / ".git", ec)) return at.string();
    if (at == at.root_path()) break;
  }
  std::vector<std::string> folders = files;
  const fs::path build = fs::path(buildDir).lexically_normal();
  for (const std::string &f : flags)
    for (const char *p : {"-isystem", "-iquote", "-I"}) {
      const std::string prefix = p;
      if (f.size() <= prefix.size() || f.rfind(prefix, 0) != 0 || f[prefix.size()] != '/') continue;
      const std::string dir = f.substr(prefix.size());
      const auto inBuild = fs::path(dir).lexically_normal().lexically_relative(build);
      const bool system = dir.rfind("/usr/", 0) == 0 || dir.rfind("/opt/", 0) == 0;
      if (!system && (buildDir.empty() || inBuild.empty() || *inBuild.begin() == ".."))
        folders.push_back((fs::path(dir) / "header").string()); // commonFolder takes files' folders
      break;
    }
  const std::string wider = commonFolder(folders);
  return wider.empty() || wider == "/" ? common : wider;
}

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Folder names of what is not library code, and what each is. Ours, from
// the layouts of the benchmark's subjects and common practice (test/,
// tests/, fuzzing/, examples/, benchmark/, tools/, doc/).
const char *folderKind(const std::string &name) {
  static const std::pair<const char *, const char *> kinds[] = {
      {"test", "tests"},         {"tests", "tests"},          {"testing", "tests"},     {"unittest", "tests"},
      {"unittests", "tests"},    {"unit_tests", "tests"},     {"testsuite", "tests"},   {"t", "tests"},
      {"fuzz", "fuzz harnesses"}, {"fuzzing", "fuzz harnesses"}, {"fuzzer", "fuzz harnesses"},
      {"fuzzers", "fuzz harnesses"}, {"oss-fuzz", "fuzz harnesses"},
      {"example", "examples"},   {"examples", "examples"},    {"sample", "examples"},   {"samples", "examples"},
      {"demo", "examples"},      {"demos", "examples"},       {"bench", "benchmarks"},  {"benchmark", "benchmarks"},
      {"benchmarks", "benchmarks"}, {"perf", "benchmarks"},   {"tool", "tools"},        {"tools", "tools"},
      {"programs", "tools"},     {"apps", "tools"},           {"utils", "tools"},       {"doc", "documentation"},
      {"docs", "documentation"}, {"contrib", "contributions"}, {"third_party", "vendored code"},
      {"thirdparty", "vendored code"}, {"vendor", "vendored code"}, {"external", "vendored code"},
      {"xmlwf", "tools"}, // expat's command-line tool
  };
  const std::string n = lower(name);
  for (const auto &[folder, kind] : kinds)
    if (n == folder) return kind;
  return nullptr;
}

} // namespace

std::string notLibraryCode(const std::string &file, const std::string &root) {
  fs::path rel = fs::path(file).lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") rel = fs::path(file).filename();
  for (auto it = rel.begin(); it != rel.end(); ++it) {
    if (std::next(it) == rel.end()) break; // the file name, below
    if (const char *kind = folderKind(it->string()))
      return rel.generic_string() + " is under " + it->string() + "/ (" + kind + ")";
  }
  const std::string stem = lower(rel.stem().string());
  for (const char *word : {"test", "fuzz", "bench", "example", "demo"}) {
    const std::string w = word;
    // A word of the name: test, test_x, x_test, x-fuzzer (not latest.c).
    if (stem == w || stem.rfind(w + "_", 0) == 0 || stem.rfind(w + "-", 0) == 0 ||
        stem.find("_" + w) != std::string::npos || stem.find("-" + w) != std::string::npos)
      return rel.generic_string() + " is named as " + (w == "test" ? std::string("a test") : "a " + w + " program");
  }
  return "";
}

} // namespace mosaic::driver

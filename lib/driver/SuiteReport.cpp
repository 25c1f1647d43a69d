// Compiler output and GoogleTest reports, mapped to the suite's tests (SuiteReport.h).
#include "SuiteReport.h"
#include "DeathCause.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

namespace mosaic::driver {

namespace fs = std::filesystem;

namespace {

std::vector<std::pair<std::string, double>> slowTests(const nlohmann::json &j, double seconds) {
  std::vector<std::pair<std::string, double>> out;
  for (const auto &ts : j.value("testsuites", nlohmann::json::array()))
    for (const auto &t : ts.value("testsuite", nlohmann::json::array())) {
      if (t.contains("failures") || !t.contains("time") || !t["time"].is_string()) continue;
      // GoogleTest writes "71.393s".
      const std::string time = t["time"].get<std::string>();
      char *end = nullptr;
      const double s = std::strtod(time.c_str(), &end);
      if (end != time.c_str() && s > seconds) out.emplace_back(ts.value("name", "") + "." + t.value("name", ""), s);
    }
  return out;
}

} // namespace

// The GoogleTest name of test `index` of the passing or failing suite.
std::string testName(const emit::Suite &suite, bool failing, size_t index) {
  for (const auto &[name, site] : suite.tests)
    if (site.failing == failing && site.test == index) return name;
  return "?";
}

// "file:line:col: error:" lines of the compiler mapped to tests.
bool compileFindings(const emit::Suite &suite, const std::string &output, Findings &f) {
  static const std::regex error(R"(([^\s:]+):(\d+):\d+: error:)");
  bool mapped = false;
  for (std::sregex_iterator it(output.begin(), output.end(), error), end; it != end; ++it) {
    const std::string file = fs::path((*it)[1].str()).filename().string();
    auto sites = suite.sites.find(file);
    if (sites == suite.sites.end()) continue;
    const int line = std::stoi((*it)[2].str());
    // The test the line belongs to: the nearest site at or above it.
    auto s = sites->second.upper_bound(line);
    if (s == sites->second.begin()) continue;
    --s;
    f.removeTests.insert({s->second.failing, s->second.test});
    // The first error names the cause; the rest usually follow from it.
    const size_t eol = output.find('\n', static_cast<size_t>(it->position(0)));
    f.compileErrors.emplace(std::make_pair(s->second.failing, s->second.test),
                            output.substr(static_cast<size_t>(it->position(0)),
                                          eol == std::string::npos ? std::string::npos
                                                                   : eol - static_cast<size_t>(it->position(0))));
    mapped = true;
  }
  return mapped;
}

std::string firstErrorInProjectHeaders(const emit::Suite &suite, const std::string &output,
                                       const std::vector<std::string> &projectFolders) {
  static const std::regex error(R"(([^\s:]+):\d+:\d+: error:[^\n]*)");
  for (std::sregex_iterator it(output.begin(), output.end(), error), end; it != end; ++it) {
    const fs::path path = (*it)[1].str();
    if (std::any_of(suite.files.begin(), suite.files.end(),
                    [&](const emit::File &f) { return f.name == path.filename().string(); }))
      continue;
    std::error_code ec;
    const std::string file = fs::weakly_canonical(path, ec).string();
    for (const std::string &folder : projectFolders)
      if (!folder.empty() && file.starts_with(folder + "/")) return (*it)[0].str();
  }
  return "";
}

std::vector<std::pair<std::string, double>> slowTests(const std::string &report, double seconds) {
  try {
    return slowTests(nlohmann::json::parse(report), seconds);
  } catch (const std::exception &) {
    return {};
  }
}

bool runFindings(const emit::Suite &suite, const std::string &report, const ProcessResult &r, bool failingSuite,
                 Findings &f, double slowSeconds) {
  nlohmann::json j;
  bool parsed = false;
  if (!report.empty()) {
    try {
      j = nlohmann::json::parse(report);
      parsed = true;
    } catch (const std::exception &) {
    }
  }
  if (!parsed) {
    // The binary died: the test that was running when it did (named in
    // the output: runSuiteBinary), and those that ran before it.
    std::string last;
    std::vector<std::string> ran;
    bool started = false;
    std::istringstream lines(r.output);
    for (std::string l; std::getline(lines, l);) {
      if (l.rfind("[ RUN      ] ", 0) == 0) last = l.substr(13), started = true, ran.push_back(last);
      if (l.rfind("[       OK ] ", 0) == 0 || l.rfind("[  FAILED  ] ", 0) == 0) last.clear();
    }
    if (auto it = suite.tests.find(last); it != suite.tests.end()) {
      if (failingSuite) f.disable.insert(it->second.test);
      else {
        f.died = last;
        f.diedAfter.assign(ran.begin(), ran.end() - 1);
        f.diedHow = howItDied(r);
      }
    }
    return started;
  }
  if (!failingSuite && slowSeconds > 0)
    for (const auto &[name, seconds] : slowTests(j, slowSeconds))
      if (auto it = suite.tests.find(name); it != suite.tests.end() && !it->second.failing) {
        f.removeTests.insert({false, it->second.test});
        f.runErrors[it->second.test] =
            fmt::format("took {:.1f} s in the suite, over {} s: slow only outside mosaic's sandbox (its memory limit?)",
                        seconds, slowSeconds);
      }
  static const std::regex where(R"(([^\s:]+):(\d+))");
  for (const auto &ts : j.value("testsuites", nlohmann::json::array())) {
    for (const auto &t : ts.value("testsuite", nlohmann::json::array())) {
      if (!t.contains("failures")) continue;
      const std::string name = ts.value("name", "") + "." + t.value("name", "");
      auto it = suite.tests.find(name);
      if (it == suite.tests.end()) continue;
      if (failingSuite) {
        f.disable.insert(it->second.test);
        continue;
      }
      bool onAssertion = true;
      std::vector<int> observations;
      for (const auto &failure : t["failures"]) {
        const std::string text = failure.value("failure", "");
        std::smatch m;
        int observation = -1;
        if (std::regex_search(text, m, where)) {
          const std::string file = fs::path(m[1].str()).filename().string();
          auto sites = suite.sites.find(file);
          if (sites != suite.sites.end())
            if (auto s = sites->second.find(std::stoi(m[2].str())); s != sites->second.end())
              observation = s->second.observation;
        }
        if (observation < 0) onAssertion = false;
        else observations.push_back(observation);
      }
      if (!onAssertion) {
        f.removeTests.insert({false, it->second.test});
        const std::string text = t["failures"].empty() ? std::string() : t["failures"][0].value("failure", "");
        std::string brief = text.substr(0, 300); // ours: the failure's first lines, for the log
        std::replace(brief.begin(), brief.end(), '\n', ' ');
        f.runErrors[it->second.test] = brief;
      } else
        for (int o : observations) f.dropAssertions.insert({it->second.test, o});
    }
  }
  return true;
}

} // namespace mosaic::driver

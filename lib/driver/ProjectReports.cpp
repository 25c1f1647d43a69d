// JUnit XML of a project's verification runs (ProjectReports.h).
#include "ProjectReports.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

namespace mosaic::driver {

namespace fs = std::filesystem;

std::string xmlEscape(const std::string &text) {
  std::string out;
  for (unsigned char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&apos;"; break;
    default: out += (c < 0x20 && c != '\t' && c != '\n' && c != '\r') ? '?' : static_cast<char>(c);
    }
  }
  return out;
}

namespace {

nlohmann::json readJson(const fs::path &p) {
  std::ifstream in(p);
  if (!in) return nullptr;
  try {
    return nlohmann::json::parse(in);
  } catch (const std::exception &) {
    return nullptr;
  }
}

// GoogleTest writes "0.012s".
double seconds(const nlohmann::json &t) {
  const std::string s = t.value("time", "0s");
  return std::strtod(s.c_str(), nullptr);
}

// The newest passing-suite report: run-N.json with the largest N.
fs::path lastRun(const fs::path &build) {
  static const std::regex run(R"(run-(\d+)\.json)");
  fs::path best;
  int bestN = -1;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(build, ec)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (std::regex_match(name, m, run) && std::stoi(m[1].str()) > bestN) bestN = std::stoi(m[1].str()), best = e.path();
  }
  return best;
}

} // namespace

std::size_t writeJUnit(const std::string &outDir, const std::vector<std::pair<std::string, std::string>> &units) {
  std::string suites;
  std::size_t tests = 0, failures = 0, skipped = 0;
  for (const auto &[id, relative] : units) {
    const fs::path build = fs::path(outDir) / "units" / id / "build";
    for (const auto &[kind, report] : {std::pair<std::string, fs::path>{"passing", lastRun(build)},
                                       std::pair<std::string, fs::path>{"failing", build / "failing.json"}}) {
      const nlohmann::json j = report.empty() ? nlohmann::json() : readJson(report);
      if (!j.is_object()) continue;
      std::string cases;
      std::size_t n = 0, failed = 0, off = 0;
      double total = 0;
      for (const auto &ts : j.value("testsuites", nlohmann::json::array()))
        for (const auto &t : ts.value("testsuite", nlohmann::json::array())) {
          ++n;
          total += seconds(t);
          std::string file = t.value("file", "");
          if (!file.empty()) file = fs::path(file).lexically_relative(outDir).generic_string();
          cases += fmt::format(R"(      <testcase classname="{}" name="{}" time="{:.3f}" file="{}" line="{}")",
                               xmlEscape(ts.value("name", "")), xmlEscape(t.value("name", "")), seconds(t),
                               xmlEscape(file), t.value("line", 0));
          if (t.contains("failures")) {
            ++failed;
            std::string message;
            for (const auto &f : t["failures"]) message += f.value("failure", "") + "\n";
            cases += fmt::format(">\n        <failure message=\"{}\">{}</failure>\n      </testcase>\n",
                                 xmlEscape(message.substr(0, message.find('\n'))), xmlEscape(message));
          } else if (t.value("result", "") == "SUPPRESSED" || t.value("status", "") == "NOTRUN") {
            ++off;
            cases += ">\n        <skipped/>\n      </testcase>\n";
          } else {
            cases += "/>\n";
          }
        }
      tests += n, failures += failed, skipped += off;
      suites += fmt::format("  <testsuite name=\"{} ({} suite)\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n{}"
                            "  </testsuite>\n",
                            xmlEscape(relative), kind, n, failed, off, total, cases);
    }
  }
  std::ofstream(fs::path(outDir) / "junit.xml")
      << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << fmt::format("<testsuites name=\"mosaic project\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n", tests,
                     failures, skipped)
      << suites << "</testsuites>\n";
  return tests;
}

} // namespace mosaic::driver

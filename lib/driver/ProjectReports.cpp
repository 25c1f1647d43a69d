// JUnit XML of a project's verification runs (ProjectReports.h).
#include "ProjectReports.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
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
          cases += fmt::format(R"(    <testcase classname="{}" name="{}" time="{:.3f}" file="{}" line="{}")",
                               xmlEscape(ts.value("name", "")), xmlEscape(t.value("name", "")), seconds(t),
                               xmlEscape(file), t.value("line", 0));
          if (t.contains("failures")) {
            ++failed;
            std::string message;
            for (const auto &f : t["failures"]) message += f.value("failure", "") + "\n";
            cases += fmt::format(">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                                 xmlEscape(message.substr(0, message.find('\n'))), xmlEscape(message));
          } else if (t.value("result", "") == "SUPPRESSED" || t.value("status", "") == "NOTRUN") {
            ++off;
            cases += ">\n      <skipped/>\n    </testcase>\n";
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

namespace {

// "suffix_object cJSON.c:1986": the function, the file as the stack names
// it, the line; the file made relative to the project (a bare name is
// looked for next to the unit, then anywhere the unit's folder leads).
struct Frame {
  std::string function, file;
  int line = 0;
};

std::optional<Frame> parseFrame(const std::string &text, const std::string &unitRelative, const fs::path &root) {
  const size_t space = text.rfind(' '), colon = text.rfind(':');
  if (space == std::string::npos || colon == std::string::npos || colon < space) return std::nullopt;
  Frame f{text.substr(0, space), text.substr(space + 1, colon - space - 1), std::atoi(text.c_str() + colon + 1)};
  if (f.line <= 0) return std::nullopt;
  std::error_code ec;
  fs::path file(f.file);
  if (file.is_absolute()) {
    const fs::path rel = file.lexically_relative(root);
    if (!rel.empty() && *rel.begin() != "..") f.file = rel.generic_string();
  } else if (file.filename() == fs::path(unitRelative).filename()) {
    f.file = unitRelative;
  } else if (const fs::path beside = fs::path(unitRelative).parent_path() / file; fs::exists(root / beside, ec)) {
    f.file = beside.generic_string();
  }
  return f;
}

nlohmann::json location(const Frame &f) {
  return {{"physicalLocation",
           {{"artifactLocation", {{"uri", f.file}, {"uriBaseId", "PROJECT_ROOT"}}}, {"region", {{"startLine", f.line}}}}}};
}

} // namespace

std::size_t writeSarif(const std::string &outDir, const std::string &projectRoot,
                       const std::vector<std::pair<std::string, std::string>> &units) {
  // One rule per class of finding; the outcome (crash, abort, sanitizer
  // report, uncaught exception, timeout) is in each result's properties.
  const nlohmann::json rules = nlohmann::json::array(
      {{{"id", "mosaic/defect"},
        {"name", "LikelyDefect"},
        {"shortDescription", {{"text", "A likely defect: the unit fails through its public API with values the API made"}}},
        {"defaultConfiguration", {{"level", "error"}}}},
       {{"id", "mosaic/robustness"},
        {"name", "Robustness"},
        {"shortDescription", {{"text", "The unit fails on input its API accepts but a caller could avoid"}}},
        {"defaultConfiguration", {{"level", "warning"}}}}});
  nlohmann::json results = nlohmann::json::array();
  const fs::path root(projectRoot);
  for (const auto &[id, relative] : units) {
    const nlohmann::json stats = readJson(fs::path(outDir) / "results" / (id + ".json"));
    if (!stats.is_object()) continue;
    for (const auto &f : stats.value("failures", nlohmann::json::array())) {
      const std::string kind = f.value("class", "");
      // Misuse is no finding, nor is what no re-run reproduced (not written either).
      if ((kind != "defect" && kind != "robustness") || !f.value("reproducible", true)) continue;
      std::vector<Frame> frames;
      for (const auto &text : f.value("stack", nlohmann::json::array()))
        if (text.is_string())
          if (auto frame = parseFrame(text.get<std::string>(), relative, root)) frames.push_back(*frame);
      nlohmann::json r = {
          {"ruleId", "mosaic/" + kind},
          {"level", kind == "defect" ? "error" : "warning"},
          {"message", {{"text", f.value("why", "") + " (" + f.value("site", "") + ")"}}},
          {"properties",
           {{"outcome", f.value("outcome", "")}, {"unit", relative}, {"sanitizerOnly", f.value("sanitizer_only", false)}}}};
      // Where a code-scanning view shows it: the innermost frame, or the
      // unit itself when the stack names none.
      r["locations"] = nlohmann::json::array({location(frames.empty() ? Frame{"", relative, 1} : frames.front())});
      if (!frames.empty()) {
        nlohmann::json stackFrames = nlohmann::json::array();
        for (const Frame &fr : frames) {
          nlohmann::json loc = location(fr);
          loc["message"] = {{"text", fr.function}};
          stackFrames.push_back({{"location", loc}});
        }
        r["stacks"] = nlohmann::json::array({{{"message", {{"text", "the stack at the failure"}}}, {"frames", stackFrames}}});
      }
      results.push_back(std::move(r));
    }
  }
  const nlohmann::json sarif = {
      {"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", nlohmann::json::array({{{"tool", {{"driver", {{"name", "mosaic"}, {"rules", rules}}}}},
                                       {"originalUriBaseIds", {{"PROJECT_ROOT", {{"uri", "file://" + root.string() + "/"}}}}},
                                       {"results", results}}})}};
  std::ofstream(fs::path(outDir) / "findings.sarif") << sarif.dump(2) << "\n";
  return results.size();
}

} // namespace mosaic::driver

// The HTML report of `mosaic project` (HtmlReport.h).
#include "HtmlReport.h"
#include "ProjectReports.h"

#include "mosaic/support/Text.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace mosaic::driver {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Ours: a plain page readable in any browser, printed or on a phone.
constexpr const char *kStyle = R"(<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.bar { display: inline-block; height: .7em; background: #4a8; vertical-align: middle; }
.barbg { display: inline-block; width: 6em; height: .7em; background: #e4e4e4; margin-right: .4em; }
.defect { color: #b00; font-weight: bold; } .robustness { color: #b60; } .misuse { color: #777; }
pre.src { font-size: .85em; line-height: 1.35; border: 1px solid #ddd; padding: .3em 0; overflow-x: auto; }
pre.src span { display: block; padding: 0 .6em; white-space: pre; }
pre.src .miss { background: #fdd; } pre.src .part { background: #ffe9b3; } pre.src .hit { background: #e6f6e6; }
pre.src i { color: #999; font-style: normal; display: inline-block; width: 4.5em; }
.legend span { padding: 0 .5em; margin-right: .5em; }
code { background: #f6f6f6; padding: 0 .2em; }
</style>)";

std::string page(const std::string &title, const std::string &body) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + xmlEscape(title) +
         "</title>\n" + kStyle + "</head>\n<body>\n" + body + "</body></html>\n";
}

std::string percent(double covered, double total) {
  if (total <= 0) return "&ndash;";
  const double p = 100.0 * covered / total;
  return fmt::format("<span class=\"barbg\"><span class=\"bar\" style=\"width:{:.0f}%\"></span></span>{:.1f}% "
                     "({:.0f}/{:.0f})",
                     p, p, covered, total);
}

// The goal's line in the unit's own file ("cJSON.c:221" or
// "cJSON.c:219:13 true (f)"), or 0.
int lineOf(const std::string &label, const std::string &fileName) {
  if (label.rfind(fileName + ":", 0) != 0) return 0;
  try {
    return std::stoi(label.substr(fileName.size() + 1));
  } catch (const std::exception &) {
    return 0;
  }
}

// The function a branch or function goal names: "(f)" at the end of a
// branch side's label, "f()" for a function's.
std::string functionOf(const std::string &label) {
  if (label.size() > 2 && label.back() == ')' && label[label.size() - 2] != '(') {
    const size_t open = label.rfind(" (");
    if (open != std::string::npos) return label.substr(open + 2, label.size() - open - 3);
  }
  if (label.size() > 2 && label.compare(label.size() - 2, 2, "()") == 0) return label.substr(0, label.size() - 2);
  return "";
}

// Why the search left `label` uncovered, from what the unit's statistics
// hold: the callables a test cannot call (with their reasons) and the
// function goals left uncovered. The closest distance a test came is not
// recorded yet.
std::string whyUncovered(const std::string &label, const std::string &criterion, const json &stats,
                         const std::set<std::string> &unenteredFunctions) {
  const std::string function = functionOf(label);
  if (!function.empty()) {
    const json notCallable = stats.value("callables", json::object()).value("not_callable", json::array());
    for (const auto &n : notCallable) {
      const std::string callable = n.value("callable", "");
      if (callable.find(function + "(") != std::string::npos)
        return "its callable cannot be called: " + n.value("reason", "");
    }
    if (criterion == "function" || unenteredFunctions.count(function)) return "its function was never entered";
    return "its function ran; no test met this condition";
  }
  if (criterion == "line") return "no test reached this line";
  return "not covered";
}

// Likely defects first, then robustness failures, then misuse.
std::string failuresTable(json failures) {
  if (failures.empty()) return "<p>None.</p>\n";
  auto rank = [](const json &f) {
    const std::string c = f.value("class", "");
    return c == "defect" ? 0 : c == "robustness" ? 1 : 2;
  };
  std::vector<json> ordered(failures.begin(), failures.end());
  std::sort(ordered.begin(), ordered.end(), [&](const json &a, const json &b) {
    return rank(a) != rank(b) ? rank(a) < rank(b) : a.value("site", "") < b.value("site", "");
  });
  failures = ordered;
  std::ostringstream o;
  o << "<table><tr><th>class</th><th>outcome</th><th>where</th><th>why</th><th>stack in the project</th></tr>\n";
  for (const auto &f : failures) {
    // A failure no re-run reproduced is no claim: not written, not counted.
    const bool claimed = f.value("reproducible", true);
    const std::string cls = f.value("class", "");
    o << "<tr><td class=\"" << (claimed ? xmlEscape(cls) : "misuse") << "\">" << xmlEscape(cls)
      << (claimed ? "" : " (not reproduced: no claim, not written)") << "</td><td>"
      << xmlEscape(f.value("outcome", "")) << "</td><td>" << xmlEscape(f.value("site", "")) << "</td><td>"
      << xmlEscape(f.value("why", "")) << "</td><td>";
    const json stack = f.value("stack", json::array());
    for (size_t k = 0; k < stack.size(); ++k)
      o << (k ? "<br>" : "") << "#" << k << " <code>" << xmlEscape(stack[k].get<std::string>()) << "</code>";
    o << "</td></tr>\n";
  }
  return o.str() + "</table>\n";
}

// Goals covered against seconds into the search, as an SVG polyline.
std::string timeChart(const json &samples) {
  if (samples.size() < 2) return "<p>Too short a search to chart.</p>\n";
  double maxS = 0, maxC = 0;
  for (const auto &s : samples) {
    maxS = std::max(maxS, s.value("seconds", 0.0));
    maxC = std::max(maxC, s.value("covered", 0.0));
  }
  if (maxS <= 0 || maxC <= 0) return "<p>Nothing covered.</p>\n";
  constexpr double kW = 560, kH = 160, kLeft = 50, kBottom = 24; // ours: a chart a page wide
  std::string points;
  for (const auto &s : samples)
    points += fmt::format("{:.1f},{:.1f} ", kLeft + kW * s.value("seconds", 0.0) / maxS,
                          kH * (1 - s.value("covered", 0.0) / maxC) + 4);
  return fmt::format(
      "<svg width=\"{0}\" height=\"{1}\" role=\"img\" aria-label=\"goals covered over the search\">"
      "<line x1=\"{2}\" y1=\"4\" x2=\"{2}\" y2=\"{3}\" stroke=\"#888\"/>"
      "<line x1=\"{2}\" y1=\"{3}\" x2=\"{4}\" y2=\"{3}\" stroke=\"#888\"/>"
      "<text x=\"{5}\" y=\"14\" font-size=\"11\" text-anchor=\"end\">{6:.0f}</text>"
      "<text x=\"{5}\" y=\"{3}\" font-size=\"11\" text-anchor=\"end\">0</text>"
      "<text x=\"{4}\" y=\"{7}\" font-size=\"11\" text-anchor=\"end\">{8:.1f} s</text>"
      "<polyline fill=\"none\" stroke=\"#2a7\" stroke-width=\"2\" points=\"{9}\"/></svg>\n",
      kLeft + kW + 10, kH + kBottom + 8, kLeft, kH + 4, kLeft + kW, kLeft - 4, maxC, kH + 20, maxS, points);
}

std::string unitPage(const json &unit, const std::string &root) {
  const json stats = unit.value("stats", json::object());
  const std::string file = unit.value("file", "");
  const std::string fileName = fs::path(file).filename().string();
  std::ostringstream o;
  o << "<p><a href=\"index.html\">&larr; the project</a></p>\n<h1>" << xmlEscape(file) << "</h1>\n";
  o << "<table><tr><th>status</th><td>" << xmlEscape(unit.value("status", "")) << "</td></tr>"
    << "<tr><th>defect prediction (Schwa)</th><td class=\"n\">" << fmt::format("{:.3f}", unit.value("score", 0.0))
    << "</td></tr><tr><th>budget</th><td class=\"n\">" << fmt::format("{:.1f} s", unit.value("budget_seconds", 0.0))
    << "</td></tr><tr><th>search</th><td>" << xmlEscape(stats.value("algorithm", "")) << ", seed "
    << stats.value("seed", 0) << ", " << stats.value("executions", 0) << " executions ("
    << fmt::format("{:.0f}", stats.value("executions_per_second", 0.0)) << "/s)</td></tr>";
  if (!unit.value("error", "").empty())
    o << "<tr><th>error</th><td>" << xmlEscape(unit.value("error", "")) << "</td></tr>";
  o << "</table>\n";

  const json goals = stats.value("goals", json::object());
  o << "<h2>Coverage per criterion</h2>\n<table><tr><th>criterion</th><th>goals covered (mosaic's own)</th></tr>\n";
  for (const auto &[criterion, g] : goals.items())
    o << "<tr><td>" << xmlEscape(criterion) << "</td><td>" << percent(g.value("covered", 0.0), g.value("total", 0.0))
      << "</td></tr>\n";
  o << "</table>\n";
  if (stats.contains("llvm_cov")) {
    const json c = stats.value("llvm_cov", json::object());
    o << "<p>Measured apart, on the written suite with clang's source-based coverage (llvm-cov):</p>\n<table>"
      << "<tr><td>branches</td><td>" << percent(c.value("branches_covered", 0.0), c.value("branches", 0.0))
      << "</td></tr><tr><td>lines</td><td>" << percent(c.value("lines_covered", 0.0), c.value("lines", 0.0))
      << "</td></tr><tr><td>functions</td><td>" << percent(c.value("functions_covered", 0.0), c.value("functions", 0.0))
      << "</td></tr></table>\n";
  }
  o << "<h2>Coverage over time</h2>\n" << timeChart(stats.value("coverage_over_time", json::array()));
  o << "<h2>Failures</h2>\n" << failuresTable(stats.value("failures", json::array()));

  const json notCallable = stats.value("callables", json::object()).value("not_callable", json::array());
  o << "<h2>Callables a test cannot call</h2>\n";
  if (notCallable.empty()) o << "<p>None.</p>\n";
  else {
    o << "<table><tr><th>callable</th><th>why</th></tr>\n";
    for (const auto &n : notCallable)
      o << "<tr><td><code>" << xmlEscape(n.value("callable", "")) << "</code></td><td>"
        << xmlEscape(n.value("reason", "")) << "</td></tr>\n";
    o << "</table>\n";
  }

  // Uncovered goals, and the marks of the source view.
  std::set<std::string> unentered;
  for (const auto &label : goals.value("function", json::object()).value("uncovered", json::array()))
    unentered.insert(functionOf(label.get<std::string>()));
  std::map<int, std::vector<std::string>> partial; // line -> uncovered branch sides
  std::set<int> missed, hit;
  size_t uncoveredCount = 0;
  std::ostringstream list;
  constexpr size_t kListed = 300; // ours: a page, not a dump
  for (const auto &[criterion, g] : goals.items()) {
    for (const auto &l : g.value("uncovered", json::array())) {
      const std::string label = l.get<std::string>();
      if (uncoveredCount++ < kListed)
        list << "<tr><td>" << xmlEscape(criterion) << "</td><td><code>" << xmlEscape(label) << "</code></td><td>"
             << xmlEscape(whyUncovered(label, criterion, stats, unentered)) << "</td></tr>\n";
      if (const int line = lineOf(label, fileName)) {
        if (criterion == "line") missed.insert(line);
        else if (criterion == "branch") partial[line].push_back(label.substr(label.find(' ') + 1));
      }
    }
    for (const auto &l : g.value("covered_goals", json::array()))
      if (const int line = lineOf(l.get<std::string>(), fileName); line && criterion == "line") hit.insert(line);
  }
  o << "<h2>Uncovered goals (" << uncoveredCount << ")</h2>\n";
  if (uncoveredCount == 0) o << "<p>None: every goal was covered.</p>\n";
  else {
    o << "<table><tr><th>criterion</th><th>goal</th><th>why</th></tr>\n" << list.str() << "</table>\n";
    if (uncoveredCount > kListed) o << "<p>and " << uncoveredCount - kListed << " more.</p>\n";
  }

  o << "<h2>Source</h2>\n<p class=\"legend\"><span class=\"hit\" style=\"background:#e6f6e6\">line covered</span>"
       "<span style=\"background:#ffe9b3\">a branch side not taken (hover for which)</span>"
       "<span style=\"background:#fdd\">line never reached</span></p>\n";
  std::ifstream in(fs::path(root) / file);
  if (!in) {
    o << "<p>The source is not readable at " << xmlEscape((fs::path(root) / file).string()) << ".</p>\n";
  } else {
    o << "<pre class=\"src\">";
    std::string text;
    for (int n = 1; std::getline(in, text); ++n) {
      std::string cls, title;
      if (missed.count(n)) cls = "miss";
      else if (partial.count(n)) {
        cls = "part";
        for (const std::string &side : partial[n]) title += (title.empty() ? "not taken: " : "; ") + side;
      } else if (hit.count(n)) cls = "hit";
      o << "<span" << (cls.empty() ? "" : " class=\"" + cls + "\"")
        << (title.empty() ? "" : " title=\"" + xmlEscape(title) + "\"") << " id=\"L" << n << "\"><i>" << n
        << "</i>" << xmlEscape(text) << "</span>";
    }
    o << "</pre>\n";
  }
  return page(file + " - mosaic", o.str());
}

std::string projectPage(const json &state, const std::vector<json> &units) {
  std::ostringstream o;
  o << "<h1>mosaic: project report</h1>\n<p>Project <code>" << xmlEscape(state.value("root", ""))
    << "</code>: " << units.size() << " units.</p>\n";
  double branches = 0, branchesCovered = 0, lines = 0, linesCovered = 0, seconds = 0;
  std::map<std::string, int> classes;
  for (const json &u : units) {
    const json stats = u.value("stats", json::object());
    const json c = stats.value("llvm_cov", json::object());
    branches += c.value("branches", 0.0), branchesCovered += c.value("branches_covered", 0.0);
    lines += c.value("lines", 0.0), linesCovered += c.value("lines_covered", 0.0);
    seconds += u.value("seconds", 0.0);
    for (const auto &f : stats.value("failures", json::array()))
      if (f.value("reproducible", true)) ++classes[f.value("class", "")];
  }
  o << "<table><tr><th>branches (llvm-cov, units measured)</th><td>" << percent(branchesCovered, branches)
    << "</td></tr><tr><th>lines (llvm-cov)</th><td>" << percent(linesCovered, lines) << "</td></tr>"
    << "<tr><th>time spent</th><td class=\"n\">" << fmt::format("{:.0f} s", seconds) << "</td></tr>"
    << "<tr><th>failures</th><td><span class=\"defect\">likely defects: " << classes["defect"]
    << "</span>, <span class=\"robustness\">robustness: " << classes["robustness"]
    << "</span>, <span class=\"misuse\">misuse (not written by default): " << classes["misuse"]
    << "</span></td></tr></table>\n";
  o << "<h2>Units, riskiest first (defect prediction from the git history)</h2>\n"
    << "<table><tr><th>#</th><th>unit</th><th>Schwa score</th><th>budget</th><th>status</th><th>branches "
       "(llvm-cov)</th><th>lines (llvm-cov)</th>";
  std::set<std::string> criteria;
  for (const json &u : units) {
    // A named copy: items() refers to the object it iterates, and a
    // temporary would end before the loop (ASan's stack-use-after-scope).
    const json goals = u.value("stats", json::object()).value("goals", json::object());
    for (const auto &[criterion, g] : goals.items()) criteria.insert(criterion);
  }
  for (const std::string &c : criteria) o << "<th>" << xmlEscape(c) << " goals</th>";
  o << "<th>failures</th></tr>\n";
  int rank = 0;
  for (const json &u : units) {
    const json stats = u.value("stats", json::object());
    const json c = stats.value("llvm_cov", json::object());
    const json goals = stats.value("goals", json::object());
    o << "<tr><td class=\"n\">" << ++rank << "</td><td><a href=\"" << xmlEscape(u.value("id", "")) << ".html\">"
      << xmlEscape(u.value("file", "")) << "</a></td><td class=\"n\">" << fmt::format("{:.3f}", u.value("score", 0.0))
      << "</td><td class=\"n\">" << fmt::format("{:.1f} s", u.value("budget_seconds", 0.0)) << "</td><td>"
      << xmlEscape(u.value("status", "")) << "</td><td>"
      << percent(c.value("branches_covered", 0.0), c.value("branches", 0.0)) << "</td><td>"
      << percent(c.value("lines_covered", 0.0), c.value("lines", 0.0)) << "</td>";
    for (const std::string &criterion : criteria) {
      const json g = goals.value(criterion, json::object());
      o << "<td>" << percent(g.value("covered", 0.0), g.value("total", 0.0)) << "</td>";
    }
    std::map<std::string, int> mine;
    for (const auto &f : stats.value("failures", json::array()))
      if (f.value("reproducible", true)) ++mine[f.value("class", "")];
    o << "<td><span class=\"defect\">" << mine["defect"] << "</span> / <span class=\"robustness\">"
      << mine["robustness"] << "</span> / <span class=\"misuse\">" << mine["misuse"] << "</span></td></tr>\n";
  }
  o << "</table>\n<p>Failures: likely defects / robustness / misuse. Coverage measured by llvm-cov on each "
       "verified suite; goals are mosaic's own counters.</p>\n";
  return page("mosaic project report", o.str());
}

} // namespace

std::size_t writeHtmlReport(const std::string &outDir) {
  json state;
  try {
    state = json::parse(readFile((fs::path(outDir) / "project.json").string()));
  } catch (const std::exception &) {
    return 0;
  }
  std::vector<json> units;
  for (const auto &u : state.value("units", json::array())) units.push_back(u);
  // Riskiest first; equal scores by path, so that the order is the same every time.
  std::sort(units.begin(), units.end(), [](const json &a, const json &b) {
    const double sa = a.value("score", 0.0), sb = b.value("score", 0.0);
    return sa != sb ? sa > sb : a.value("file", "") < b.value("file", "");
  });
  const fs::path dir = fs::path(outDir) / "report";
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::size_t pages = 0;
  const std::string root = state.value("root", "");
  for (const json &u : units) {
    const std::string id = u.value("id", "");
    if (id.empty() || id.find('/') != std::string::npos) continue;
    std::ofstream(dir / (id + ".html")) << unitPage(u, root);
    ++pages;
  }
  std::ofstream(dir / "index.html") << projectPage(state, units);
  return pages + 1;
}

} // namespace mosaic::driver

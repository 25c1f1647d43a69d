// `mosaic predict` (Predict.h): the project's units, their functions from
// the front end, Schwa over the git history, a ranking with reasons.
#include "mosaic/driver/Predict.h"

#include "FunctionWeights.h"
#include "ProjectFiles.h"
#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/predict/History.h"
#include "mosaic/predict/Schwa.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

namespace mosaic::driver {

namespace fs = std::filesystem;

namespace {

struct Unit {
  std::string path;     ///< absolute
  std::string relative; ///< to the work tree (or the project's folder without git)
  std::vector<predict::FunctionSpan> functions;
  std::string functionsError; ///< why its functions were not read
  predict::Score score;
  std::vector<predict::Score> functionScores;
};

std::string day(std::int64_t time) {
  const std::time_t t = static_cast<std::time_t>(time);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

nlohmann::json scoreJson(const predict::Score &s) {
  nlohmann::json fixes = nlohmann::json::array();
  for (const auto &f : s.recentFixes) fixes.push_back({{"commit", f.id}, {"summary", f.summary}, {"time", f.time}});
  return {{"probability", s.probability}, {"score", s.score},         {"revisions_twr", s.revisions},
          {"fixes_twr", s.fixes},         {"authors_twr", s.authors}, {"commits", s.commits},
          {"fix_commits", s.fixCommits},  {"authors", s.authorCount}, {"recent_fixes", fixes}};
}

} // namespace

int predict(const PredictOptions &o, std::ostream &stdOut, std::ostream &err) {
  // With --json -, stdout is the JSON's alone.
  std::ostringstream discarded;
  std::ostream &out = o.unit.jsonOut == "-" ? discarded : stdOut;
  auto files = databaseFiles(o.unit.buildDir);
  if (!files) {
    fmt::print(err, "mosaic: error: {}\n", files.error().message);
    return kExitUsage;
  }
  const std::string root = commonFolder(*files);
  std::vector<Unit> units;
  std::vector<std::pair<std::string, std::string>> left; // not library code, and why
  for (const std::string &f : *files) {
    const std::string why = o.includeTests ? "" : notLibraryCode(f, root);
    if (!why.empty()) left.emplace_back(f, why);
    else units.push_back({f, fs::path(f).lexically_relative(root).generic_string(), {}, {}, {}, {}});
  }
  if (units.empty()) {
    fmt::print(err, "mosaic: error: no library code among the {} files of the compile database{}\n", files->size(),
               o.includeTests ? "" : " (--include-tests counts tests, fuzzers, examples and tools)");
    return kExitUsage;
  }

  // T_DP: the front end and the history, timed for the budget's split.
  const auto start = std::chrono::steady_clock::now();
  std::map<std::string, std::vector<predict::FunctionSpan>> spans;
  if (o.functions)
    for (Unit &u : units) {
      analysis::FrontEndOptions fe;
      fe.buildDir = o.unit.buildDir;
      fe.unit = u.path;
      fe.projectSamples = false;
      auto program = analysis::analyzeUnit(fe);
      if (!program) {
        u.functionsError = program.error().message;
        continue;
      }
      u.functions = functionSpans(*program);
      spans[u.path] = u.functions;
    }
  predict::HistoryOptions ho;
  ho.revision = o.revision;
  ho.maxCommits = o.maxCommits;
  ho.skipMerges = o.skipMerges;
  std::string note;
  auto history = predict::readHistory(root, spans, ho);
  predict::Prediction prediction;
  if (!history) {
    note = history.error().message + ": every unit scores the same (an even split)";
  } else {
    predict::SchwaOptions so;
    so.revisionsWeight = o.revisionsWeight;
    so.fixesWeight = o.fixesWeight;
    so.authorsWeight = o.authorsWeight;
    so.timeRange = o.timeRange;
    if (!o.fixPattern.empty()) so.fixPattern = o.fixPattern;
    try {
      prediction = predict::schwa(*history, spans, so);
    } catch (const std::regex_error &e) {
      fmt::print(err, "mosaic: error: --fix-pattern is not a regular expression: {}\n", e.what());
      return kExitUsage;
    }
    if (history->shallow)
      note = "a shallow clone: history before its cut is not seen, and older units look safer than they are";
    std::error_code ec;
    const fs::path tree = fs::weakly_canonical(history->workTree, ec);
    for (Unit &u : units) {
      u.relative = fs::path(u.path).lexically_relative(tree).generic_string();
      if (auto it = prediction.files.find(u.relative); it != prediction.files.end()) u.score = it->second;
      if (auto it = prediction.functions.find(u.relative); it != prediction.functions.end())
        u.functionScores = it->second;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // By s, not by 1 - e^-s: a busy file's probability is 1.0 in a double.
  std::sort(units.begin(), units.end(), [](const Unit &a, const Unit &b) {
    return a.score.score != b.score.score ? a.score.score > b.score.score : a.relative < b.relative;
  });

  // The ranking, each unit with why: its counts, its recent fixes, its
  // riskiest functions.
  constexpr std::size_t kFunctionsShown = 3; // ours: a glance, --json has them all
  if (history)
    fmt::print(out, "history      {} commits to {} ({}), {} touching the project's C/C++ files{}\n", history->walked,
               history->revision.substr(0, 12), day(history->newest), history->commits.size(),
               history->shallow ? " (shallow)" : "");
  if (!note.empty()) fmt::print(out, "note         {}\n", note);
  fmt::print(out, "units        {} ranked, {} left out as not library code{}\n", units.size(), left.size(),
             left.empty() || o.includeTests ? "" : " (--include-tests)");
  fmt::print(out, "{:>4}  {:>7}  {:>11}  {:>7}  {:>5}  {:>7}  {}\n", "rank", "score", "probability", "commits", "fixes",
             "authors", "unit");
  for (std::size_t k = 0; k < units.size(); ++k) {
    const Unit &u = units[k];
    fmt::print(out, "{:>4}  {:>7.2f}  {:>11.3f}  {:>7}  {:>5}  {:>7}  {}\n", k + 1, u.score.score, u.score.probability,
               u.score.commits, u.score.fixCommits, u.score.authorCount, u.relative);
    for (const auto &f : u.score.recentFixes)
      fmt::print(out, "      fix {} {} {}\n", f.id.substr(0, 10), day(f.time), f.summary);
    std::vector<std::size_t> order(u.functionScores.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const double pa = u.functionScores[a].score, pb = u.functionScores[b].score;
      return pa != pb ? pa > pb : a < b;
    });
    for (std::size_t i = 0; i < std::min(kFunctionsShown, order.size()); ++i) {
      const auto &s = u.functionScores[order[i]];
      if (s.commits == 0) break;
      fmt::print(out, "      function {} (lines {}-{}): score {:.2f}, {} commits, {} fixes\n", u.functions[order[i]].name,
                 u.functions[order[i]].begin, u.functions[order[i]].end, s.score, s.commits, s.fixCommits);
    }
    if (!u.functionsError.empty()) fmt::print(out, "      functions not read: {}\n", u.functionsError);
  }
  fmt::print(out, "time         {:.1f} s (front end and history)\n", seconds);

  if (!o.unit.jsonOut.empty()) {
    nlohmann::json j;
    j["revision"] = history ? history->revision : "";
    j["commits_walked"] = history ? history->walked : 0;
    j["commits_counted"] = history ? history->commits.size() : 0;
    j["shallow"] = history && history->shallow;
    j["note"] = note;
    j["seconds"] = seconds;
    j["units"] = nlohmann::json::array();
    for (const Unit &u : units) {
      nlohmann::json ju = scoreJson(u.score);
      ju["file"] = u.relative;
      ju["path"] = u.path;
      ju["functions"] = nlohmann::json::array();
      for (std::size_t i = 0; i < u.functions.size(); ++i) {
        nlohmann::json jf = i < u.functionScores.size() ? scoreJson(u.functionScores[i]) : nlohmann::json::object();
        jf["name"] = u.functions[i].name;
        jf["begin_line"] = u.functions[i].begin;
        jf["end_line"] = u.functions[i].end;
        ju["functions"].push_back(jf);
      }
      if (!u.functionsError.empty()) ju["functions_error"] = u.functionsError;
      j["units"].push_back(ju);
    }
    j["left_out"] = nlohmann::json::array();
    for (const auto &[f, why] : left) j["left_out"].push_back({{"path", f}, {"why", why}});
    if (o.unit.jsonOut == "-") stdOut << j.dump(2) << "\n";
    else if (std::ofstream f(o.unit.jsonOut); f) f << j.dump(2) << "\n";
    else {
      fmt::print(err, "mosaic: error: cannot write '{}'\n", o.unit.jsonOut);
      return kExitUsage;
    }
  }
  return kExitOk;
}

} // namespace mosaic::driver

// Schwa's scores from a history (Schwa.h; ALGORITHMS.md §3.1).
#include "mosaic/predict/Schwa.h"

#include <algorithm>
#include <cmath>
#include <regex>

namespace mosaic::predict {

double timeWeight(double t, double timeRange) {
  return 1.0 / (1.0 + std::exp(-12.0 * t + 2.0 + (1.0 - timeRange) * 10.0));
}

namespace {

// A component's sums as its commits are added (oldest authorship kept).
struct Tally {
  Score score;
  std::map<std::string, double> firstByAuthor; ///< e-mail -> weight of their oldest commit here
  void add(const Commit &c, double weight, bool fix) {
    score.revisions += weight;
    ++score.commits;
    if (fix) {
      score.fixes += weight;
      ++score.fixCommits;
      if (!c.merge && score.recentFixes.size() < kRecentFixes &&
          (score.recentFixes.empty() || score.recentFixes.back().id != c.id))
        score.recentFixes.push_back({c.id, c.summary, c.time});
    }
    // Commits come newest first: the last seen of an author is their first.
    firstByAuthor[c.email] = weight;
  }
  Score finish(const SchwaOptions &o) {
    for (const auto &[email, weight] : firstByAuthor) score.authors += weight;
    score.authorCount = static_cast<int>(firstByAuthor.size());
    score.score = o.revisionsWeight * score.revisions + o.fixesWeight * score.fixes + o.authorsWeight * score.authors;
    score.probability = 1.0 - std::exp(-score.score);
    return score;
  }
};

} // namespace

Prediction schwa(const History &history, const std::map<std::string, std::vector<FunctionSpan>> &functions,
                   const SchwaOptions &o) {
  const std::regex fixes(o.fixPattern, std::regex::icase | std::regex::ECMAScript);
  std::map<std::string, Tally> files;
  std::map<std::string, std::vector<Tally>> byFunction;
  for (const std::string &f : history.files) files[f];
  for (const auto &[file, spans] : functions) {
    std::string key = file;
    if (!key.empty() && key.front() == '/' && key.rfind(history.workTree, 0) == 0) key = key.substr(history.workTree.size());
    byFunction[key].resize(spans.size());
  }
  const double span = static_cast<double>(history.newest - history.oldest);
  for (const Commit &c : history.commits) {
    const double t = span > 0 ? static_cast<double>(c.time - history.oldest) / span : 1.0;
    const double weight = timeWeight(t, o.timeRange);
    const bool fix = std::regex_search(c.message, fixes);
    for (const Touch &touch : c.touches) {
      if (auto f = files.find(touch.file); f != files.end()) f->second.add(c, weight, fix);
      auto fn = byFunction.find(touch.file);
      if (fn == byFunction.end()) continue;
      for (std::size_t k : touch.functions)
        if (k < fn->second.size()) fn->second[k].add(c, weight, fix);
    }
  }
  Prediction p;
  for (auto &[file, tally] : files) p.files[file] = tally.finish(o);
  for (auto &[file, tallies] : byFunction)
    for (Tally &tally : tallies) p.functions[file].push_back(tally.finish(o));
  return p;
}

} // namespace mosaic::predict

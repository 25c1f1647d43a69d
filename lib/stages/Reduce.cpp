// Reduce: the archive's tests to a small covering set (Stage.h).
#include "mosaic/stages/Stage.h"

#include <algorithm>
#include <numeric>

namespace mosaic::stages {

namespace {

class Reduce final : public Stage {
public:
  std::string_view name() const override { return "reduce"; }

  void run(Work &work, Context &c) override {
    std::vector<search::Solution> solutions = work.archived;
    // The archive keeps a failing test for a goal until a clean one covers
    // it; when the search ends first (every goal covered), the goals it
    // covered before its failing statement are still the suite's: its
    // prefix up to that statement takes its place when it runs cleanly.
    for (search::Solution &s : solutions) {
      if (!s.run->failed() || s.run->stoppedAt <= 0) continue;
      auto prefix = std::make_shared<testcase::TestCase>(*s.test);
      prefix->statements.resize(static_cast<size_t>(s.run->stoppedAt));
      auto run = c.run.run(*prefix);
      if (run && !run->failed()) s = {prefix, std::make_shared<const search::Execution>(std::move(*run))};
    }
    std::vector<std::vector<size_t>> covers(solutions.size());
    for (size_t i = 0; i < solutions.size(); ++i) covers[i] = c.goals.coveredBy(*solutions[i].run);
    std::vector<size_t> order(solutions.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (covers[a].size() != covers[b].size()) return covers[a].size() > covers[b].size();
      if (solutions[a].test->statements.size() != solutions[b].test->statements.size())
        return solutions[a].test->statements.size() < solutions[b].test->statements.size();
      return a < b;
    });
    std::vector<bool> have(c.goals.size(), false);
    for (size_t i : order) {
      if (solutions[i].run->failed()) continue; // failures go to the failing suite
      std::vector<size_t> fresh;
      for (size_t g : covers[i])
        if (!have[g]) fresh.push_back(g);
      if (fresh.empty()) continue;
      double foundAt = 0;
      for (size_t g : fresh) {
        have[g] = true;
        if (g < work.firstCovered.size()) foundAt = std::max(foundAt, work.firstCovered[g]);
      }
      Candidate kept;
      kept.test = *solutions[i].test;
      kept.goals = std::move(fresh);
      kept.foundAt = foundAt;
      work.passing.push_back(std::move(kept));
    }
  }
};

} // namespace

std::unique_ptr<Stage> reduce() { return std::make_unique<Reduce>(); }

} // namespace mosaic::stages

// MIO (ALGORITHMS.md §2.2): one small population per uncovered goal,
// sampling either a random test or a mutant of a member of the goal with
// the fewest samples so far; parameters move linearly from exploration to
// a focused phase that starts halfway through the budget.
#include "Algorithms.h"

#include <algorithm>
#include <cmath>

namespace mosaic::search {

namespace {

struct Member {
  std::shared_ptr<const Individual> individual;
  double h = 0; ///< heuristic 1 - ν(fitness): 1 covers, larger is better
};

class Mio final : public Algorithm {
public:
  Mio(Evaluator &e, Variation &v, Rng &rng, const SearchOptions &o)
      : e_(e), v_(v), rng_(rng), o_(o), populations_(e.goals().size()), counters_(e.goals().size(), 0) {}

  void run() override {
    while (!e_.done()) {
      const double u = std::min(1.0, e_.budget().used(e_.executions()) / o_.mioFocus);
      const double pr = o_.mioRandomStart + (o_.mioRandomFocus - o_.mioRandomStart) * u;
      capacity_ = static_cast<size_t>(std::ceil(static_cast<double>(o_.mioSizeStart) +
                                                (static_cast<double>(o_.mioSizeFocus) - static_cast<double>(o_.mioSizeStart)) * u));
      const auto mutations = static_cast<size_t>(std::ceil(
          static_cast<double>(o_.mioMutationsStart) +
          (static_cast<double>(o_.mioMutationsFocus) - static_cast<double>(o_.mioMutationsStart)) * u));
      const std::optional<size_t> goal = rng_.chance(pr) ? std::nullopt : pickGoal();
      if (!goal) {
        Individual i{.test = v_.randomTest()};
        evaluate(i);
        continue;
      }
      ++counters_[*goal];
      Individual base = *rng_.pick(populations_[*goal]).individual;
      for (size_t m = 0; m < mutations && !e_.done(); ++m) {
        Individual child = base;
        v_.mutate(child.test, child.run.get());
        if (!evaluate(child)) continue;
        const double before = heuristic(*goal, *base.run), after = heuristic(*goal, *child.run);
        if (after >= before) base = std::move(child);
      }
    }
  }

private:
  double heuristic(size_t g, const Execution &run) const {
    const double f = e_.goals().fitness(g, run);
    return 1.0 - Goals::normalise(f);
  }

  // The uncovered goal with a population and the fewest samples (ties at random).
  std::optional<size_t> pickGoal() {
    std::vector<size_t> best;
    size_t lowest = SIZE_MAX;
    for (size_t g = 0; g < populations_.size(); ++g) {
      if (populations_[g].empty() || e_.archive().covered(g)) continue;
      if (counters_[g] < lowest) {
        lowest = counters_[g];
        best.clear();
      }
      if (counters_[g] == lowest) best.push_back(g);
    }
    if (best.empty()) return std::nullopt;
    return rng_.pick(best);
  }

  bool evaluate(Individual &i) {
    if (i.test.statements.empty()) return false;
    i.run = e_.evaluate(i.test);
    if (!i.run) return false;
    // Tests are chopped after their first exception.
    if (i.run->stoppedAt >= 0 && static_cast<size_t>(i.run->stoppedAt) + 1 < i.test.statements.size())
      i.test.statements.resize(static_cast<size_t>(i.run->stoppedAt) + 1);
    std::shared_ptr<const Individual> shared; // one copy for every population it joins
    for (size_t g = 0; g < populations_.size(); ++g) {
      if (e_.archive().covered(g) || !e_.goals().sought(g)) {
        populations_[g].clear();
        continue;
      }
      const double f = e_.goals().fitness(g, *i.run);
      // A test that never entered the goal's function tells nothing about
      // it: h = 0, never added.
      if (f >= e_.goals().notCalled(g)) continue;
      if (!shared) shared = std::make_shared<const Individual>(i);
      offer(g, {shared, 1.0 - Goals::normalise(f)});
    }
    return true;
  }

  void offer(size_t g, Member m) {
    auto &pop = populations_[g];
    while (pop.size() > capacity_) {
      pop.erase(std::min_element(pop.begin(), pop.end(), [](const Member &a, const Member &b) { return a.h < b.h; }));
    }
    if (pop.size() < capacity_) {
      pop.push_back(std::move(m));
      counters_[g] = 0;
      return;
    }
    // The worst member: the lowest heuristic, then the one the secondary
    // objective likes least.
    const SecondaryObjective &secondary = e_.archive().secondary();
    auto prefers = [&](const Member &a, const Member &b) {
      return secondary.compare(g, {a.individual->test, *a.individual->run}, {b.individual->test, *b.individual->run});
    };
    auto worst = std::min_element(pop.begin(), pop.end(), [&](const Member &a, const Member &b) {
      if (a.h != b.h) return a.h < b.h;
      return prefers(a, b) > 0;
    });
    if (m.h > worst->h || (m.h == worst->h && prefers(m, *worst) < 0)) {
      *worst = std::move(m);
      counters_[g] = 0;
    }
  }

  Evaluator &e_;
  Variation &v_;
  Rng &rng_;
  SearchOptions o_;
  std::vector<std::vector<Member>> populations_;
  std::vector<size_t> counters_;
  size_t capacity_ = 10;
};

} // namespace

std::unique_ptr<Algorithm> makeMio(Evaluator &evaluator, Variation &variation, Rng &rng, const SearchOptions &options) {
  return std::make_unique<Mio>(evaluator, variation, rng, options);
}

} // namespace mosaic::search

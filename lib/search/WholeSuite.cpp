// Whole-suite search with an archive (WSA; ALGORITHMS.md §2.1): a genetic
// algorithm over test suites, fitness summed over the goals not yet in the
// archive, rank selection, elitism of one.
//
// Our goal fitness already carries approach levels, so a suite's fitness is
// Σ over uncovered goals of ν(min over its tests of the goal's fitness),
// rather than EvoSuite's per-predicate branch distances counted by
// execution; both are 0 exactly when the suite covers the goal.
#include "Algorithms.h"
#include "mosaic/search/Ranking.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mosaic::search {

namespace {

struct Suite {
  std::vector<Individual> tests;
  double fitness = std::numeric_limits<double>::infinity();
};

class WholeSuite final : public Algorithm {
public:
  WholeSuite(Evaluator &e, Variation &v, Rng &rng, const SearchOptions &o) : e_(e), v_(v), rng_(rng), o_(o) {}

  // A generation's suites are made first, then the tests they changed or
  // added run together (Evaluator::evaluateStream: in the fork server's
  // batches), rather than one round trip per test.
  void run() override {
    std::vector<Suite> population;
    for (size_t k = 0; k < o_.population; ++k) {
      Suite s;
      const auto n = static_cast<size_t>(rng_.uniform(1, static_cast<std::int64_t>(o_.initialSuiteMax)));
      for (size_t t = 0; t < n; ++t) add(s, v_.randomTest());
      population.push_back(std::move(s));
    }
    runChanged(population);
    while (!e_.done() && !population.empty()) {
      score(population);
      std::vector<Suite> next;
      next.push_back(population.front()); // elitism: the best suite survives
      while (next.size() < o_.population) {
        Suite a = population[rankSelection(population.size(), o_.rankBias, rng_)];
        Suite b = population[rankSelection(population.size(), o_.rankBias, rng_)];
        if (rng_.chance(o_.crossoverRate)) crossover(a, b);
        mutate(a);
        mutate(b);
        next.push_back(std::move(a));
        if (next.size() < o_.population) next.push_back(std::move(b));
      }
      runChanged(next);
      population = std::move(next);
    }
  }

private:
  // A test to run with the suite's others (runChanged).
  void add(Suite &s, testcase::TestCase test) {
    if (test.statements.empty()) return;
    s.tests.push_back({.test = std::move(test)});
  }

  // Runs every test of `population` without a run (new or changed), all
  // together, a batch made at a time (each test lent to the evaluator and
  // handed back with its run); drops those that could not run (the budget
  // ended first, or the harness could not run them) and suites left empty.
  void runChanged(std::vector<Suite> &population) {
    std::vector<Individual *> changed;
    for (Suite &s : population)
      for (Individual &i : s.tests)
        if (!i.run) changed.push_back(&i);
    size_t lent = 0;
    e_.evaluateStream(
        [&] {
          std::vector<testcase::TestCase> tests;
          for (; lent < changed.size() && tests.size() < kEvaluationBatch; ++lent)
            tests.push_back(std::move(changed[lent]->test));
          return tests;
        },
        [&](size_t id, testcase::TestCase test, std::shared_ptr<const Execution> run) {
          changed[id]->test = std::move(test);
          changed[id]->run = std::move(run);
        });
    for (Suite &s : population) std::erase_if(s.tests, [](const Individual &i) { return !i.run; });
    std::erase_if(population, [](const Suite &s) { return s.tests.empty(); });
  }

  // Sorts best first, after computing each suite's fitness against the
  // goals still uncovered.
  void score(std::vector<Suite> &population) {
    std::vector<size_t> open;
    for (size_t g = 0; g < e_.goals().size(); ++g)
      if (e_.goals().sought(g) && !e_.archive().covered(g)) open.push_back(g);
    for (Suite &s : population) {
      double sum = 0;
      for (size_t g : open) {
        double best = std::numeric_limits<double>::infinity();
        for (const Individual &i : s.tests) best = std::min(best, e_.goals().fitness(g, *i.run));
        sum += std::isinf(best) ? 1.0 : Goals::normalise(best);
      }
      s.fitness = sum;
    }
    // (std::sort on indices, ties by position: stable without
    // std::stable_sort, whose libstdc++ 12 buffer clang 19 flags as deprecated.)
    std::vector<size_t> order(population.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      const Suite &a = population[x], &b = population[y];
      if (a.fitness != b.fitness) return a.fitness < b.fitness;
      if (a.tests.size() != b.tests.size()) return a.tests.size() < b.tests.size(); // the smaller suite
      return x < y;
    });
    std::vector<Suite> sorted;
    for (size_t k : order) sorted.push_back(std::move(population[k]));
    population = std::move(sorted);
  }

  // Single-point relative crossover on the lists of tests.
  void crossover(Suite &a, Suite &b) {
    if (a.tests.size() < 2 || b.tests.size() < 2) return;
    const double alpha = rng_.uniform01();
    const size_t pa = static_cast<size_t>(std::floor(static_cast<double>(a.tests.size() - 1) * alpha)) + 1;
    const size_t pb = static_cast<size_t>(std::floor(static_cast<double>(b.tests.size() - 1) * alpha)) + 1;
    std::vector<Individual> ta(a.tests.begin(), a.tests.begin() + static_cast<std::ptrdiff_t>(pa));
    std::vector<Individual> tb(b.tests.begin(), b.tests.begin() + static_cast<std::ptrdiff_t>(pb));
    ta.insert(ta.end(), b.tests.begin() + static_cast<std::ptrdiff_t>(pb), b.tests.end());
    tb.insert(tb.end(), a.tests.begin() + static_cast<std::ptrdiff_t>(pa), a.tests.end());
    a.tests = std::move(ta);
    b.tests = std::move(tb);
  }

  // Each test mutated with probability 1/|T|, then new tests added while
  // rand <= 0.1^k (TestSuiteChromosome.mutate). A changed test loses its
  // run: runChanged() runs it.
  void mutate(Suite &s) {
    const double p = 1.0 / static_cast<double>(std::max<size_t>(s.tests.size(), 1));
    for (Individual &i : s.tests) {
      if (!rng_.chance(p)) continue;
      if (v_.mutate(i.test, i.run.get())) i.run.reset();
    }
    std::erase_if(s.tests, [](const Individual &i) { return i.test.statements.empty(); });
    int k = 1;
    while (s.tests.size() < o_.maxSuiteSize && rng_.chance(std::pow(o_.testInsertion, k))) {
      add(s, v_.randomTest());
      ++k;
    }
    if (s.tests.empty()) add(s, v_.randomTest());
  }

  Evaluator &e_;
  Variation &v_;
  Rng &rng_;
  SearchOptions o_;
};

} // namespace

std::unique_ptr<Algorithm> makeWholeSuite(Evaluator &evaluator, Variation &variation, Rng &rng,
                                          const SearchOptions &options) {
  return std::make_unique<WholeSuite>(evaluator, variation, rng, options);
}

} // namespace mosaic::search

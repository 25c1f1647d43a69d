// MOSA and DynaMOSA (ALGORITHMS.md §1.3–1.6): many-objective search with
// preference sorting over the uncovered goals; DynaMOSA considers only the
// goals whose control dependences are covered, releasing the others along
// the control-dependence graph as the search covers their parents.
#include "Algorithms.h"
#include "mosaic/search/Ranking.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>
#include <tuple>

namespace mosaic::search {

namespace {

class Mosa final : public Algorithm {
public:
  Mosa(Evaluator &e, Variation &v, Rng &rng, const SearchOptions &o, bool dynamic)
      : e_(e), v_(v), rng_(rng), o_(o), dynamic_(dynamic), current_(e.goals().size(), !dynamic) {
    if (dynamic)
      for (size_t g : e.goals().initial()) release(g);
  }

  void run() override {
    std::vector<Individual> population;
    size_t made = 0;
    evaluate(
        [&] {
          std::vector<testcase::TestCase> fresh(std::min(kEvaluationBatch, o_.population - made));
          for (testcase::TestCase &t : fresh) t = v_.randomTest();
          made += fresh.size();
          return fresh;
        },
        population);
    ranks_.assign(population.size(), 0);
    crowding_.assign(population.size(), 0.0);
    while (!e_.done() && !population.empty()) population = generations(std::move(population));
  }

private:
  // Runs the tests make() makes (Evaluator::evaluateStream: a batch runs
  // while the next is made and the one before is read), in order; puts
  // those that ran into `into`, releasing the goals their newly taken
  // branch sides guard.
  void evaluate(const Evaluator::MakeTests &make, std::vector<Individual> &into) {
    e_.evaluateStream(make, [&](size_t, testcase::TestCase test, std::shared_ptr<const Execution> run) {
      take(into, std::move(test), std::move(run));
    });
  }
  void take(std::vector<Individual> &into, testcase::TestCase test, std::shared_ptr<const Execution> run) {
    if (dynamic_) releaseTaken(*run);
    into.push_back({.test = std::move(test), .run = std::move(run)});
    prescore(into.back());
  }

  // A new individual's fitness on the last selection's stored goals
  // (Individual::pre), the part of the next selection's matrix that is
  // new: computed here, as the stream records a batch while the fork server
  // runs the next, rather than in survive(), while the server waits. The
  // same values scores() would compute (a run's fitness never changes;
  // Goals::fitness answers notCalled for a function the run did not enter).
  void prescore(Individual &i) const {
    if (scoredGoals_.empty()) {
      i.pre.clear();
      return;
    }
    i.pre.resize(scoredGoals_.size());
    for (size_t k = 0; k < scoredGoals_.size(); ++k) i.pre[k] = e_.goals().fitness(scoredGoals_[k], *i.run);
  }

  // DynaMOSA's release (§1.5) by the branch sides a run took, whichever
  // criteria are on: goals of every criterion hang off the sides their
  // blocks depend on, as EvoSuite's MultiCriteriaManager keeps the branch
  // graph with or without branch goals (smart selection has none).
  void releaseTaken(const Execution &run) {
    const size_t n = std::min(run.sides.size(), taken_.size());
    for (size_t s = 0; s < n; ++s) {
      if (run.sides[s] != 1.0 || taken_[s]) continue; // 1 + distance 0: taken
      taken_[s] = true;
      for (size_t d : e_.goals().dependents(static_cast<std::uint32_t>(s))) current_[d] = true;
    }
  }
  void release(size_t g) { current_[g] = true; }

  // The goals the ranking looks at: current and open (Evaluator::open: not
  // covered, or covered only by a failing test, which goes to the failing
  // suite, whose death tests count for no coverage, and whose prefix that
  // Reduce keeps loses what its failing call covered before it failed:
  // tinyxml2.cpp's StrPair::GetStr decoded entities only inside
  // FindAttribute(nullptr), which then crashed, and a verified suite
  // covered 51 branches fewer than its archive; concolic-2026-11-30, KNN
  // seed 3). When DynaMOSA has none left but open goals remain (their
  // parents are unreachable from the current frontier), all of them.
  std::vector<size_t> targets() {
    // Goals found while the search runs (Goals::discover) are current from
    // then on; a failure's is covered already, a path condition's sought.
    if (current_.size() < e_.goals().size()) current_.resize(e_.goals().size(), true);
    std::vector<size_t> out;
    for (size_t g = 0; g < current_.size(); ++g)
      if (current_[g] && e_.goals().sought(g) && e_.open(g)) out.push_back(g);
    if (out.empty() && dynamic_) {
      for (size_t g = 0; g < current_.size(); ++g)
        if (e_.goals().sought(g) && e_.open(g)) {
          current_[g] = true;
          out.push_back(g);
        }
    }
    return out;
  }

  size_t select() { return tournament(ranks_, crowding_, o_.tournamentSize, rng_); }

  // One generation's tests as they are made: the children of the
  // population (crossover, mutation) and then DynaMOSA's inserted tests.
  struct Brood {
    size_t firstId = 0;  // the stream's id of its first test
    size_t wanted = 0;   // children still to make
    bool inserted = false;
    std::deque<testcase::TestCase> insertion; // made at once, handed out in chunks
    bool made = false;   // every test of it is made
    size_t lastChunk = 0; // the stream's chunk (make() call) that made its last test
    std::vector<Individual> offspring;
  };

  // Generations in one stream, so that the fork server does not wait for
  // the selection. survive() needs every run of a generation, and the
  // stream records a chunk only after the next one is made (make()'s j-th
  // call sees the runs of chunks 0..j-2): so when a generation's tests are
  // all made and its last chunk runs, the next generation's first chunk is
  // bred from the population as it is, and survive() runs at the call
  // after, while that chunk runs (before, the server idled through
  // recording the last batch, the selection and making the first chunk:
  // xmlparse.c's 3.2 s of a 15 s DynaMOSA in survive() alone,
  // bench/results/speed-2026-11-30b). So one chunk of kEvaluationBatch
  // of each generation's children has parents one selection older, as in
  // a steady-state algorithm; which chunk that is depends only on the
  // count of make() calls, not on timing. The stream ends at the end of a
  // generation when a side task is due (they run between streams: the
  // solver's tests join the next offspring) or when the budget is spent.
  // Returns the population of the last selection.
  std::vector<Individual> generations(std::vector<Individual> population) {
    std::deque<Brood> open; // one generation, or two while the older one's last chunk runs
    open.push_back({.firstId = 0, .wanted = o_.population});
    // Tests a side task ran and proposed (concolic execution's), first.
    for (auto &[test, run] : e_.takeProposed())
      if (run) {
        open.front().offspring.push_back({.test = std::move(test), .run = std::move(run)});
        if (open.front().wanted > 0) --open.front().wanted;
      }
    size_t made = 0, calls = 0;
    e_.evaluateStream(
        [&]() -> std::vector<testcase::TestCase> {
          const size_t call = calls++;
          for (;;) {
            // The older generation's runs are all recorded: its selection.
            if (open.size() == 2 && call >= open.front().lastChunk + 2) {
              population = nextPopulation(std::move(population), std::move(open.front().offspring));
              open.pop_front();
              // Runs of the next one recorded before (predicted at once
              // when made) were scored on the goals of the selection before.
              for (Individual &i : open.front().offspring) prescore(i);
            }
            Brood &last = open.back();
            if (!last.made) {
              std::vector<testcase::TestCase> tests = chunk(last, population);
              if (!tests.empty()) {
                made += tests.size();
                last.lastChunk = call;
                return tests;
              }
              last.made = true;
            }
            if (open.size() == 2) return {}; // never: a third generation waits for the first's selection
            if (e_.sideTaskDue()) return {}; // the stream ends with this generation
            if (call >= last.lastChunk + 2) { // all recorded already
              population = nextPopulation(std::move(population), std::move(last.offspring));
              open.pop_front();
            }
            open.push_back({.firstId = made, .wanted = o_.population});
          }
        },
        [&](size_t id, testcase::TestCase test, std::shared_ptr<const Execution> run) {
          Brood &b = open.size() == 2 && id >= open.back().firstId ? open.back() : open.front();
          take(b.offspring, std::move(test), std::move(run));
        });
    // The budget is spent (nothing reads the population then), or a side
    // task is due after a whole generation.
    if (e_.done() || open.size() != 1) return population;
    return nextPopulation(std::move(population), std::move(open.front().offspring));
  }

  std::vector<Individual> nextPopulation(std::vector<Individual> population, std::vector<Individual> offspring) {
    for (Individual &i : offspring) population.push_back(std::move(i));
    return survive(std::move(population));
  }

  // The next chunk of `b`'s tests, bred from `population` (whose ranks and
  // crowding distances are ranks_ and crowding_): kEvaluationBatch over
  // the children and then the inserted tests, so that the last chunks of
  // a generation are not runs of two or five tests (a short batch keeps
  // nothing else busy). Empty when all are made.
  std::vector<testcase::TestCase> chunk(Brood &b, const std::vector<Individual> &population) {
    const auto extra = static_cast<size_t>(std::ceil(o_.testInsertion * static_cast<double>(o_.population)));
    std::vector<testcase::TestCase> children;
    while (children.size() < kEvaluationBatch) {
      if (b.wanted > 0) {
        const Individual &x = population[select()];
        const Individual &y = population[select()];
        testcase::TestCase c1 = x.test, c2 = y.test;
        if (rng_.chance(o_.crossoverRate)) std::tie(c1, c2) = v_.crossover(x.test, y.test);
        v_.mutate(c1, x.run.get());
        v_.mutate(c2, y.run.get());
        for (testcase::TestCase *c : {&c1, &c2})
          if (!c->statements.empty()) {
            children.push_back(std::move(*c));
            if (b.wanted > 0) --b.wanted;
          }
        continue;
      }
      if (!b.inserted) {
        b.inserted = true;
        const auto &solutions = e_.archive().solutions(); // no run changes the archive while it is read
        for (size_t k = 0; k < extra; ++k) {
          testcase::TestCase t;
          if (!solutions.empty() && rng_.chance(0.5)) {
            const Solution &s = rng_.pick(solutions);
            t = *s.test;
            v_.mutate(t, s.run.get());
          } else {
            t = v_.randomTest();
          }
          if (!t.statements.empty()) b.insertion.push_back(std::move(t));
        }
      }
      if (b.insertion.empty()) break;
      children.push_back(std::move(b.insertion.front()));
      b.insertion.pop_front();
    }
    return children;
  }

  std::vector<Individual> survive(std::vector<Individual> all) {
    const std::vector<size_t> goals = targets();
    if (goals.empty()) { // everything covered: the evaluator stops the search
      if (all.size() > o_.population) all.resize(o_.population);
      for (Individual &i : all) {
        i.scored = SIZE_MAX;
        i.pre.clear(); // on goals no longer stored
      }
      scoredGoals_.clear();
      ranks_.assign(all.size(), 0);
      crowding_.assign(all.size(), 0.0);
      return all;
    }
    const SecondaryObjective &secondary = e_.archive().secondary();
    // With a tie-break blind to the goal, the goals no individual entered
    // the function of are constant columns, known without a fitness asked
    // (most of a large unit's: pugixml.cpp's 1,200 of 2,200 targets).
    std::vector<bool> known(goals.size(), false);
    if (!secondary.perGoal()) known = unreached(all, goals);
    std::vector<size_t> stored;
    for (size_t k = 0; k < goals.size(); ++k)
      if (!known[k]) stored.push_back(goals[k]);
    FitnessMatrix f(all.size(), std::move(known), scores(all, stored));
    const TieBreak tieBreak = [&](size_t column, size_t a, size_t b) {
      return secondary.compare(goals[column], {all[a].test, *all[a].run}, {all[b].test, *all[b].run});
    };
    const auto fronts = preferenceSort(f, tieBreak, o_.population, rng_, !secondary.perGoal());
    const size_t remain = std::max(o_.population, fronts.empty() ? 0 : fronts[0].size());
    std::vector<Individual> next;
    std::vector<size_t> ranks;
    std::vector<double> crowding;
    for (size_t r = 0; r < fronts.size() && next.size() < remain; ++r) {
      const std::vector<double> d = crowdingDistance(f, fronts[r]);
      std::vector<size_t> order(fronts[r].size());
      std::iota(order.begin(), order.end(), 0);
      if (next.size() + fronts[r].size() > remain)
        std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return d[x] != d[y] ? d[x] > d[y] : x < y; });
      for (size_t k : order) {
        if (next.size() >= remain) break;
        all[fronts[r][k]].scored = fronts[r][k];
        std::vector<double>().swap(all[fronts[r][k]].pre); // its row is in the matrix now
        next.push_back(std::move(all[fronts[r][k]]));
        ranks.push_back(r);
        crowding.push_back(d[k]);
      }
    }
    ranks_ = std::move(ranks);
    crowding_ = std::move(crowding);
    scoredGoals_ = std::move(stored);
    columns_ = std::move(scored_);
    scored_ = std::move(f).takeColumns();
    scoredIndividuals_ = all.size();
    return next;
  }

  // Per goal of `goals`: whether no individual's run entered its function
  // (Goals::entered), so that each one's fitness for it is notCalled.
  std::vector<bool> unreached(std::vector<Individual> &all, const std::vector<size_t> &goals) const {
    const Goals &g = e_.goals();
    std::vector<bool> reached(g.reach().description().functions.size(), false);
    for (Individual &i : all) {
      if (!i.entered) i.entered = g.enteredFunctions(*i.run);
      for (std::uint32_t fi : *i.entered) reached[fi] = true;
    }
    std::vector<bool> out(goals.size(), false);
    for (size_t k = 0; k < goals.size(); ++k) {
      const size_t fi = g.functionOf(goals[k]);
      out[k] = fi != SIZE_MAX && !reached[fi];
    }
    return out;
  }

  // The individuals' fitness on `goals` (ascending), goal after goal (a
  // FitnessMatrix's columns, in a spare matrix's storage): what each kept
  // from the last selection (its column of scored_, on scoredGoals_,
  // ascending too), the rest computed, and asked of the criteria only for
  // the individuals whose runs entered the goal's function (Goals::fitness:
  // the others are at notCalled).
  std::vector<double> scores(std::vector<Individual> &all, const std::vector<size_t> &goals) {
    const Goals &g = e_.goals();
    const size_t n = all.size();
    // Per function: the individuals whose runs entered it, all of them and
    // the new ones (no row in scored_); each individual's row there, in one
    // array (a column is a gather from it, not a walk over the
    // individuals).
    std::vector<std::vector<std::uint32_t>> enteredBy(g.reach().description().functions.size());
    std::vector<std::vector<std::uint32_t>> newEnteredBy(enteredBy.size());
    std::vector<std::uint32_t> kept, fresh;
    std::vector<size_t> row(n);
    for (size_t i = 0; i < n; ++i) {
      if (!all[i].entered) all[i].entered = g.enteredFunctions(*all[i].run);
      const bool isNew = all[i].scored == SIZE_MAX;
      (isNew ? fresh : kept).push_back(static_cast<std::uint32_t>(i));
      row[i] = all[i].scored;
      for (std::uint32_t fi : *all[i].entered) {
        enteredBy[fi].push_back(static_cast<std::uint32_t>(i));
        if (isNew) newEnteredBy[fi].push_back(static_cast<std::uint32_t>(i));
      }
    }
    std::vector<double> out = std::move(columns_);
    out.resize(n * goals.size());
    size_t old = 0;
    for (size_t k = 0; k < goals.size(); ++k) {
      const size_t goal = goals[k];
      while (old < scoredGoals_.size() && scoredGoals_[old] < goal) ++old;
      const double *before =
          old < scoredGoals_.size() && scoredGoals_[old] == goal ? scored_.data() + old * scoredIndividuals_ : nullptr;
      double *column = out.data() + k * n;
      const size_t fi = g.functionOf(goal);
      if (fi == SIZE_MAX) { // a goal of no function: asked of every run
        for (size_t i = 0; i < n; ++i)
          column[i] = !before                ? g.fitness(goal, *all[i].run)
                      : row[i] != SIZE_MAX   ? before[row[i]]
                      : !all[i].pre.empty() ? all[i].pre[old]
                                             : g.fitness(goal, *all[i].run);
        continue;
      }
      const double far = g.notCalled(goal);
      if (before) {
        for (std::uint32_t i : kept) column[i] = before[row[i]];
        for (std::uint32_t i : fresh) column[i] = all[i].pre.empty() ? far : all[i].pre[old];
        for (std::uint32_t i : newEnteredBy[fi])
          if (all[i].pre.empty()) column[i] = g.fitness(goal, *all[i].run);
      } else {
        std::fill(column, column + n, far);
        for (std::uint32_t i : enteredBy[fi]) column[i] = g.fitness(goal, *all[i].run);
      }
    }
    return out;
  }

  Evaluator &e_;
  Variation &v_;
  Rng &rng_;
  SearchOptions o_;
  bool dynamic_;
  std::vector<bool> current_;
  std::vector<bool> taken_ = std::vector<bool>(e_.goals().reach().description().sides, false); ///< per side: taken by a run
  std::vector<size_t> ranks_;
  std::vector<double> crowding_;
  /// The last survive()'s fitness matrix: its stored goals (ascending), its
  /// columns and how many individuals it had (Individual::scored).
  std::vector<size_t> scoredGoals_;
  std::vector<double> scored_;
  size_t scoredIndividuals_ = 0;
  std::vector<double> columns_; ///< storage for the next matrix (the one before scored_'s)
};

} // namespace

std::unique_ptr<Algorithm> makeMosa(Evaluator &evaluator, Variation &variation, Rng &rng, const SearchOptions &options,
                                    bool dynamic) {
  return std::make_unique<Mosa>(evaluator, variation, rng, options, dynamic);
}

} // namespace mosaic::search

// Budget, evaluator and the choice of algorithm.
#include "mosaic/search/Search.h"

#include "Algorithms.h"

#include <algorithm>
#include <deque>

namespace mosaic::search {

const char *toString(AlgorithmKind kind) {
  switch (kind) {
  case AlgorithmKind::DynaMosa: return "dynamosa";
  case AlgorithmKind::Mosa: return "mosa";
  case AlgorithmKind::WholeSuite: return "ws";
  case AlgorithmKind::Mio: return "mio";
  case AlgorithmKind::Random: return "random";
  case AlgorithmKind::Grt: return "grt";
  }
  return "?";
}

std::optional<AlgorithmKind> parseAlgorithm(const std::string &name) {
  for (AlgorithmKind k : {AlgorithmKind::DynaMosa, AlgorithmKind::Mosa, AlgorithmKind::WholeSuite, AlgorithmKind::Mio,
                          AlgorithmKind::Random, AlgorithmKind::Grt})
    if (name == toString(k)) return k;
  if (name == "wholesuite" || name == "whole-suite") return AlgorithmKind::WholeSuite;
  return std::nullopt;
}

double Budget::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double Budget::used(std::uint64_t executions) const {
  double u = seconds > 0 ? elapsed() / seconds : 0;
  if (maxExecutions) u = std::max(u, static_cast<double>(executions) / static_cast<double>(maxExecutions));
  return std::clamp(u, 0.0, 1.0);
}

Evaluator::Evaluator(const Goals &goals, Archive &archive, Executor &executor, Budget budget)
    : goals_(goals), archive_(archive), executor_(executor), budget_(budget) {}

// Ours: 20 tests in a row that could not run at all (the server restarts
// once per test) mean a harness that dies at start.
bool Evaluator::gaveUp() const { return failures_ > 20 && failures_ > executions_; }

bool Evaluator::allSoughtCovered() const {
  for (size_t g = 0; g < goals_.size(); ++g)
    if (goals_.sought(g) && !archive_.covered(g)) return false;
  return true;
}

bool Evaluator::done() const {
  if (budget_.stop && *budget_.stop) return true;
  // Predicted tests are not executions; a search that only bred them as
  // many times over would stop all the same.
  if (budget_.maxExecutions && std::max(executions_, predicted_) >= budget_.maxExecutions) return true;
  if (budget_.stopWhenCovered && archive_.coveredCount() >= goals_.soughtCount() &&
      (archive_.erroneousCount() == 0 || budget_.failingTestsCover) && allSoughtCovered())
    return true;
  if (gaveUp()) return true; // a harness that cannot run anything: stop rather than spin
  return budget_.elapsed() >= budget_.seconds;
}

void Evaluator::notify(const testcase::TestCase &test, const Execution &run, const exec::Trace *trace, bool searching) {
  const Evaluation ev{test, run, trace, searching};
  for (EvaluationObserver *o : observers_) o->evaluated(*this, ev);
}

void Evaluator::sideTasksTurn() {
  if (inSideTask_) return;
  for (SideTask *task : sideTasks_)
    if (!done() && task->due(*this)) {
      inSideTask_ = true;
      struct Turn {
        bool &in;
        ~Turn() { in = false; }
      } turn{inSideTask_};
      task->run(*this);
    }
}

std::shared_ptr<const Execution> Evaluator::record(const testcase::TestCase &test, Execution run,
                                                   const exec::Trace *trace) {
  ++executions_;
  auto kept = std::make_shared<const testcase::TestCase>(test);
  run.test = kept;
  auto shared = std::make_shared<const Execution>(std::move(run));
  if (goals_.discover(*shared)) archive_.grow(goals_.size());
  fresh_ = archive_.update(kept, shared, goals_.coveredBy(*shared));
  stopped_.add(kept, shared);
  notify(test, *shared, trace, true);
  return shared;
}

std::shared_ptr<const Execution> Evaluator::evaluate(const testcase::TestCase &test) {
  return evaluateAll(std::span(&test, 1)).front();
}

std::vector<std::shared_ptr<const Execution>> Evaluator::evaluateAll(std::span<const testcase::TestCase> tests) {
  std::vector<std::shared_ptr<const Execution>> out(tests.size());
  bool made = false;
  evaluateStream(
      [&] {
        if (made) return std::vector<testcase::TestCase>{};
        made = true;
        return std::vector<testcase::TestCase>(tests.begin(), tests.end());
      },
      [&](size_t id, testcase::TestCase, std::shared_ptr<const Execution> run) { out[id] = std::move(run); });
  return out;
}

void Evaluator::evaluateStream(const MakeTests &make, const TakeRun &take) {
  sideTasksTurn();
  struct Made {
    size_t id;
    testcase::TestCase test;
  };
  std::deque<Made> waiting; // made, not started
  size_t made = 0;
  bool more = true;
  const size_t capacity = std::max<size_t>(1, executor_.batchCapacity());
  BatchBounds bounds{.stop = budget_.stop};
  if (budget_.seconds < 1e8) // ours: past three years, no deadline (and no overflow of the clock's nanoseconds)
    bounds.deadline = budget_.start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          std::chrono::duration<double>(budget_.seconds));
  // A batch's worth of tests waiting, as far as make() has them.
  const auto fill = [&] {
    while (more && waiting.size() < capacity && !done()) {
      std::vector<testcase::TestCase> tests = make();
      if (tests.empty()) more = false;
      for (testcase::TestCase &t : tests) waiting.push_back({made++, std::move(t)});
    }
  };
  std::vector<Made> running, waited; // the batch started; the batch ended, being read
  // The next batch from `waiting`: no more than the executor takes and
  // --max-executions leaves (counting the batch not recorded yet); a test
  // the StoppedPrefixes predict is handed over at once.
  const auto form = [&](size_t unrecorded) {
    std::vector<Made> batch;
    if (done()) return batch;
    size_t cap = capacity;
    if (budget_.maxExecutions) {
      const std::uint64_t used = std::max(executions_ + unrecorded, predicted_);
      cap = std::min<std::uint64_t>(cap, used >= budget_.maxExecutions ? 0 : budget_.maxExecutions - used);
    }
    while (batch.size() < cap) {
      if (waiting.empty()) fill();
      if (waiting.empty()) break;
      Made m = std::move(waiting.front());
      waiting.pop_front();
      if (m.test.statements.empty()) continue;
      if (auto known = stopped_.find(m.test)) {
        ++predicted_;
        take(m.id, std::move(m.test), std::move(known));
        continue;
      }
      batch.push_back(std::move(m));
    }
    return batch;
  };
  const auto start = [&](std::vector<Made> batch) {
    running = std::move(batch);
    if (running.empty()) return;
    std::vector<const testcase::TestCase *> tests;
    for (const Made &m : running) tests.push_back(&m.test);
    executor_.startBatch(tests, bounds);
  };
  std::vector<size_t> fresh;
  start(form(0));
  while (!running.empty()) {
    const size_t ran = std::min(executor_.waitBatch(), running.size());
    waited = std::move(running); // the executor's pointers to the tests stay valid: the buffer moves
    running.clear();
    // Cut short (a deadline, a slow test, Ctrl-C): the tests not started go
    // first into the next batch.
    for (size_t k = waited.size(); k-- > ran;) waiting.push_front(std::move(waited[k]));
    waited.resize(ran);
    if (ran > 0) start(form(ran)); // runs while this one is read
    std::vector<std::optional<Execution>> runs = executor_.takeBatch();
    for (size_t k = 0; k < runs.size() && k < waited.size(); ++k) {
      if (!runs[k]) {
        ++failures_;
        continue;
      }
      auto run = record(waited[k].test, std::move(*runs[k]), executor_.batchTrace(k));
      fresh.insert(fresh.end(), fresh_.begin(), fresh_.end());
      take(waited[k].id, std::move(waited[k].test), std::move(run));
    }
    waited.clear();
    fill(); // the next batch's tests, while this one runs
  }
  fresh_ = std::move(fresh);
}

std::optional<Execution> Evaluator::execute(const testcase::TestCase &test) {
  auto run = executor_.run(test);
  if (run) notify(test, *run, executor_.trace(), false);
  return run;
}

void Evaluator::finish() {
  for (EvaluationObserver *o : observers_) o->finished(*this);
}

std::vector<CriterionCoverage> coverageByCriterion(const Goals &goals, const std::vector<bool> &covered) {
  std::vector<CriterionCoverage> out;
  for (const auto &c : goals.criteria()) out.push_back({c.get(), 0, 0});
  for (size_t g = 0; g < goals.size(); ++g)
    for (CriterionCoverage &c : out)
      if (goals[g].criterion == c.criterion) {
        ++c.total;
        c.covered += g < covered.size() && covered[g];
      }
  return out;
}

std::vector<CriterionCoverage> coverageByCriterion(const Goals &goals, const Archive &archive) {
  std::vector<bool> covered(goals.size());
  for (size_t g = 0; g < goals.size(); ++g) covered[g] = archive.covered(g);
  return coverageByCriterion(goals, covered);
}

std::unique_ptr<Algorithm> makeAlgorithm(AlgorithmKind kind, Evaluator &evaluator, Variation &variation, Rng &rng,
                                         const SearchOptions &options) {
  switch (kind) {
  case AlgorithmKind::DynaMosa: return makeMosa(evaluator, variation, rng, options, true);
  case AlgorithmKind::Mosa: return makeMosa(evaluator, variation, rng, options, false);
  case AlgorithmKind::WholeSuite: return makeWholeSuite(evaluator, variation, rng, options);
  case AlgorithmKind::Mio: return makeMio(evaluator, variation, rng, options);
  case AlgorithmKind::Random: return makeRandom(evaluator, variation);
  case AlgorithmKind::Grt: return makeGrt(evaluator, variation, rng, options);
  }
  return nullptr;
}

} // namespace mosaic::search

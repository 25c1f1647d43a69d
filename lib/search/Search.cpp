// Budget, evaluator and the choice of algorithm.
#include "mosaic/search/Search.h"

#include "Algorithms.h"

#include <chrono>
#include <algorithm>
#include <deque>
#include <map>

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

bool Evaluator::open(size_t goal) const {
  if (!archive_.covered(goal)) return true;
  return !budget_.failingTestsCover && archive_.at(goal).run->failed() && !goals_[goal].failure;
}

bool Evaluator::done() const {
  if (budget_.stop && *budget_.stop) return true;
  // Predicted tests are not executions; a search that only bred them as
  // many times over would stop all the same.
  if (budget_.maxExecutions && std::max(executions_, predicted_) >= budget_.maxExecutions) return true;
  if (budget_.doneWhenCovered && *budget_.doneWhenCovered < goals_.size() && archive_.covered(*budget_.doneWhenCovered))
    return true;
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

bool Evaluator::sideTaskDue() {
  if (inSideTask_ || done()) return false;
  for (SideTask *task : sideTasks_)
    if (task->due(*this)) return true;
  return false;
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
  // A batch's worth at a time, so that a test is predicted from the runs
  // of the batches two before its own (evaluateStream's rule).
  const size_t chunk = std::max<size_t>(1, executor_.batchCapacity());
  size_t given = 0;
  evaluateStream(
      [&] {
        const size_t n = std::min(chunk, tests.size() - given);
        std::vector<testcase::TestCase> next(tests.begin() + static_cast<std::ptrdiff_t>(given),
                                             tests.begin() + static_cast<std::ptrdiff_t>(given + n));
        given += n;
        return next;
      },
      [&](size_t id, testcase::TestCase, std::shared_ptr<const Execution> run) { out[id] = std::move(run); });
  return out;
}

// The stream is deterministic whatever the timing: which batches a cut
// (a deadline, a slow test, Ctrl-C) splits the tests into changes nothing
// a later test depends on. For that, make()'s j-th call (chunk j) comes
// after the runs of chunks 0..j-2 are recorded and before any run of chunk
// j-1 is (the archive, the observers and the StoppedPrefixes it sees are
// those of a fixed set of runs), a chunk's tests the StoppedPrefixes
// predict are predicted as it is made, and take() hears of the tests in
// the order they were made. Without cuts the pipeline never waits for the
// rule: chunk j is made while the batch of chunk j-1 runs.
void Evaluator::evaluateStream(const MakeTests &make, const TakeRun &take) {
  sideTasksTurn();
  struct Made {
    size_t id;
    testcase::TestCase test;
  };
  std::deque<Made> waiting;       // made, not started (or started and cut before they ran)
  std::vector<size_t> chunkStart; // the id of each chunk's first test
  std::vector<bool> resolved;     // per id: run and recorded, predicted, or dropped
  std::map<size_t, std::pair<testcase::TestCase, std::shared_ptr<const Execution>>> ready; // resolved, not taken
  size_t made = 0, cursor = 0; // ids below the cursor are resolved and taken
  bool more = true;
  const size_t capacity = std::max<size_t>(1, executor_.batchCapacity());
  BatchBounds bounds{.stop = budget_.stop};
  if (budget_.seconds < 1e8) // ours: past three years, no deadline (and no overflow of the clock's nanoseconds)
    bounds.deadline = budget_.start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          std::chrono::duration<double>(budget_.seconds));
  const auto resolve = [&](size_t id, testcase::TestCase test, std::shared_ptr<const Execution> run) {
    resolved[id] = true;
    if (run) ready.emplace(id, std::make_pair(std::move(test), std::move(run)));
    for (; cursor < made && resolved[cursor]; ++cursor)
      if (auto it = ready.find(cursor); it != ready.end()) {
        take(cursor, std::move(it->second.first), std::move(it->second.second));
        ready.erase(it);
      }
  };
  // make()'s next chunk, if the rule above lets it come now.
  const auto makeOnce = [&] {
    const size_t j = chunkStart.size();
    if (!more || done() || (j >= 2 && cursor < chunkStart[j - 1])) return false;
    std::vector<testcase::TestCase> tests = make();
    if (tests.empty()) {
      more = false;
      return false;
    }
    chunkStart.push_back(made);
    for (testcase::TestCase &t : tests) {
      const size_t id = made++;
      resolved.push_back(false);
      if (t.statements.empty()) {
        resolve(id, {}, nullptr);
      } else if (auto known = stopped_.find(t)) {
        ++predicted_;
        resolve(id, std::move(t), std::move(known));
      } else {
        waiting.push_back({id, std::move(t)});
      }
    }
    return true;
  };
  const auto fill = [&] {
    while (waiting.size() < capacity && makeOnce()) {
    }
  };
  std::vector<Made> running, waited; // the batch started; the batch ended, being read
  // The next batch from `waiting`: no more than the executor takes and
  // --max-executions leaves (counting the batch not recorded yet).
  const auto form = [&](size_t unrecorded) {
    std::vector<Made> batch;
    if (done()) return batch;
    size_t cap = capacity;
    if (budget_.maxExecutions) {
      const std::uint64_t used = std::max(executions_ + unrecorded, predicted_);
      cap = std::min<std::uint64_t>(cap, used >= budget_.maxExecutions ? 0 : budget_.maxExecutions - used);
    }
    if (waiting.empty()) fill();
    while (batch.size() < cap && !waiting.empty()) {
      batch.push_back(std::move(waiting.front()));
      waiting.pop_front();
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
  const auto chunkOf = [&](size_t id) {
    return static_cast<size_t>(std::upper_bound(chunkStart.begin(), chunkStart.end(), id) - chunkStart.begin()) - 1;
  };
  std::vector<size_t> fresh;
  fill();
  start(form(0));
  fill(); // the second chunk while the first runs (the rule lets it come before any run is recorded)
  while (!running.empty()) {
    const auto waitFrom = std::chrono::steady_clock::now();
    const size_t ran = std::min(executor_.waitBatch(), running.size());
    waitSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - waitFrom).count();
    waited = std::move(running); // the executor's pointers to the tests stay valid: the buffer moves
    running.clear();
    // Cut short: the tests not started go first into the next batch.
    for (size_t k = waited.size(); k-- > ran;) waiting.push_front(std::move(waited[k]));
    waited.resize(ran);
    if (ran > 0) start(form(ran)); // runs while this one is read
    std::vector<std::optional<Execution>> runs = executor_.takeBatch();
    for (size_t k = 0; k < waited.size(); ++k) {
      const size_t id = waited[k].id;
      // The chunk after this test's is made before this test's run is recorded.
      while (chunkStart.size() < chunkOf(id) + 2 && makeOnce()) {
      }
      if (k >= runs.size() || !runs[k]) {
        ++failures_;
        resolve(id, {}, nullptr);
        continue;
      }
      auto run = record(waited[k].test, std::move(*runs[k]), executor_.batchTrace(k));
      fresh.insert(fresh.end(), fresh_.begin(), fresh_.end());
      resolve(id, std::move(waited[k].test), std::move(run));
    }
    waited.clear();
    executor_.releaseBatch(); // its slots cleared now, not when the server waits for the next
    fill();                   // the next batch's tests, while this one runs
    if (running.empty() && ran > 0) start(form(0)); // what the rule held back when the batch was formed
  }
  // Tests after one that never ran (the budget ended first), in order.
  for (auto &[id, made] : ready) take(id, std::move(made.first), std::move(made.second));
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

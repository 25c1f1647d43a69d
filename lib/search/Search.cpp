// Budget, evaluator and the choice of algorithm.
#include "mosaic/search/Search.h"

#include "Algorithms.h"

#include <algorithm>

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
  sideTasksTurn();
  std::vector<size_t> fresh, batch;
  std::vector<const testcase::TestCase *> runNow;
  BatchBounds bounds{.stop = budget_.stop};
  if (budget_.seconds < 1e8) // ours: past three years, no deadline (and no overflow of the clock's nanoseconds)
    bounds.deadline = budget_.start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          std::chrono::duration<double>(budget_.seconds));
  size_t next = 0;
  while (next < tests.size() && !done()) {
    size_t cap = std::max<size_t>(1, executor_.batchCapacity());
    if (budget_.maxExecutions) // done() says fewer have run
      cap = std::min<std::uint64_t>(cap, budget_.maxExecutions - std::max(executions_, predicted_));
    batch.clear();
    runNow.clear();
    for (; next < tests.size() && batch.size() < cap; ++next) {
      if (out[next] || tests[next].statements.empty()) continue; // predicted before a cut
      if (auto known = stopped_.find(tests[next])) {
        ++predicted_;
        out[next] = std::move(known);
        continue;
      }
      batch.push_back(next);
      runNow.push_back(&tests[next]);
    }
    if (batch.empty()) continue;
    std::vector<std::optional<Execution>> runs = executor_.runBatch(runNow, bounds);
    if (runs.empty()) break; // against its contract: nothing would ever run
    if (runs.size() < batch.size()) next = batch[runs.size()]; // cut short: the rest from its first test not run
    for (size_t k = 0; k < runs.size(); ++k) {
      if (!runs[k]) {
        ++failures_;
        continue;
      }
      out[batch[k]] = record(tests[batch[k]], std::move(*runs[k]), executor_.batchTrace(k));
      fresh.insert(fresh.end(), fresh_.begin(), fresh_.end());
    }
  }
  fresh_ = std::move(fresh);
  return out;
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

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
  }
  return "?";
}

std::optional<AlgorithmKind> parseAlgorithm(const std::string &name) {
  for (AlgorithmKind k : {AlgorithmKind::DynaMosa, AlgorithmKind::Mosa, AlgorithmKind::WholeSuite, AlgorithmKind::Mio,
                          AlgorithmKind::Random})
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

Evaluator::Evaluator(const Goals &goals, Archive &archive, Executor executor, Budget budget)
    : goals_(goals), archive_(archive), executor_(std::move(executor)), budget_(budget) {}

bool Evaluator::done() const {
  if (budget_.stop && *budget_.stop) return true;
  if (budget_.maxExecutions && executions_ >= budget_.maxExecutions) return true;
  if (archive_.coveredCount() == goals_.size()) return true;
  // A harness that cannot run anything: stop rather than spin.
  if (failures_ > 20 && failures_ > executions_) return true;
  return budget_.elapsed() >= budget_.seconds;
}

std::shared_ptr<const Execution> Evaluator::evaluate(const testcase::TestCase &test) {
  fresh_.clear();
  if (done() || test.statements.empty()) return nullptr;
  auto run = executor_(test);
  if (!run) {
    ++failures_;
    return nullptr;
  }
  ++executions_;
  auto shared = std::make_shared<const Execution>(std::move(*run));
  fresh_ = archive_.update(std::make_shared<const testcase::TestCase>(test), shared, goals_.coveredBy(*shared));
  if (onEvaluated) onEvaluated(*this);
  return shared;
}

std::unique_ptr<Algorithm> makeAlgorithm(AlgorithmKind kind, Evaluator &evaluator, Variation &variation, Rng &rng,
                                         const SearchOptions &options) {
  switch (kind) {
  case AlgorithmKind::DynaMosa: return makeMosa(evaluator, variation, rng, options, true);
  case AlgorithmKind::Mosa: return makeMosa(evaluator, variation, rng, options, false);
  case AlgorithmKind::WholeSuite: return makeWholeSuite(evaluator, variation, rng, options);
  case AlgorithmKind::Mio: return makeMio(evaluator, variation, rng, options);
  case AlgorithmKind::Random: return makeRandom(evaluator, variation);
  }
  return nullptr;
}

} // namespace mosaic::search

// Bloodhound (Bloodhound.h): per-callable weights from the archive's
// uncovered goals and the calls that ran normally.
#include "mosaic/search/Bloodhound.h"

#include <algorithm>
#include <map>
#include <string>

namespace mosaic::search {

namespace {
constexpr std::uint32_t kNone = 0xffffffffu;
} // namespace

Bloodhound::Bloodhound(const Evaluator &evaluator, const model::Program &program, const GrtOptions &options)
    : e_(evaluator), o_(options), function_(program.callables.size(), kNone),
      uncovered_(program.callables.size(), 0.5), successes_(program.callables.size(), 0),
      selections_(program.callables.size(), 0) {
  std::map<std::string, std::uint32_t> byName;
  const auto &functions = e_.goals().reach().description().functions;
  for (std::uint32_t f = 0; f < functions.size(); ++f) byName[functions[f].linkageName] = f;
  for (const model::Callable &c : program.callables)
    for (const std::string &name : c.linkageNames)
      if (auto it = byName.find(name); it != byName.end() && c.id < function_.size()) function_[c.id] = it->second;
  update();
}

bool Bloodhound::due() const {
  if (e_.budget().maxExecutions == 0) return e_.budget().elapsed() >= nextUpdate_;
  return successfulSinceUpdate_ >= kUpdateEvery;
}

void Bloodhound::update() {
  const Goals &goals = e_.goals();
  const size_t functions = goals.reach().description().functions.size();
  std::vector<size_t> uncovered(functions, 0), all(functions, 0);
  for (size_t g = 0; g < goals.size(); ++g) {
    const std::uint32_t f = goals[g].function;
    if (!goals.sought(g) || f >= functions) continue;
    ++all[f];
    uncovered[f] += !e_.archive().covered(g);
  }
  for (size_t c = 0; c < uncovered_.size(); ++c) {
    const std::uint32_t f = function_[c];
    // No goals of its own known: Randoop's 0.5.
    uncovered_[c] = f == kNone || all[f] == 0 ? 0.5 : static_cast<double>(uncovered[f]) / static_cast<double>(all[f]);
  }
  std::fill(selections_.begin(), selections_.end(), 0);
  successfulSinceUpdate_ = 0;
  const double period = std::max(1.0, e_.budget().seconds * o_.updateShare);
  nextUpdate_ = e_.budget().elapsed() + period;
}

model::CallableId Bloodhound::choose(const std::vector<model::CallableId> &ids,
                                     const std::function<double(model::CallableId)> &staticWeight, Rng &rng) {
  if (due()) update();
  std::uint64_t maxSuccesses = 0;
  for (model::CallableId c : ids) maxSuccesses = std::max(maxSuccesses, successes(c));
  std::vector<double> w;
  w.reserve(ids.size());
  if (decayCallables_ != ids.size()) {
    decay_.clear();
    decayCallables_ = ids.size();
  }
  for (model::CallableId c : ids) {
    const std::uint64_t k = c < selections_.size() ? selections_[c] : 0;
    const double base =
        bloodhoundBase(uncoveredShare(c), static_cast<double>(successes(c)), static_cast<double>(maxSuccesses), o_.alpha);
    w.push_back((k == 0 ? base : decay(k) * base) * (staticWeight ? staticWeight(c) : 1.0));
  }
  model::CallableId chosen = rng.pick(ids);
  if (const auto k = rng.weighted(w.size(), [&](size_t k) { return w[k]; })) chosen = ids[*k];
  if (chosen < selections_.size()) ++selections_[chosen];
  return chosen;
}

double Bloodhound::decay(std::uint64_t k) {
  // Selections since an update stay in the thousands: a table of them
  // (a std::pow a callable a choice was 6% of GRT's own time).
  constexpr std::uint64_t kTabled = 1 << 16; // ours
  if (k >= kTabled) return bloodhoundDecay(k, decayCallables_, o_.p);
  while (decay_.size() <= k) decay_.push_back(bloodhoundDecay(decay_.size(), decayCallables_, o_.p));
  return decay_[k];
}

model::CallableId Bloodhound::choose(const std::vector<model::CallableId> &ids, Rng &rng) {
  return choose(ids, nullptr, rng);
}

void Bloodhound::succeeded(model::CallableId c) {
  if (c < successes_.size()) ++successes_[c];
  ++successfulSinceUpdate_;
}

void Bloodhound::evaluated(const Evaluator &, const Evaluation &evaluation) {
  if (!evaluation.searching) return;
  const testcase::TestCase &t = evaluation.test;
  const Execution &run = evaluation.run;
  // Statements the run finished: those it started, but the one it stopped at.
  const size_t finished = std::min(t.statements.size(), run.statements.size());
  for (size_t i = 0; i < finished; ++i)
    if (static_cast<int>(i) != run.stoppedAt && testcase::isCall(t.statements[i].op)) succeeded(t.statements[i].callable);
}

} // namespace mosaic::search

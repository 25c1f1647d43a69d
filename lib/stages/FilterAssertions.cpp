// FilterAssertions: the assertions a mutant of the unit would notice (Stage.h).
#include "Keeps.h"

#include <algorithm>

namespace mosaic::stages {

namespace {

bool sameEnding(const search::Execution &a, const search::Execution &b) {
  return a.outcome() == b.outcome() && a.threw == b.threw && a.stoppedAt == b.stoppedAt &&
         a.exceptionType == b.exceptionType;
}

bool isReturnValue(const exec::Observation &o) { return o.target == MOSAIC_OBS_RESULT && o.field == -1; }

// At most `n` of `all`, spread evenly (deterministic: no seed to pin).
std::vector<std::uint32_t> spread(const std::vector<std::uint32_t> &all, size_t n) {
  if (all.size() <= n) return all;
  std::vector<std::uint32_t> out;
  for (size_t k = 0; k < n; ++k)
    out.push_back(all[k * all.size() / n]);
  return out;
}

class FilterAssertions final : public Stage {
public:
  std::string_view name() const override { return "filter-assertions"; }
  void run(Work &w, Context &c) override {
    if (!c.mutants) return;
    for (Candidate &k : w.passing) {
      w.counts.assertionsBefore += static_cast<int>(k.observations.size());
      if (!c.failureDeadline.passed()) filter(k, w, c);
      w.counts.assertionsAfter += static_cast<int>(k.observations.size());
    }
  }

private:
  static void filter(Candidate &k, Work &w, Context &c) {
    std::vector<std::uint32_t> reached;
    const auto original = c.mutants->run(k.test, std::nullopt, &reached);
    ++w.counts.mutantRuns;
    if (!original || original->failed()) return;
    std::vector<bool> earns(k.observations.size(), false);
    for (std::uint32_t m : spread(reached, kMutantsPerTest)) {
      if (c.failureDeadline.passed()) return; // unfinished: keeps every assertion
      const auto mutated = c.mutants->run(k.test, m);
      ++w.counts.mutantRuns;
      ++w.counts.mutantsTried;
      if (!mutated) continue;
      // A mutant the test's ending tells apart needs no assertion; else each
      // observation it changes (or takes away) earns its place.
      const bool sameEnd = sameEnding(*original, *mutated);
      bool told = !sameEnd;
      for (size_t i = 0; i < k.observations.size() && sameEnd; ++i)
        if (std::none_of(mutated->observations.begin(), mutated->observations.end(),
                         [&](const exec::Observation &b) { return sameObservation(k.observations[i], b); }))
          earns[i] = told = true;
      w.counts.mutantsKilled += told;
    }
    std::vector<exec::Observation> kept;
    for (size_t i = 0; i < k.observations.size(); ++i)
      if (earns[i] || isReturnValue(k.observations[i])) kept.push_back(k.observations[i]);
    if (!kept.empty()) k.observations = std::move(kept);
  }
};

} // namespace

std::unique_ptr<Stage> filterAssertions() { return std::make_unique<FilterAssertions>(); }

} // namespace mosaic::stages

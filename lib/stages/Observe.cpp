// Observe: the values a test shows alike in every run (Stage.h).
#include "Keeps.h"

#include <algorithm>
#include <cstring>

namespace mosaic::stages {

namespace {

struct Observed {
  bool ok = false; ///< ran without failing, every time
  std::vector<exec::Observation> stable;
  int threwAt = -1;
  std::string exceptionType;
  int nullAt = -1; ///< a statement that needed an object behind a null pointer
};

// Three runs: twice in a fresh process forked from the running server, once
// in the server started afresh (another address-space layout, and other bytes
// in fresh and freed heap memory: Generate.cpp); keeps what
// every run observed alike.
Observed observeOnce(const testcase::TestCase &t, Context &c) {
  Observed o;
  constexpr int kRuns = 3; // ours: two layouts, and a repeat on the first
  std::vector<std::vector<exec::Observation>> runs;
  for (int k = 0; k < kRuns; ++k) {
    search::Executor &executor = (k == 2 && c.fresh) ? *c.fresh : c.isolated;
    auto r = executor.run(t);
    if (!r || r->outcome() != exec::Outcome::Ok) return o;
    if (k == 0 && r->threw && r->stoppedAt >= 0) {
      const auto status = r->statements[static_cast<size_t>(r->stoppedAt)].status;
      if (status == MOSAIC_STMT_NULL) o.nullAt = r->stoppedAt;
      else o.threwAt = r->stoppedAt;
    }
    runs.push_back(std::move(r->observations));
  }
  for (const exec::Observation &a : runs[0]) {
    if (a.kind == MOSAIC_OBS_EXCEPTION) {
      if (static_cast<int>(a.statement) == o.threwAt) o.exceptionType = a.bytes.substr(0, a.bytes.find('\0'));
      continue;
    }
    if (a.kind == MOSAIC_OBS_UNREADABLE) continue;
    bool everywhere = true;
    for (size_t k = 1; k < runs.size() && everywhere; ++k)
      everywhere = std::any_of(runs[k].begin(), runs[k].end(), [&](const exec::Observation &b) { return sameObservation(a, b); });
    // The same observation twice for a statement (a value observed through
    // two names) is asserted once.
    if (everywhere && std::none_of(o.stable.begin(), o.stable.end(), [&](const exec::Observation &b) { return sameObservation(a, b); }))
      o.stable.push_back(a);
  }
  o.ok = true;
  return o;
}

class Observe final : public Stage {
public:
  std::string_view name() const override { return "observe"; }

  void run(Work &work, Context &c) override {
    std::vector<Candidate> kept;
    for (Candidate &k : work.passing) {
      Observed o = observeOnce(k.test, c);
      if (o.ok && o.nullAt >= 0) {
        k.test.statements.resize(static_cast<size_t>(o.nullAt));
        o = k.test.statements.empty() ? Observed{} : observeOnce(k.test, c);
      }
      if (!o.ok) {
        ++work.counts.unstable;
        continue;
      }
      k.observations = std::move(o.stable);
      k.threwAt = o.threwAt;
      k.exceptionType = std::move(o.exceptionType);
      kept.push_back(std::move(k));
    }
    work.passing = std::move(kept);
  }
};

} // namespace

std::unique_ptr<Stage> observe() { return std::make_unique<Observe>(); }

} // namespace mosaic::stages

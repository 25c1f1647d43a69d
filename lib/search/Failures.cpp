// Exception coverage (seed 001's EC; ALGORITHMS.md §6.2): for each callable
// the tests call, every way a call of it ended a test: a C++ exception by
// its type, a crash by its signal, an abort, an exit by its code, a hang,
// running out of memory, a sanitizer report. Goals are found at run time
// (Criterion::discover), covered by the run that found them; a test that
// stopped because it needed an object behind a null pointer the test itself
// passed (MOSAIC_STMT_NULL) shows no failure of the callee.
#include "mosaic/search/Criteria.h"

#include <csignal>
#include <cstring>

namespace mosaic::search {

namespace {

// How the run ended, as a failure kind; "" when it did not fail.
std::string failureKind(const Execution &e) {
  using exec::Outcome;
  if (e.outcome() == Outcome::Ok) return e.threw && !e.exceptionType.empty() ? "throws " + e.exceptionType : "";
  switch (e.outcome()) {
  case Outcome::Crash: {
    const char *name = sigabbrev_np(e.result.signal);
    return std::string("crashes (") + (name ? std::string("SIG") + name : std::to_string(e.result.signal)) + ")";
  }
  case Outcome::Abort:
    return "aborts";
  case Outcome::Timeout:
    return "hangs";
  case Outcome::Exit:
    return "exits with " + std::to_string(e.result.exitCode);
  case Outcome::Sanitizer:
    return "makes a sanitizer report";
  case Outcome::OutOfMemory:
    return "runs out of memory";
  default:
    return "";
  }
}

class FailureCriterion final : public Criterion {
public:
  std::string_view name() const override { return "exception"; }
  std::string_view plural() const override { return "failure modes"; }
  void goals(std::uint32_t, const Reach &, std::vector<Goal> &) const override {}
  void discover(const Execution &e, const Targets &targets, const Reach &reach, std::vector<Goal> &out) const override {
    if (!e.stoppedCallable || !targets.program) return;
    const std::string kind = failureKind(e);
    if (kind.empty()) return;
    const model::Callable &c = targets.program->callable(*e.stoppedCallable);
    Goal g{.function = reach.functionOf(c.linkageNames), .line = c.location.beginLine};
    g.failure = FailureGoal{c.id, kind};
    g.label = c.qualifiedName + "() " + kind;
    out.push_back(std::move(g));
  }
  bool covered(const Goal &g, const Execution &e) const override {
    return e.stoppedCallable == g.failure->callable && failureKind(e) == g.failure->kind;
  }
  double fitness(const Goal &g, const Execution &e, const Reach &) const override { return covered(g, e) ? 0.0 : 1.0; }
  double notCalled(const Goal &, const Reach &) const override { return 1.0; }
};

} // namespace

std::unique_ptr<const Criterion> failureCriterion() { return std::make_unique<FailureCriterion>(); }

} // namespace mosaic::search

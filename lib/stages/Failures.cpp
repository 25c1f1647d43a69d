// Recording failures as runs meet them, and minimising them (Failures.h, Stage.h).
#include "mosaic/stages/Failures.h"

#include "mosaic/stages/Classify.h"

#include <fmt/format.h>

#include <optional>

namespace mosaic::stages {

bool isFailure(exec::Outcome o) { return o != exec::Outcome::Ok && o != exec::Outcome::HarnessError; }

std::string whereOf(const model::Program &p, const testcase::TestCase &t, int statement) {
  if (statement < 0 || static_cast<size_t>(statement) >= t.statements.size()) return "(after the last statement)";
  const testcase::Statement &s = t.statements[statement];
  if (s.op == testcase::Op::Call || s.op == testcase::Op::MethodCall || s.op == testcase::Op::Construct)
    return p.callable(s.callable).qualifiedName;
  return "(building a value)";
}

std::string failureKey(const exec::RunResult &r, const std::string &where) {
  return fmt::format("{}/{}/{}", exec::toString(r.outcome), r.signal, where);
}

void FailureRecorder::evaluated(const search::Evaluator &, const search::Evaluation &ev) {
  const exec::RunResult &r = ev.run.result;
  if (!isFailure(r.outcome)) return;
  const std::string where = whereOf(p_, ev.test, r.statement);
  std::string key = failureKey(r, where);
  if (catalog_) key += std::string("/") + toString(classify(*catalog_, ev.test, r, ev.run.observations).kind);
  Failure &f = failures_[key];
  if (f.count++ == 0 || ev.test.statements.size() < f.test.statements.size()) {
    f.test = ev.test;
    f.result = r;
    f.where = where;
    f.output = ev.trace ? std::string(ev.trace->output()) : std::string();
  }
}

namespace {

class MinimiseFailures final : public Stage {
public:
  std::string_view name() const override { return "minimise-failures"; }

  void run(Work &work, Context &c) override {
    for (auto &[key, failure] : work.failures) {
      if (c.failureDeadline.passed()) break;
      minimiseOne(c, failure, work.counts.failureRuns);
    }
  }

private:
  // Delta debugging in its simplest form: one statement at a time, from
  // the end backwards.
  static void minimiseOne(const Context &c, Failure &failure, int &runs) {
    constexpr int kMaxRuns = 200; // per failure; ours
    int used = 0;
    const std::string key = failureKey(failure.result, failure.where);
    // A smaller test must fail the same way and make no less trusted a
    // claim than the test itself run alone (the first run below): dropping
    // what the API made for an argument would turn a likely defect into
    // misuse.
    std::optional<FailureClass> claim;
    bool confirmed = false;
    auto same = [&](const testcase::TestCase &t) {
      ++used;
      ++runs;
      auto r = (confirmed && c.candidates ? *c.candidates : c.isolated).run(t);
      confirmed = true;
      if (!r || failureKey(r->result, whereOf(c.program, t, r->result.statement)) != key) return false;
      const FailureClass k = classify(c.catalog, t, r->result, r->observations).kind;
      if (!claim) claim = k;
      return k <= *claim;
    };
    const bool reproduced = same(failure.test);
    failure.confirmed = true;
    if (!reproduced) {
      failure.reproducible = false;
      return;
    }
    for (size_t i = failure.test.statements.size(); i-- > 0 && used < kMaxRuns && !c.failureDeadline.passed();) {
      if (i >= failure.test.statements.size()) continue;
      testcase::TestCase candidate = testcase::withoutStatement(failure.test, i);
      if (!candidate.statements.empty() && same(candidate)) failure.test = std::move(candidate);
    }
  }
};

} // namespace

std::unique_ptr<Stage> minimiseFailures() { return std::make_unique<MinimiseFailures>(); }

} // namespace mosaic::stages

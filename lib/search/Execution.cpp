// An Execution from a run's result and trace.
#include "mosaic/search/Execution.h"

#include "mosaic/testcase/TestCase.h"

namespace mosaic::search {

Execution toExecution(const exec::RunResult &result, const exec::Trace &trace, const ExecutorOptions &options) {
  Execution e;
  e.result = result;
  e.sides.assign(trace.sides().begin(), trace.sides().end());
  e.mutants.assign(trace.mutants().begin(), trace.mutants().end());
  e.direct.assign(trace.direct().begin(), trace.direct().end());
  if (options.directSides) e.directSides.assign(trace.directSides().begin(), trace.directSides().end());
  e.blocks.assign(trace.blocks().begin(), trace.blocks().end());
  const auto stmts = trace.statements();
  e.statements.reserve(stmts.size());
  for (const mosaic_stmt_record &s : stmts) e.statements.push_back({static_cast<std::uint8_t>(s.status), s.nanos});
  for (size_t k = 0; k < stmts.size(); ++k)
    if (stmts[k].status == MOSAIC_STMT_THREW || stmts[k].status == MOSAIC_STMT_NULL) {
      e.stoppedAt = static_cast<int>(k);
      e.threw = true;
      break;
    }
  if (e.failed() && result.statement >= 0) e.stoppedAt = result.statement;
  if (result.outcome == exec::Outcome::Sanitizer) e.report = std::string(trace.output());
  const bool threwException =
      e.threw && e.stoppedAt >= 0 && static_cast<size_t>(e.stoppedAt) < stmts.size() && stmts[e.stoppedAt].status == MOSAIC_STMT_THREW;
  if (options.observations || threwException) {
    std::vector<exec::Observation> observed = trace.observations();
    if (threwException)
      for (const exec::Observation &o : observed)
        if (o.kind == MOSAIC_OBS_EXCEPTION && static_cast<int>(o.statement) == e.stoppedAt) {
          e.exceptionType = o.bytes.substr(0, o.bytes.find('\0'));
          break;
        }
    if (options.observations) e.observations = std::move(observed);
  }
  return e;
}

void noteStoppedCallable(Execution &e, const testcase::TestCase &test) {
  if (e.stoppedAt < 0 || static_cast<size_t>(e.stoppedAt) >= test.statements.size()) return;
  const testcase::Statement &s = test.statements[static_cast<size_t>(e.stoppedAt)];
  if (s.op == testcase::Op::Call || s.op == testcase::Op::MethodCall || s.op == testcase::Op::Construct)
    e.stoppedCallable = s.callable;
}

void collectOutputs(Execution &e, const testcase::TestCase &test, const std::vector<exec::Observation> &observed) {
  e.outputs.clear();
  for (const exec::Observation &o : observed) {
    if (o.target != MOSAIC_OBS_RESULT || o.statement >= test.statements.size()) continue;
    const testcase::Statement &s = test.statements[o.statement];
    if (s.op != testcase::Op::Call && s.op != testcase::Op::MethodCall) continue;
    e.outputs.push_back({s.callable, o.field, o.kind, o.integer, o.floating, o.bytes.size()});
  }
}

} // namespace mosaic::search

// `mosaic run`.
#include "mosaic/driver/Run.h"

#include "Executors.h"
#include "Faults.h"
#include "Interrupt.h"
#include "Output.h"
#include "Progress.h"
#include "RunReport.h"
#include "Session.h"
#include "mosaic/search/Observers.h"
#include "mosaic/search/Secondary.h"
#include "mosaic/stages/Failures.h"
#include "mosaic/testcase/TestFactory.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>


namespace mosaic::driver {

std::optional<double> parseDuration(const std::string &text) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (...) {
    return std::nullopt;
  }
  const std::string unit = text.substr(used);
  if (v < 0) return std::nullopt;
  if (unit.empty() || unit == "s") return v;
  if (unit == "ms") return v / 1000;
  if (unit == "m" || unit == "min") return v * 60;
  if (unit == "h") return v * 3600;
  return std::nullopt;
}

namespace {

// Tests the harness could not perform: a disagreement between the test
// factory and the harness generator, i.e. a bug of mosaic's. The first
// five are kept for the report, with the statement it could not perform.
class HarnessErrors final : public search::EvaluationObserver {
public:
  void evaluated(const search::Evaluator &, const search::Evaluation &ev) override {
    constexpr size_t kKept = 5; // ours: enough to see the pattern in the report
    if (ev.run.outcome() != exec::Outcome::HarnessError || kept.size() >= kKept) return;
    int invalid = -1;
    for (size_t k = 0; k < ev.run.statements.size(); ++k)
      if (ev.run.statements[k].status == MOSAIC_STMT_INVALID) invalid = static_cast<int>(k);
    kept.emplace_back(ev.test, invalid);
  }
  std::vector<std::pair<testcase::TestCase, int>> kept;
};

} // namespace

int runRandom(const RunOptions &options, std::ostream &out, std::ostream &err) {
  if (!options.jsonOut.empty())
    if (auto ok = checkWritableFile(options.jsonOut, "--json"); !ok) {
      fmt::print(err, "mosaic: error: {}\n", ok.error().message);
      return kExitUsage;
    }
  auto opened = openTestableSession({options.unit, options.workDir, options.sanitize, options.memoryMb, false, options.pinCpu, options.spareCpu}, out, err);
  if (auto *code = std::get_if<int>(&opened)) return *code;
  Session &session = *std::get<std::unique_ptr<Session>>(opened);
  const model::Program &p = session.program;
  faultPoint("session");
  const exec::Limits limits = testLimits(options.timeoutMs, options.memoryMb, options.isolate);

  // Random testing through the same evaluator as the search: it goes on
  // after every goal is covered (failures are what `run` is for).
  Rng rng(options.seed);
  testcase::ConstantPool pool;
  pool.addStatic(p);
  testcase::TestFactory factory(*session.catalog, pool, rng);
  const search::Goals goals(session.description, {}, {&session.program, session.targets});
  const auto shorter = search::shorterTest();
  search::Archive archive(goals.size(), *shorter);
  ServerExecutor executor(*session.server, limits, {}, /*calibrated=*/true);
  stages::Work work;
  InterruptGuard interrupt;
  search::Budget budget;
  budget.seconds = options.budgetSeconds;
  budget.maxExecutions = options.maxExecutions;
  budget.stop = interrupt.flag();
  budget.stopWhenCovered = false;
  search::Evaluator evaluator(goals, archive, executor, budget);
  search::DynamicPoolFeeder feeder(pool);
  search::OutcomeCounter outcomes;
  stages::FailureRecorder failures(p, work.failures);
  HarnessErrors harnessErrors;
  ProgressLine progress(err, options.progress && isatty(STDERR_FILENO), options.budgetSeconds,
                        [&] { return work.failures.size(); });
  for (search::EvaluationObserver *o :
       std::initializer_list<search::EvaluationObserver *>{&feeder, &outcomes, &failures, &harnessErrors, &progress})
    evaluator.addObserver(*o);
  search::Variation variation(*session.catalog, factory, rng, session.targets);
  search::makeAlgorithm(search::AlgorithmKind::Random, evaluator, variation, rng, {})->run();
  evaluator.finish();
  faultPoint("search");
  if (evaluator.gaveUp()) // the harness keeps dying at start: report what we have
    fmt::print(err, "mosaic: error: {}\n", executor.lastError());

  // Confirming and minimising failures is part of the budget: what is left
  // of it (a failure that sleeps costs seconds a run).
  exec::Limits alone = limits;
  alone.persistent = false;
  ServerExecutor isolated(*session.server, alone);
  exec::Limits tight = alone;
  tight.timeoutMs = executor.timeoutMs();
  ServerExecutor candidates(*session.server, tight);
  stages::Context context{p, *session.catalog, goals, executor, isolated, nullptr, {},
                          stages::Deadline::in(options.budgetSeconds - budget.elapsed(), interrupt.flag()), nullptr, {}, {}};
  context.candidates = &candidates;
  faultPoint("minimise-failures");
  stages::minimiseFailures()->run(work, context);
  faultPoint("report");
  const double elapsed = budget.elapsed();
  interrupt.release();

  RunResults results{options,  p,       goals,          archive,         evaluator.executions(), elapsed,
                     outcomes.counts(), work.failures, harnessErrors.kept, session.notCallable};
  printResults(results, out);
  if (!options.jsonOut.empty()) writeResults(results, session, options.jsonOut);
  return work.failures.empty() ? kExitOk : kExitFindings;
}

} // namespace mosaic::driver

// The search of one unit and everything that watches it (`generate`,
// `reproduce`): the archive, the fork server's executor, the evaluator with
// its observers (dynamic pool, outcome counts, failures, coverage timeline,
// progress line), and Ctrl-C.
#pragma once

#include "Executors.h"
#include "FunctionWeights.h"
#include "Interrupt.h"
#include "Progress.h"
#include "Session.h"
#include "Verify.h"
#include "mosaic/driver/Generate.h"
#include "mosaic/search/Bloodhound.h"
#include "mosaic/search/Grt.h"
#include "mosaic/search/Observers.h"
#include "mosaic/search/Secondary.h"
#include "mosaic/stages/Failures.h"
#include "mosaic/stages/Stage.h"
#include "mosaic/testcase/TestFactory.h"

#include <fmt/format.h>
#include <time.h>
#include <unistd.h>

#include <optional>
#include <ostream>

namespace mosaic::driver {

/// CPU time of mosaic's process so far (every thread, no child).
inline double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

/// What the search left for the report.
struct SearchSummary {
  search::AlgorithmKind algorithm{};
  double seconds = 0;
  std::uint64_t executions = 0;
  bool interrupted = false;
  size_t archived = 0;
  /// Tests evaluated without running (search::Evaluator::predicted).
  std::uint64_t predicted = 0;
  /// CPU time mosaic's own process spent during the search (its threads,
  /// not the program's): the rest of `seconds` was the tests' and waiting.
  double hostCpuSeconds = 0;
  /// Seconds the search waited for the fork server's batches
  /// (search::Evaluator::waitSeconds).
  double waitSeconds = 0;
};

// The search and everything that watches it, alive until the report is
// written (the stages run through its evaluator; the report reads its
// archive, timeline and outcome counts).
class UnitSearch {
public:
  UnitSearch(Session &session, const GenerateOptions &options, const search::Goals &goals,
             const search::SecondaryObjective &secondary, stages::Work &work, std::ostream &err)
      : options_(options), session_(session), limits_(testLimits(options.timeoutMs, options.memoryMb, options.isolate)),
        rng_(options.seed), pool_(staticPool(session.program, options)),
        factory_(*session.catalog, pool_, rng_, factoryOptions(options, session.program)),
        archive_(goals.size(), secondary), executor_(*session.server, limits_,
                                                   // GRT pools no null result: it reads them.
                                                   {.observations = options.algorithm == "grt",
                                                    .outputs = goals.needsOutputs(),
                                                    .directSides = goals.needsDirectSides()},
                                                   /*calibrated=*/true),
        evaluator_(goals, archive_, executor_, budget(options, interrupt_)), feeder_(pool_),
        failures_(session.program, work.failures, session.catalog.get()), timeline_(goals.size()),
        progress_(err, options.progress && isatty(STDERR_FILENO), options.budgetSeconds,
                  [&work] { return work.failures.size(); }) {
    if (options.dynamicPool) evaluator_.addObserver(feeder_);
    for (search::EvaluationObserver *o :
         std::initializer_list<search::EvaluationObserver *>{&outcomes_, &failures_, &timeline_, &progress_})
      evaluator_.addObserver(*o);
  }

  /// Searches until the budget ends, or Ctrl-C or SIGTERM (which also cut
  /// the stages short, until release()).
  SearchSummary run(search::AlgorithmKind algorithm, std::ostream &err) {
    search::Variation variation(*session_.catalog, factory_, rng_, session_.targets, options_.variation);
    variation.guideTo(options_.entryCalls);
    search::SearchOptions parameters = options_.search;
    if (auto grt = search::parseGrtComponents(options_.grtComponents, parameters.grt)) parameters.grt = *grt;
    // --search-components bloodhound: the calls of the search's random
    // tests and insertions are bloodhound's choice (GRT has its own).
    // Lent for the search only, also when it throws: the later stages
    // build as they always do.
    struct Lent {
      testcase::TestFactory &factory;
      search::Evaluator &evaluator;
      std::optional<search::Bloodhound> hound;
      ~Lent() {
        if (!hound) return;
        factory.setChooser(nullptr);
        evaluator.removeObserver(*hound);
      }
    } lent{factory_, evaluator_, std::nullopt};
    const auto components = search::parseSearchComponents(options_.searchComponents);
    if (algorithm != search::AlgorithmKind::Grt && components && components->bloodhound) {
      lent.hound.emplace(evaluator_, session_.program, parameters.grt);
      factory_.setChooser(&*lent.hound);
      evaluator_.addObserver(*lent.hound);
    }
    const double cpuBefore = processCpuSeconds();
    evaluator_.startClock();
    search::makeAlgorithm(algorithm, evaluator_, variation, rng_, parameters)->run();
    evaluator_.finish();
    SearchSummary summary{algorithm,
                          evaluator_.budget().elapsed(),
                          evaluator_.executions(),
                          interrupt_.raised(),
                          archive_.solutions().size(),
                          evaluator_.predicted(),
                          processCpuSeconds() - cpuBefore,
                          evaluator_.waitSeconds()};
    if (summary.interrupted) fmt::print(err, "mosaic: interrupted: writing the suite found so far\n");
    return summary;
  }
  /// From here on a signal ends mosaic (what is written stays). Until then
  /// Ctrl-C or SIGTERM cuts the stages and verification short.
  void release() { interrupt_.release(); }
  const volatile std::sig_atomic_t *stopFlag() const { return interrupt_.flag(); }

  search::Evaluator &evaluator() { return evaluator_; }
  const search::Archive &archive() const { return archive_; }
  const search::CoverageTimeline &timeline() const { return timeline_; }
  const search::OutcomeCounter &outcomes() const { return outcomes_; }
  const exec::Limits &limits() const { return limits_; }
  /// The search's calibrated CPU-time limit as it ended (SearchTimeout).
  std::uint32_t searchTimeoutMs() const { return executor_.timeoutMs(); }

private:
  // The unit's literals; weighted by TF-IDF with --search-components
  // constant-mining (GRT weighs its own pool).
  static testcase::ConstantPool staticPool(const model::Program &p, const GenerateOptions &options) {
    testcase::ConstantPool pool;
    pool.addStatic(p);
    const auto components = search::parseSearchComponents(options.searchComponents);
    if (options.algorithm != "grt" && components && components->constantMining) search::weighLiteralsByTfIdf(pool, p);
    return pool;
  }
  // --function-weights (read and checked by generate before the search).
  static testcase::FactoryOptions factoryOptions(const GenerateOptions &options, const model::Program &p) {
    testcase::FactoryOptions f;
    if (!options.functionWeights.empty())
      if (auto scores = readFunctionWeights(options.functionWeights)) f.targetWeights = targetWeights(p, *scores);
    return f;
  }
  static search::Budget budget(const GenerateOptions &options, const InterruptGuard &interrupt) {
    search::Budget b;
    b.seconds = options.budgetSeconds;
    b.maxExecutions = options.maxExecutions;
    b.stop = interrupt.flag();
    b.failingTestsCover = options.failingTestsCover;
    b.doneWhenCovered = options.doneWhenCovered;
    return b;
  }

  const GenerateOptions &options_;
  Session &session_;
  exec::Limits limits_;
  Rng rng_;
  testcase::ConstantPool pool_;
  testcase::TestFactory factory_;
  search::Archive archive_;
  ServerExecutor executor_;
  InterruptGuard interrupt_;
  search::Evaluator evaluator_;
  search::DynamicPoolFeeder feeder_;
  search::OutcomeCounter outcomes_;
  stages::FailureRecorder failures_;
  search::CoverageTimeline timeline_;
  ProgressLine progress_;
};

/// The writer, then (unless options.verify is off) the verify stage:
/// builds the suite, runs it, repairs or removes what fails.
VerifyResult writeSuite(const Session &session, const GenerateOptions &options, std::vector<emit::SuiteTest> &passing,
                        std::vector<emit::SuiteTest> &failing, const std::string &coverage,
                        const volatile std::sig_atomic_t *stop, std::ostream &err);

} // namespace mosaic::driver

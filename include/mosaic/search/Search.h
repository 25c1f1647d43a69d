// The search: one interface over DynaMOSA, MOSA, whole-suite, MIO and
// random testing (ALGORITHMS.md §1–2). An algorithm draws tests from the
// Variation operators, runs them through the Evaluator (which keeps the
// archive) and stops when the Budget says so.
#pragma once

#include "mosaic/search/Archive.h"
#include "mosaic/search/Goals.h"
#include "mosaic/search/Grt.h"
#include "mosaic/search/StoppedPrefixes.h"
#include "mosaic/search/Variation.h"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace mosaic::search {

enum class AlgorithmKind { DynaMosa, Mosa, WholeSuite, Mio, Random, Grt };
const char *toString(AlgorithmKind kind);
std::optional<AlgorithmKind> parseAlgorithm(const std::string &name);

/// When to stop: wall time, a number of executions, every goal covered, or
/// an outside request (Ctrl-C), whichever comes first.
struct Budget {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds = 60;               ///< issue 5's default (EvoSuite's search budget is 60 s too)
  std::uint64_t maxExecutions = 0;   ///< 0: no limit
  const volatile std::sig_atomic_t *stop = nullptr;
  /// Stop once every goal is covered, each by a test that runs cleanly
  /// (`generate`: a unit whose first test covers it all by crashing, as
  /// libtommath's mp_dr_setup(a, d) given a zeroed a, would otherwise keep
  /// no regression test); `run` goes on, for failures.
  bool stopWhenCovered = true;
  /// With stopWhenCovered: a failing test that covers a goal is enough (a
  /// crash's search, whose one goal only a failing test covers).
  bool failingTestsCover = false;
  /// The search is done once this goal is covered, whatever else is open
  /// (a crash's search, whose other goals only guide it toward the crash).
  std::optional<size_t> doneWhenCovered;

  double elapsed() const;
  /// Fraction of the budget used, in [0, 1] (time or executions, whichever is further).
  double used(std::uint64_t executions) const;
};

class Evaluator;

/// One run of a test, as evaluation observers see it.
struct Evaluation {
  const testcase::TestCase &test;
  const Execution &run;
  /// The raw trace of the run, while it is fresh (comparison operands,
  /// captured output); nullptr when the executor has none.
  const exec::Trace *trace = nullptr;
  /// A run of the search (counted, offered to the archive), or one made on
  /// behalf of a later stage (Evaluator::execute: minimising, extending).
  bool searching = true;
};

/// Watches every run the evaluator makes: progress lines, coverage over
/// time, failure recording, the dynamic constant pool. Written once, used
/// by every algorithm and subcommand.
class EvaluationObserver {
public:
  virtual ~EvaluationObserver() = default;
  /// After each run, in the order observers were added.
  virtual void evaluated(const Evaluator &evaluator, const Evaluation &evaluation) = 0;
  /// Once, when the search has ended (Evaluator::finish).
  virtual void finished(const Evaluator &evaluator) { (void)evaluator; }
};

/// Work beside the search that shares its budget and archive (concolic
/// execution, issue 22): asked before each of the search's runs whether it
/// wants a turn, it then runs its own tests through Evaluator::evaluate.
class SideTask {
public:
  virtual ~SideTask() = default;
  virtual bool due(const Evaluator &evaluator) = 0;
  virtual void run(Evaluator &evaluator) = 0;
};

/// Runs tests, counts them, offers every run of the search to the archive,
/// and tells the observers.
class Evaluator {
public:
  /// `executor` and `archive` must outlive the evaluator.
  Evaluator(const Goals &goals, Archive &archive, Executor &executor, Budget budget);

  /// Runs `test` for the search; nullptr when the budget is spent, the test
  /// is empty, or it could not be run.
  std::shared_ptr<const Execution> evaluate(const testcase::TestCase &test);
  /// Runs `tests` for the search as evaluate() would, one after the
  /// other, as few round trips as the executor can (Executor::runBatch): a
  /// run, or nullptr as from evaluate(), per test. Side tasks have their
  /// turn once, before the first; the budget is looked at before each
  /// batch, and a batch never runs past --max-executions. A test the
  /// StoppedPrefixes predict from the runs before its batch is not run.
  /// newlyCovered() is then what the whole call covered first.
  std::vector<std::shared_ptr<const Execution>> evaluateAll(std::span<const testcase::TestCase> tests);
  /// What an algorithm makes for evaluateStream(): the next tests (none:
  /// it has no more).
  using MakeTests = std::function<std::vector<testcase::TestCase>()>;
  /// Where evaluateStream() hands a test that ran (or was predicted) with
  /// its run; `id` is its place among the tests made (0, 1, ...).
  using TakeRun = std::function<void(size_t id, testcase::TestCase test, std::shared_ptr<const Execution> run)>;
  /// Runs the tests make() makes as evaluateAll() would, until it makes
  /// none or the budget is spent, overlapping mosaic's work with the
  /// program's (Executor::startBatch): while a batch runs, the one before
  /// is recorded and handed to take(), and the tests of the next are made.
  /// make()'s j-th call comes after the runs of its calls 0..j-2 are
  /// recorded and before any run of call j-1's is (so it sees the archive
  /// and observers of a fixed set of runs, whatever the timing); the
  /// tests the StoppedPrefixes predict are predicted when made; take() is
  /// told of the tests that ran or were predicted, in the order made.
  void evaluateStream(const MakeTests &make, const TakeRun &take);
  /// Runs `test` on behalf of a later stage: not counted against the
  /// budget nor offered to the archive, but observed (a failure it meets
  /// is recorded like any other).
  std::optional<Execution> execute(const testcase::TestCase &test);
  /// Tells the observers the search has ended.
  void finish();
  void addObserver(EvaluationObserver &observer) { observers_.push_back(&observer); }
  /// An observer that goes before the evaluator does (an algorithm's own).
  void removeObserver(EvaluationObserver &observer) { std::erase(observers_, &observer); }
  /// Before each evaluate() of the search, a due task runs (never from
  /// within a task's own evaluations).
  void addSideTask(SideTask &task) { sideTasks_.push_back(&task); }
  /// Whether a side task would have its turn now (SideTask::due): an
  /// algorithm that streams many generations ends its stream then, since
  /// side tasks run only between streams (evaluateStream).
  bool sideTaskDue();
  /// A test a side task ran (evaluate()) and offers the population: the
  /// solver's, or one a new goal's fitness reads (MOSA and DynaMOSA take
  /// them into their next offspring; the other algorithms leave them).
  void propose(testcase::TestCase test, std::shared_ptr<const Execution> run) {
    proposed_.push_back({std::move(test), std::move(run)});
  }
  /// The tests proposed since the last call.
  std::vector<std::pair<testcase::TestCase, std::shared_ptr<const Execution>>> takeProposed() {
    return std::exchange(proposed_, {});
  }

  bool done() const;
  /// Whether the search still works on goal `goal`: it is not covered, or
  /// only a failing test covers it and failing tests do not count
  /// (Budget::failingTestsCover: `generate` wants each goal covered
  /// cleanly). A failure goal (exception coverage) is covered by failing.
  bool open(size_t goal) const;
  /// The harness could not run tests (more than 20 in a row failed to run
  /// and fewer ran than failed): the search stopped rather than spin.
  bool gaveUp() const;
  std::uint64_t executions() const { return executions_; }
  /// Tests the search evaluated without running them: each began with the
  /// statements of a run that stopped at the last of them, and stops there
  /// the same way (StoppedPrefixes.h). Not executions: no observer sees
  /// them and the archive already had their run; --max-executions does not
  /// count them (it ends a search that predicted as many).
  std::uint64_t predicted() const { return predicted_; }
  /// Wall-clock seconds the search spent waiting for batches it had
  /// started (evaluateStream): with the host's CPU time, where a search's
  /// time went (the rest, the host's own work while no batch ran).
  double waitSeconds() const { return waitSeconds_; }
  /// Goals covered for the first time by the last evaluation.
  const std::vector<size_t> &newlyCovered() const { return fresh_; }
  const Goals &goals() const { return goals_; }
  Archive &archive() { return archive_; }
  const Archive &archive() const { return archive_; }
  const Budget &budget() const { return budget_; }
  /// The budget's time counts from now: the search starts (what was made
  /// after the evaluator and before, the concolic side's harness, costs
  /// the search none of it).
  void startClock() { budget_.start = std::chrono::steady_clock::now(); }
  Executor &executor() { return executor_; }

private:
  void notify(const testcase::TestCase &test, const Execution &run, const exec::Trace *trace, bool searching);
  /// Side tasks that are due have their turn (never from within one's own evaluations).
  void sideTasksTurn();
  /// What follows a search's run of `test`: counted, offered to the
  /// archive and the StoppedPrefixes, observed with `trace`.
  std::shared_ptr<const Execution> record(const testcase::TestCase &test, Execution run, const exec::Trace *trace);
  /// Every goal the search seeks is covered (passive ones aside).
  bool allSoughtCovered() const;

  const Goals &goals_;
  Archive &archive_;
  Executor &executor_;
  Budget budget_;
  std::uint64_t executions_ = 0, failures_ = 0, predicted_ = 0;
  double waitSeconds_ = 0;
  StoppedPrefixes stopped_;
  std::vector<size_t> fresh_;
  std::vector<EvaluationObserver *> observers_;
  std::vector<SideTask *> sideTasks_;
  std::vector<std::pair<testcase::TestCase, std::shared_ptr<const Execution>>> proposed_;
  bool inSideTask_ = false;
};

/// The executor later stages use: runs through Evaluator::execute, so that
/// the observers see them.
class ObservedExecutor final : public Executor {
public:
  explicit ObservedExecutor(Evaluator &evaluator) : e_(evaluator) {}
  std::optional<Execution> run(const testcase::TestCase &test) override { return e_.execute(test); }
  const exec::Trace *trace() const override { return e_.executor().trace(); }

private:
  Evaluator &e_;
};

/// Per criterion: goals covered by the archive and goals in all.
struct CriterionCoverage {
  const Criterion *criterion = nullptr;
  size_t covered = 0, total = 0;
};
std::vector<CriterionCoverage> coverageByCriterion(const Goals &goals, const Archive &archive);
/// The same, goal `g` covered when `covered[g]` (a goal past its end is not).
std::vector<CriterionCoverage> coverageByCriterion(const Goals &goals, const std::vector<bool> &covered);

/// Parameters; EvoSuite's defaults (ALGORITHMS.md §1.6, §2) unless noted.
struct SearchOptions {
  size_t population = 50;
  double crossoverRate = 0.75;
  size_t tournamentSize = 10;
  double rankBias = 1.7;           ///< rank selection (whole suite)
  double testInsertion = 0.1;      ///< share of POP added as fresh or archive tests per generation
  size_t maxSuiteSize = 100;       ///< whole suite: tests per suite
  size_t initialSuiteMax = 10;     ///< whole suite: initial suites hold 1..10 tests
  // MIO (§2.2): start and focused-phase values, interpolated up to `mioFocus`.
  double mioRandomStart = 0.5, mioRandomFocus = 0.0;
  size_t mioSizeStart = 10, mioSizeFocus = 1;
  size_t mioMutationsStart = 1, mioMutationsFocus = 10;
  double mioFocus = 0.5;
  GrtOptions grt; ///< --algorithm grt (Grt.h)
};

class Algorithm {
public:
  virtual ~Algorithm() = default;
  /// Searches until the evaluator says the budget is spent.
  virtual void run() = 0;
};

std::unique_ptr<Algorithm> makeAlgorithm(AlgorithmKind kind, Evaluator &evaluator, Variation &variation, Rng &rng,
                                         const SearchOptions &options);

} // namespace mosaic::search

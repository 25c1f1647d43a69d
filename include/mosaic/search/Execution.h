// What mosaic keeps of one run of a test: how it ended, and what its trace
// showed (coverage, branch distances, statement outcomes, observations),
// copied out of the shared memory (the trace is overwritten by the next
// run). Criteria, secondary objectives and the post-search stages read
// runs only through this type; the fork server's raw trace reaches only
// evaluation observers (Search.h), while the run is fresh.
#pragma once

#include "mosaic/exec/Outcome.h"
#include "mosaic/exec/Trace.h"

#include <cstdint>
#include <memory>
#include <chrono>
#include <csignal>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace mosaic::testcase {
struct TestCase;
}

namespace mosaic::search {

/// What a call of the test returned, as the harness observed it: its
/// result (field -1) or a public field of the record it returned.
struct Output {
  std::uint32_t callable = 0; ///< model::CallableId
  std::int16_t field = -1;
  mosaic_obs_kind kind = MOSAIC_OBS_INT;
  std::int64_t integer = 0; ///< INT, UINT (bits), BOOL, NULL (1: null)
  double floating = 0;
  std::size_t length = 0;   ///< STRING: its bytes
};

/// One statement's outcome (abi/Trace.h: mosaic_stmt_record).
struct StatementRun {
  std::uint8_t status = MOSAIC_STMT_NOT_RUN; ///< enum mosaic_stmt_status
  std::uint32_t nanos = 0;                   ///< wall time it took (0 when it did not finish)
};

struct Execution {
  /// How the run ended: outcome, signal, exit code, the statement it ended
  /// at (-1 outside statements), its duration.
  exec::RunResult result;
  exec::Outcome outcome() const { return result.outcome; }
  /// The statement the test stopped at: where it failed, or the statement
  /// that threw a C++ exception or needed an object behind a null pointer;
  /// -1 when it ran to its end.
  int stoppedAt = -1;
  bool threw = false;                ///< stopped by an exception (or a null object): the outcome is still Ok
  /// The callable of the statement it stopped at, when that statement is a
  /// call (set by an executor that has the test: Executor::run).
  std::optional<std::uint32_t> stoppedCallable;
  /// The C++ exception type that stopped it (`std::out_of_range`), "" when none.
  std::string exceptionType;
  /// A Sanitizer outcome: the report the sanitizer printed (the run's
  /// captured output), for what reads its class and stack; "" otherwise.
  std::string report;
  std::vector<double> sides;         ///< per branch side: 0 = not evaluated, else 1 + minimum distance
  std::vector<std::uint8_t> blocks;  ///< per block: 0 when it never ran, else 1 + the calls of its last run that returned (abi/Trace.h)
  /// Per mutant: 0 = not reached, else 1 + the least infection distance;
  /// empty when the harness has no mutants' probes.
  std::vector<double> mutants;
  /// Per block: at a function's entry block, MOSAIC_DIRECT_* (abi/Trace.h):
  /// whether the test called the function directly, and whether such a
  /// call returned normally.
  std::vector<std::uint8_t> direct;
  /// Per branch side, as `sides`, in calls the test made directly.
  std::vector<double> directSides;
  std::vector<StatementRun> statements; ///< per statement started
  /// The test that ran, when the search's evaluator ran it (for goals whose
  /// fitness reads the test's values: path conditions); null otherwise.
  std::shared_ptr<const testcase::TestCase> test;
  /// The values the harness observed (results, out-parameters, fields), in
  /// statement order; filled only when the executor was asked to
  /// (ExecutorOptions::observations): parsing them costs on every run.
  std::vector<exec::Observation> observations;
  /// What the test's calls returned (functions and methods, not
  /// constructors), in statement order; filled only when the executor was
  /// asked to (ExecutorOptions::outputs).
  std::vector<Output> outputs;
  /// Goals' memo of the approach level + ν(distance) of the blocks of
  /// each function asked about (Reach), computed a function at a time on
  /// first use: the function's index and its blocks' values in Reach's
  /// order. Per function, not per block of the unit: a test enters a few
  /// of a large unit's functions (a memo of every block was 8 bytes per
  /// block of pugixml.cpp, zeroed per test). An execution's trace never
  /// changes, so neither does it.
  mutable std::vector<std::pair<std::uint32_t, std::vector<double>>> approach;

  /// The program failed (crash, abort, timeout, exit, sanitizer, memory).
  bool failed() const { return outcome() != exec::Outcome::Ok && outcome() != exec::Outcome::HarnessError; }
  /// EvoSuite's "exception or timeout": the archive prefers tests without.
  bool erroneous() const { return failed() || threw || outcome() == exec::Outcome::HarnessError; }
};

/// What an executor copies out of a trace besides coverage and outcomes.
struct ExecutorOptions {
  bool observations = false;
  bool outputs = false; ///< Execution::outputs (output coverage)
  /// Execution::directSides, 8 bytes per branch side of the unit on every
  /// run: off where no criterion reads them (Goals::needsDirectSides).
  bool directSides = true;
};

/// Sets e.stoppedCallable from `test` (the statement e.stoppedAt calls).
void noteStoppedCallable(Execution &e, const testcase::TestCase &test);
/// Fills e.outputs from `observed` (a run's observations of `test`).
void collectOutputs(Execution &e, const testcase::TestCase &test, const std::vector<exec::Observation> &observed);

/// Builds the Execution of a run from its result and its trace.
Execution toExecution(const exec::RunResult &result, const exec::Trace &trace, const ExecutorOptions &options);

/// When a batch of runs (Executor::runBatch) starts no more tests: a
/// search's budget as a batch sees it.
struct BatchBounds {
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  const volatile std::sig_atomic_t *stop = nullptr; ///< set by a signal handler
  bool over() const { return (stop && *stop) || std::chrono::steady_clock::now() >= deadline; }
};

/// Runs tests. The search reaches the program only through an Executor; so
/// do the post-search stages, whose unit tests use a fake one.
class Executor {
public:
  virtual ~Executor() = default;
  /// Runs `test`; nullopt when it could not be run at all (the harness
  /// keeps dying).
  virtual std::optional<Execution> run(const testcase::TestCase &test) = 0;
  /// The raw trace of the last run, valid until the next one; nullptr for
  /// an executor that has none (a fake).
  virtual const exec::Trace *trace() const { return nullptr; }
  /// The most tests runBatch() takes at once; 1 for an executor that runs
  /// them only one at a time.
  virtual size_t batchCapacity() const { return 1; }
  /// Runs the tests one after the other (at most batchCapacity() of them),
  /// each as run() would, in one round trip where the executor can: a run
  /// (nullopt: it could not run) per test started. No test but the first
  /// starts once `bounds` say so, and the result is then shorter than
  /// `tests`. After it, batchTrace(i) is the raw trace of the i-th run,
  /// valid until the next run. By default, run() on each (the traces of
  /// all but the last are gone then).
  virtual std::vector<std::optional<Execution>> runBatch(std::span<const testcase::TestCase *const> tests,
                                                         const BatchBounds &bounds) {
    std::vector<std::optional<Execution>> out;
    for (const testcase::TestCase *t : tests) {
      if (!out.empty() && bounds.over()) break;
      out.push_back(run(*t));
    }
    return out;
  }
  virtual const exec::Trace *batchTrace(size_t i) const {
    (void)i;
    return trace();
  }

  /// runBatch() in three steps, so that the caller works while the tests
  /// run: startBatch() hands them over (they must outlive waitBatch()),
  /// waitBatch() waits until they ended and says how many started, and
  /// takeBatch() gives their runs. Between waitBatch() and takeBatch() the
  /// next batch may be started: batchTrace(i) stays the waited batch's
  /// until the next waitBatch(). No run() while a batch is started. By
  /// default, waitBatch() is runBatch().
  virtual void startBatch(std::span<const testcase::TestCase *const> tests, const BatchBounds &bounds) {
    started_.assign(tests.begin(), tests.end());
    startedBounds_ = bounds;
  }
  virtual size_t waitBatch() {
    waited_ = runBatch(started_, startedBounds_);
    started_.clear();
    return waited_.size();
  }
  virtual std::vector<std::optional<Execution>> takeBatch() { return std::exchange(waited_, {}); }
  /// The caller is done with the waited batch's traces (batchTrace): the
  /// executor may clear them for reuse while the next batch runs.
  virtual void releaseBatch() {}

private:
  std::vector<const testcase::TestCase *> started_;
  BatchBounds startedBounds_;
  std::vector<std::optional<Execution>> waited_;
};

} // namespace mosaic::search

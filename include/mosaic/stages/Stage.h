// The stages after the search: what turns an archive of covering tests
// into the tests a suite keeps. Each stage is a named step over the same
// Work (the tests on their way and the failures met), runs the program
// only through the Executors of its Context, and says in its contract what
// it keeps and what it removes. `generate` runs reduce, minimise, extend,
// observe and minimise-failures; `run` only minimise-failures; the coming
// `reproduce` (a crash from a stack trace) and `project` (many units) wire
// the same stages (docs/ARCHITECTURE.md).
#pragma once

#include "mosaic/exec/Outcome.h"
#include "mosaic/exec/Trace.h"
#include "mosaic/model/Program.h"
#include "mosaic/search/Archive.h"
#include "mosaic/search/Execution.h"
#include "mosaic/search/Goals.h"
#include "mosaic/testcase/Catalog.h"
#include "mosaic/testcase/TestCase.h"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mosaic::stages {

/// A test on its way into the regression suite.
struct Candidate {
  testcase::TestCase test;
  std::vector<size_t> goals;     ///< the goals it is kept for
  double foundAt = 0;            ///< seconds into the search when the last of them was first covered
  size_t appendedFrom = SIZE_MAX;///< statements from here on were appended by Extend
  // Filled by Observe:
  std::vector<exec::Observation> observations; ///< what every run observed alike
  int threwAt = -1;              ///< the statement a C++ exception stopped it at
  std::string exceptionType;     ///< that exception's type
};

/// A distinct failing behaviour (Failures.h: failureKey), with the shortest
/// test seen of it.
struct Failure {
  testcase::TestCase test;
  exec::RunResult result;
  std::string where;        ///< the callable at the failing statement
  std::string output;       ///< what the test printed
  std::uint64_t count = 0;  ///< runs that failed this way
  bool reproducible = true; ///< in a fresh process of its own (MinimiseFailures)
  bool confirmed = false;   ///< MinimiseFailures ran it alone (else `reproducible` is untested)
};

/// What the stages did, for the report.
struct Counts {
  int minimiseRuns = 0;   ///< runs made by Minimise and Extend
  int inspectors = 0;     ///< getters Extend kept
  int releases = 0;       ///< releases Extend kept
  int unstable = 0;       ///< tests Observe dropped
  int failureRuns = 0;    ///< runs made by MinimiseFailures
};

/// What flows through the stages.
struct Work {
  std::vector<search::Solution> archived;  ///< the search's archive (Reduce reads it)
  std::vector<double> firstCovered;        ///< per goal: seconds into the search, -1 never
  std::vector<Candidate> passing;          ///< the regression suite to be
  std::map<std::string, Failure> failures; ///< by failureKey, in key order
  Counts counts;
};

/// When a bounded stage stops: at a time, or when `stop` is set (Ctrl-C,
/// SIGTERM), whichever comes first.
struct Deadline {
  std::chrono::steady_clock::time_point end = std::chrono::steady_clock::time_point::max();
  const volatile std::sig_atomic_t *stop = nullptr;
  /// `seconds` from now, also ended by `stop`.
  static Deadline in(double seconds, const volatile std::sig_atomic_t *stop = nullptr);
  bool passed() const { return (stop && *stop) || std::chrono::steady_clock::now() >= end; }
};

/// What stages may use. The executors run the program: `run` as the search
/// did (its runs are observed: a failure met while minimising is recorded),
/// `isolated` in a fresh process per test with observations copied out,
/// `fresh` in another server started afresh (another address-space layout;
/// null when it could not start).
struct Context {
  const model::Program &program;
  const testcase::Catalog &catalog;
  const search::Goals &goals;
  search::Executor &run;
  search::Executor &isolated;
  search::Executor *fresh = nullptr;
  Deadline deadline;        ///< minimise and extend stop here
  Deadline failureDeadline; ///< minimise-failures stops here (for `run`, the end of its budget)
};

class Stage {
public:
  virtual ~Stage() = default;
  /// Its name in reports and logs ("minimise").
  virtual std::string_view name() const = 0;
  virtual void run(Work &work, Context &context) = 0;
};

/// Reduce: from the archive to candidates. A failing test the archive
/// still holds for a goal is replaced by its statements before the failure
/// when those run cleanly; then a test is kept only while it covers a goal
/// the kept ones do not (greedy set cover: most goals first, then shorter,
/// then archive order). Failing tests are never kept (they are in
/// Work::failures).
std::unique_ptr<Stage> reduce();
/// Minimise: drops statements from the end backwards, replaces a copy or
/// move of an object by the object, and resets a stub's result to its
/// default, each only while the test still runs cleanly and covers every
/// goal it is kept for; until the deadline.
std::unique_ptr<Stage> minimise();
/// Extend: appends inspectors of the objects' final state and releases of
/// what the API handed back (testcase/Inspect.h): all at once when the
/// test still runs cleanly and covers its goals with them, else one by one;
/// until the deadline.
std::unique_ptr<Stage> extend();
/// Observe: runs each candidate three times (twice isolated, once in the
/// fresh server) and keeps the observations every run agreed on; a test
/// that stops on a null object is cut before it and observed again; a test
/// that does not run cleanly every time is dropped (Counts::unstable).
std::unique_ptr<Stage> observe();
/// MinimiseFailures: confirms each failure in a fresh process of its own
/// (a persistent child may carry state from earlier tests; unconfirmed ones
/// are marked not reproducible) and removes statements from the end
/// backwards while it fails the same way (at most 200 runs a failure),
/// until Context::failureDeadline: what it had no time for stays as it was
/// met, unconfirmed (Failure::confirmed false).
std::unique_ptr<Stage> minimiseFailures();

/// Runs `stages` in order.
void runStages(const std::vector<std::unique_ptr<Stage>> &stages, Work &work, Context &context);

} // namespace mosaic::stages

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
#include "mosaic/exec/Stack.h"
#include "mosaic/exec/Trace.h"
#include "mosaic/model/Program.h"
#include "mosaic/search/Archive.h"
#include "mosaic/search/Execution.h"
#include "mosaic/search/Goals.h"
#include "mosaic/testcase/Catalog.h"
#include "mosaic/testcase/TestCase.h"

#include <chrono>
#include <csignal>
#include <functional>
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

/// What a failing test claims, by how it reached the failure (Classify.h):
/// the order is the order of trust, a defect first.
enum class FailureClass {
  /// (a) Likely defect: a crash, abort or sanitizer report reached through
  /// the unit's public functions with plain values and objects the API made.
  Defect,
  /// (b) Robustness: a public function given a null pointer or a value
  /// outside what it accepts (an enumeration's range), or a hang, an exit
  /// or running out of memory on a public path.
  Robustness,
  /// (c) Misuse: only through an internal function (static, or declared in
  /// no header), on an object the test built by hand for a type the API
  /// makes itself, or by breaking a contract no callee can check (a length
  /// beyond its buffer, freeing what the API did not allocate).
  Misuse,
};
const char *toString(FailureClass c);

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
  // Filled by ClassifyFailures:
  FailureClass kind = FailureClass::Defect;
  std::string why;                 ///< one line: how the test reached it, what makes it this class
  std::vector<exec::Frame> frames; ///< the stack in the project, innermost first (symbolised)
  std::string site;                ///< what tells it apart from other failures: its kind and top frames
  std::uint64_t duplicates = 0;    ///< other failures with the same site merged into this one
  /// A sanitizer's report of the same test in the sanitized harness
  /// (SanitizeCheck), when the plain run did not give one itself.
  std::string sanitizerReport;
  /// The statement the sanitized harness reported at, with sanitizerReport
  /// (-1: none): before the plain failure's, the failure follows undefined
  /// behaviour of an earlier call.
  int sanitizerStatement = -1;
  bool sanitizerOnly = false;      ///< only the sanitized harness fails (the plain run passes)
};

/// What the stages did, for the report.
struct Counts {
  int minimiseRuns = 0;   ///< runs made by Minimise and Extend
  int inspectors = 0;     ///< getters Extend kept
  int releases = 0;       ///< releases Extend kept
  int grown = 0;          ///< tests GrowBuffers gave larger buffers
  int unstable = 0;       ///< tests Observe dropped
  int failureRuns = 0;    ///< runs made by MinimiseFailures
  int mutantRuns = 0;     ///< runs made by FilterAssertions
  /// Assertions (observations) of the regression tests before and after
  /// FilterAssertions, and the mutants their runs reached and told apart.
  int assertionsBefore = 0, assertionsAfter = 0;
  int mutantsTried = 0, mutantsKilled = 0;
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

/// Runs tests in a harness built with mutant schemata (harness::BuildOptions::
/// schemata), for FilterAssertions.
class MutantRunner {
public:
  virtual ~MutantRunner() = default;
  /// Runs `test` with `mutant` switched on (nullopt: the original code),
  /// observations copied out; `reached`, when given, gets the mutants whose
  /// sites the run reached, ascending. nullopt when it could not run.
  virtual std::optional<search::Execution> run(const testcase::TestCase &test, std::optional<std::uint32_t> mutant,
                                               std::vector<std::uint32_t> *reached = nullptr) = 0;
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
  /// The ASan + UBSan harness, for SanitizeCheck; null when the unit does
  /// not build with the sanitizers (or the check is off).
  search::Executor *sanitized = nullptr;
  /// The frames in the project of a failing run's stack (its recorded
  /// stack, or the one its sanitizer report prints in `output`), named;
  /// empty when unknown. Unset in tests that need no stacks.
  std::function<std::vector<exec::Frame>(const exec::RunResult &, std::string_view output, bool sanitized)> frames;
  /// Whether a sanitizer report of the sanitized harness is about
  /// mosaic's own code rather than the program's (FailureStacks::
  /// mosaicsOwn); SanitizeCheck makes no claim of such a report. Unset:
  /// never.
  std::function<bool(std::string_view report)> mosaicsOwn;
  /// The mutant schemata harness, for FilterAssertions; null: it keeps
  /// every assertion.
  MutantRunner *mutants = nullptr;
  /// Runs of the smaller tests minimise-failures tries, alone as
  /// `isolated`'s but under the search's calibrated CPU-time limit (a
  /// candidate that spins longer is not the failure it minimises; a
  /// test's own run, which confirms it, keeps the full limit). Null:
  /// `isolated`.
  search::Executor *candidates = nullptr;
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
/// GrowBuffers: a regression test the sanitized harness (Context::sanitized;
/// nothing when null) reports an AddressSanitizer error for, having a
/// buffer given with no length (Classify.h: unsizedBuffers), is run again
/// with those buffers 2, 4, ... kGrowthLimit times as large: the first that
/// runs cleanly there and still covers its goals replaces it (libmodbus's
/// modbus_get_float(const uint16_t *src) given one register, then two).
/// Before Observe, so that what the test asserts is read in bounds. Until
/// Context::failureDeadline.
std::unique_ptr<Stage> growBuffers();
/// How much larger GrowBuffers makes a buffer at most (ours: a 1-byte
/// buffer becomes 64, more than a digest or a 3x3 matrix of doubles).
inline constexpr size_t kGrowthLimit = 64;
/// Observe: runs each candidate three times (twice isolated, once in the
/// fresh server) and keeps the observations every run agreed on; a test
/// that stops on a null object is cut before it and observed again; a test
/// that does not run cleanly every time is dropped (Counts::unstable).
std::unique_ptr<Stage> observe();
/// FilterAssertions (issue 20: assertions that earn their place): runs each
/// regression test in the mutant schemata harness (Context::mutants;
/// nothing when null), then with each of up to kMutantsPerTest of the
/// mutants it reached switched on (spread evenly over them), and keeps the
/// observations some mutant changes (a different value, or none where the
/// original has one), and every call's result; a mutant the test tells
/// apart by its ending (a crash, an exception, another statement) needs no
/// assertion. When nothing would remain, the test keeps all it had. Until
/// Context::failureDeadline; the tests it had no time for keep theirs.
std::unique_ptr<Stage> filterAssertions();
/// Mutants FilterAssertions tries per test (ours: a test reaches tens of
/// mutation sites in a small unit, thousands in a parser; 20 runs of a test
/// cost about what observing it costs).
inline constexpr size_t kMutantsPerTest = 20;

/// MinimiseFailures: confirms each failure in a fresh process of its own
/// (a persistent child may carry state from earlier tests; unconfirmed ones
/// are marked not reproducible) and removes statements from the end
/// backwards while it fails the same way (at most 200 runs a failure),
/// until Context::failureDeadline: what it had no time for stays as it was
/// met, unconfirmed (Failure::confirmed false).
std::unique_ptr<Stage> minimiseFailures();

/// ClassifyFailures: runs each reproducible failure once more alone (with
/// observations: which pointers were null), names its stack (Context::frames),
/// classifies it (Classify.h) and merges failures of the same site (their
/// kind and top three frames in the project) into the best of them: the
/// most trusted class, then the shortest test.
std::unique_ptr<Stage> classifyFailures();
/// SanitizeCheck: runs every candidate and every reproducible failure once
/// in the sanitized harness (Context::sanitized; nothing when null). A
/// failure's report is attached (Failure::sanitizerReport); a candidate
/// that gets one becomes a failure too (Failure::sanitizerOnly), to be
/// classified like the others, and after an AddressSanitizer report also
/// leaves the regression suite. Until Context::failureDeadline.
std::unique_ptr<Stage> sanitizeCheck();

/// Runs `stages` in order.
void runStages(const std::vector<std::unique_ptr<Stage>> &stages, Work &work, Context &context);

} // namespace mosaic::stages

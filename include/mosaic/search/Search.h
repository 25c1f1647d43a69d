// The search: one interface over DynaMOSA, MOSA, whole-suite, MIO and
// random testing (ALGORITHMS.md §1–2). An algorithm draws tests from the
// Variation operators, runs them through the Evaluator (which keeps the
// archive) and stops when the Budget says so.
#pragma once

#include "mosaic/search/Archive.h"
#include "mosaic/search/Goals.h"
#include "mosaic/search/Variation.h"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace mosaic::search {

enum class AlgorithmKind { DynaMosa, Mosa, WholeSuite, Mio, Random };
const char *toString(AlgorithmKind kind);
std::optional<AlgorithmKind> parseAlgorithm(const std::string &name);

/// When to stop: wall time, a number of executions, every goal covered, or
/// an outside request (Ctrl-C), whichever comes first.
struct Budget {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds = 60;               ///< issue 5's default (EvoSuite's search budget is 60 s too)
  std::uint64_t maxExecutions = 0;   ///< 0: no limit
  const volatile std::sig_atomic_t *stop = nullptr;

  double elapsed() const;
  /// Fraction of the budget used, in [0, 1] (time or executions, whichever is further).
  double used(std::uint64_t executions) const;
};

/// Runs tests, counts them, and offers every run to the archive.
class Evaluator {
public:
  Evaluator(const Goals &goals, Archive &archive, Executor executor, Budget budget);

  /// Runs `test`; nullptr when it could not be run.
  std::shared_ptr<const Execution> evaluate(const testcase::TestCase &test);

  bool done() const;
  std::uint64_t executions() const { return executions_; }
  /// Goals covered for the first time by the last evaluation.
  const std::vector<size_t> &newlyCovered() const { return fresh_; }
  const Goals &goals() const { return goals_; }
  Archive &archive() { return archive_; }
  const Budget &budget() const { return budget_; }
  /// Called after every evaluation (progress lines, coverage over time).
  std::function<void(const Evaluator &)> onEvaluated;

private:
  const Goals &goals_;
  Archive &archive_;
  Executor executor_;
  Budget budget_;
  std::uint64_t executions_ = 0, failures_ = 0;
  std::vector<size_t> fresh_;
};

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

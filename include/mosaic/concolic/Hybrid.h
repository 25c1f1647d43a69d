// The hybrid of issue 22: concolic execution beside the search, as a
// search::SideTask sharing its budget and archive. It runs in the symbolic
// harness the tests of the search that reached a branch whose other side
// is a goal not yet covered (a few per such side, as the search's
// observer) and the archive's tests, collects the branches of their path
// conditions whose other side is a goal not yet covered, lets a Selection
// (TARDIS's KNN buckets, or FIFO) choose which to flip, solves it with Z3
// and hands the test the model makes to the search's evaluator, where the
// archive keeps it if it covers. The share of time it takes follows what
// it yields where the search was stuck: goals a flip covers count only
// when the search had reached the flipped side's branch for a while
// without taking the side (goals the search would soon have covered
// anyway do not buy the side more time). With the budget in executions
// the side measures time as nominal work, so that the run repeats.
#pragma once

#include "mosaic/concolic/PathGoals.h"
#include "mosaic/concolic/Selection.h"
#include "mosaic/exec/ForkServer.h"
#include "mosaic/model/Description.h"
#include "mosaic/model/Program.h"
#include "mosaic/search/Search.h"
#include "mosaic/solver/Solver.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace mosaic::concolic {

struct HybridStats {
  std::uint64_t symbolicRuns = 0;   ///< tests run in the symbolic harness
  std::uint64_t pathConditions = 0; ///< of them, runs that left a readable, non-empty path condition
  std::uint64_t concretized = 0;    ///< symbolic values those runs made concrete (floats, pointers, uninstrumented code)
  std::uint64_t candidates = 0;     ///< branches offered to the selection (distinct queries)
  std::uint64_t newGoals = 0;       ///< goals the solver's tests covered first
  std::uint64_t stuckGoals = 0;     ///< of them, from flips toward a side the search had been stuck at (the share's credit)
  std::uint64_t solverTests = 0;    ///< tests made from models and run by the search
  std::uint64_t undecided = 0;      ///< path conditions Z3 could not decide made goals of the search
  double seconds = 0;               ///< spent on the concolic side, of which:
  double runSeconds = 0;            ///< ... running tests in the symbolic harness and reading their traces
  double offerSeconds = 0;          ///< ... slicing traces into queries and fingerprinting them
  double selectSeconds = 0;         ///< ... choosing the next query (the classifier) and learning
  double evaluateSeconds = 0;       ///< ... running the solver's tests through the search's harness
  double share = 0;                 ///< its share of the time at the end
  solver::SolverStats solver;
};

struct HybridOptions {
  /// The share of the search's time the concolic side starts with, and its
  /// bounds as it adapts (ours: a fifth; SymCC + AFL hybrids give the
  /// concolic side one core of two).
  double startShare = 0.2, minShare = 0.05, maxShare = 0.5;
  unsigned solverTimeoutMs = 1000;
  std::uint64_t seed = 1;
};

class Hybrid final : public search::SideTask, public search::EvaluationObserver {
public:
  /// `symbolic` serves the unit's symbolic harness (ServerOptions::symbolic);
  /// `description` numbers its branch sides as the search's goals do.
  Hybrid(const model::Program &program, const model::UnitDescription &description, exec::ForkServer &symbolic,
         exec::Limits limits, std::unique_ptr<Selection> selection, HybridOptions options = {});

  bool due(const search::Evaluator &evaluator) override;
  void run(search::Evaluator &evaluator) override;
  /// Notes a test of the search that reached an uncovered side's branch.
  void evaluated(const search::Evaluator &evaluator, const search::Evaluation &evaluation) override;

  const HybridStats &stats() const { return stats_; }
  /// Where the path conditions the solver cannot decide go, to become goals
  /// of the search (pathConditionCriterion); without it they are dropped.
  void undecidedTo(std::shared_ptr<UndecidedPaths> paths) { undecided_ = std::move(paths); }

private:
  struct Waiting {
    testcase::TestCase test;
    std::shared_ptr<const solver::SymbolicTrace> trace;
    solver::Query query;
    std::vector<ClauseHash> clauses;  ///< the query's clauses, for training
    std::uint32_t side = 0;           ///< the side the flip leads to
  };
  /// Runs archived tests not yet traced until one offers a branch.
  void collect(search::Evaluator &evaluator);
  void offer(const testcase::TestCase &test, const search::Evaluator &evaluator);
  void solveOne(search::Evaluator &evaluator);
  /// A flip Z3 could not decide: its path condition becomes a goal (false
  /// when none is made: one per side, kMaxUndecided in all).
  bool undecided(const Waiting &w, const search::Goals &goals);
  /// The side a flip of `c` leads to when it is an uncovered goal's.
  std::optional<std::uint32_t> sideOfFlip(const solver::Constraint &c, const search::Evaluator &evaluator) const;

  const model::Program &program_;
  exec::ForkServer &symbolic_;
  exec::Limits limits_;
  std::unique_ptr<Selection> selection_;
  HybridOptions options_;
  solver::PathSolver solver_;
  Rng rng_;
  /// (the side a constraint records, whether its condition holds) -> the
  /// side the run goes to: what flipping a constraint leads to. A switch's
  /// default side is no one's.
  std::map<std::pair<std::uint32_t, bool>, std::uint32_t> flipTo_;
  std::map<std::uint64_t, Waiting> waiting_;
  std::uint64_t nextId_ = 0;
  std::set<std::string> seenQueries_;
  std::set<const testcase::TestCase *> traced_;
  std::deque<std::shared_ptr<const testcase::TestCase>> keep_; ///< the archived tests traced, kept alive
  /// Side id -> the goals that stand for it (the branch criteria's).
  std::map<std::uint32_t, std::vector<size_t>> goalsOfSide_;
  void indexGoals(const search::Goals &goals);
  /// Tests of the search to trace, and how many were taken per side.
  std::deque<testcase::TestCase> reached_;
  std::map<std::uint32_t, int> reachedPerSide_;
  /// Tests of the search to trace per side: more after each flip toward it
  /// that the solver could not make (the inputs it needed were constants,
  /// or results of calls, in the tests so far).
  std::map<std::uint32_t, int> allowance_;
  std::shared_ptr<UndecidedPaths> undecided_;
  std::set<std::uint32_t> undecidedSides_; ///< sides an undecided condition was made a goal for
  /// Side id -> the side's clock when one of the search's tests first
  /// reached the side's branch with the side not covered.
  std::map<std::uint32_t, double> firstReached_;
  /// Whether the search had been stuck at `side`: its branch reached, the
  /// side not taken, for kStuckSeconds.
  bool stuck(std::uint32_t side, const search::Evaluator &evaluator) const;
  /// The side's clock: the search's seconds so far, wall time or, with the
  /// budget in executions, work (Hybrid.cpp's kWork*: the same run
  /// whatever the load).
  static bool counted(const search::Evaluator &evaluator);
  double clock(const search::Evaluator &evaluator) const;
  /// The work done so far, the side's and the search's (counted runs).
  double work(const search::Evaluator &evaluator) const;
  double spent_ = 0;     ///< the side's seconds by that clock
  double idleUntil_ = 0; ///< the side's clock before which the side does not look again
  double share_;
  HybridStats stats_;
};

} // namespace mosaic::concolic

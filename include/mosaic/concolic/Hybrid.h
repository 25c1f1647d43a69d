// The hybrid of issue 22: concolic execution beside the search, as a
// search::SideTask sharing its budget and archive. It runs in the symbolic
// harness the tests of the search that reached a branch whose other side
// is a goal not yet covered (a few per such side, as the search's
// observer) and the archive's tests, collects the branches of their path
// conditions whose other side is a goal not yet covered, lets a Selection
// (TARDIS's KNN buckets, or FIFO) choose which to flip, solves it with Z3
// and hands the test the model makes to the search's evaluator, where the
// archive keeps it if it covers. The share of time it takes follows what
// it yields where the search was stuck. A flip the solver finds
// unsatisfiable has what stood in its way flipped next (its unsat core,
// the latest first: a loop's last test), and the test that makes is traced
// with flips toward the uncovered side again, or toward the covered side
// its branch depends on (words.c: a longer record, then its xor made to
// match); these wait in a queue drawn from only when no plain flip waits.
// Goals a flip covers count only
// when the search had reached the flipped side's branch for a while
// without taking the side (goals the search would soon have covered
// anyway do not buy the side more time). With the budget in executions
// the side measures time as nominal work, so that the run repeats. For a
// goal that stands for no side (`reproduce`'s crash line), the sides on
// its way are aimed at instead (HybridOptions::dependences).
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
  std::uint64_t relaxCandidates = 0;    ///< of them, flips of what stood in an unsatisfiable flip's way (its unsat core)
  std::uint64_t approachCandidates = 0; ///< ... and flips of the tests those made toward covered sides on the way
  std::uint64_t newGoals = 0;       ///< goals the solver's tests covered first
  std::uint64_t stuckGoals = 0;     ///< of them, from flips toward a side the search had been stuck at (the share's credit)
  std::uint64_t newSides = 0;       ///< with dependences: sides on the way to a goal the solver's tests took first
  std::uint64_t stuckSides = 0;     ///< of them, sides the search had been stuck at (the share's credit too)
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
  /// Past an unsatisfiable flip, flip what stood in its way (its unsat
  /// core), then toward the side again or the covered sides its branch
  /// depends on (false: only flips toward uncovered sides; the ablation of
  /// ConcolicCli's test).
  bool approachFlips = true;
  /// Also aim at goals that stand for no branch side (a crash's line,
  /// `reproduce`): such a goal stands for the sides its blocks are control
  /// dependent on, and theirs in turn, up to its function's entry (and so
  /// for its waypoints: a crash's caller frames' lines); each is
  /// open until a run takes it, while the goal is not covered (false:
  /// only the branch criteria's goals, `generate`'s).
  bool dependences = false;
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
    std::uint32_t side = 0;           ///< the uncovered side the flip leads to, or toward
    /// Not a flip toward `side` itself but one on the way (toward a covered
    /// side `side`'s branch depends on, or of an unsat core): it waits in
    /// detours_, and Z3's undecided is no goal of the search.
    bool approach = false;
    bool relax = false;               ///< a flip of a constraint in the unsat core of a flip toward `side`
  };
  /// After a flip toward `w.side` was unsatisfiable: flips of the
  /// constraints of its unsat core, latest first, offered too, their tests
  /// traced once they run (a longer loop, then the flip again).
  void relax(const Waiting &w, const solver::Answer &answer);
  /// Hands flip `w` to `to`, fingerprinted by its clauses, to wait there.
  void enqueue(Selection &to, Waiting w);
  /// Runs archived tests not yet traced until one offers a branch.
  void collect(search::Evaluator &evaluator);
  /// Traces `test` and offers the flips of its path condition toward
  /// uncovered sides; with `toward` (a test made past an unsatisfiable flip
  /// toward that side), also the flips toward the covered sides its branch
  /// is control dependent on.
  void offer(const testcase::TestCase &test, const search::Evaluator &evaluator,
             std::optional<std::uint32_t> toward = std::nullopt);
  void solveOne(search::Evaluator &evaluator);
  /// A flip Z3 could not decide: its path condition becomes a goal (false
  /// when none is made: one per side, kMaxUndecided in all).
  bool undecided(const Waiting &w, const search::Goals &goals);
  /// The side a flip of `c` leads to when it is an uncovered goal's.
  std::optional<std::uint32_t> sideOfFlip(const solver::Constraint &c, const search::Evaluator &evaluator) const;
  /// Whether a flip of `c` leads to a side that `toward`'s branch is control
  /// dependent on (a run one approach level nearer to it).
  bool approaches(const solver::Constraint &c, std::uint32_t toward) const;
  /// Whether side `side` has a goal not covered yet (with dependences, and
  /// the side standing for a goal of no side of its own: and no run has
  /// taken it yet).
  bool open(std::uint32_t side, const search::Evaluator &evaluator) const;
  /// With dependences: notes the sides on the way to a goal that `run`
  /// took; how many no run had taken before.
  std::size_t noteTaken(const search::Execution &run);

  const model::Program &program_;
  exec::ForkServer &symbolic_;
  exec::Limits limits_;
  std::unique_ptr<Selection> selection_;
  /// The approach and unsat-core flips (options_.approachFlips): a queue of
  /// their own, drawn from only when no flip toward an uncovered side
  /// waits (on gates.c, drawn alike, they put off its last goal from 5,300
  /// tests to 17,900).
  std::unique_ptr<Selection> detours_;
  /// Flips waiting in both.
  std::size_t waitingFlips() const { return selection_->waiting() + (detours_ ? detours_->waiting() : 0); }
  HybridOptions options_;
  solver::PathSolver solver_;
  Rng rng_;
  /// (the side a constraint records, whether its condition holds) -> the
  /// side the run goes to: what flipping a constraint leads to. A switch's
  /// default side is no one's.
  std::map<std::pair<std::uint32_t, bool>, std::uint32_t> flipTo_;
  /// Side id -> the sides of the branches whose block is control dependent
  /// on it (BlockInfo::deps): where taking it leads a run next.
  std::map<std::uint32_t, std::vector<std::uint32_t>> leadsTo_;
  std::map<std::uint64_t, Waiting> waiting_;
  std::uint64_t nextId_ = 0;
  std::set<std::string> seenQueries_;
  std::set<const testcase::TestCase *> traced_;
  std::deque<std::shared_ptr<const testcase::TestCase>> keep_; ///< the archived tests traced, kept alive
  /// Side id -> the goals that stand for it (the branch criteria's; with
  /// dependences, also the goals of no side it is on the way to).
  std::map<std::uint32_t, std::vector<size_t>> goalsOfSide_;
  /// With dependences: the sides that stand for goals of no side, and
  /// those of them some run has taken.
  std::set<std::uint32_t> onTheWay_, taken_;
  /// Block id -> its control dependences; side id -> the block of its
  /// branch (what onTheWay_ is closed over).
  std::map<std::uint32_t, std::vector<std::uint32_t>> depsOfBlock_;
  std::map<std::uint32_t, std::uint32_t> blockOfSide_;
  void indexGoals(const search::Goals &goals);
  bool indexed_ = false;
  /// Tests of the search to trace, and how many were taken per side.
  std::deque<testcase::TestCase> reached_;
  /// Tests made past an unsatisfiable flip, to trace first, and the side
  /// the flip led to.
  std::deque<std::pair<testcase::TestCase, std::uint32_t>> relaxed_;
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

// A coverage criterion: a kind of goal the search works on (ALGORITHMS.md
// §1.1, §6). Branch, line and function coverage are three implementations
// (Criteria.h); a new criterion is a new implementation, and neither the
// algorithms nor the reports change for it: they see goals, their fitness
// and the criterion's name.
#pragma once

#include "mosaic/model/Program.h"
#include "mosaic/search/Execution.h"
#include "mosaic/search/Reach.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mosaic::search {

class Criterion;

/// Classes of what a call returns (seed 001's output coverage, ALGORITHMS.md
/// §6.2), by the type it has.
enum class OutputClass : std::uint8_t {
  Negative, Zero, Positive, // numbers (unsigned ones: Zero, Positive)
  True, False,              // bool
  Alpha, Digit, OtherChar,  // char
  Null, NonNull,            // pointers
  Empty, NonEmpty,          // strings and char arrays (a null C string is Null)
  Enumerator                // an enum: each of its enumerators (OutputGoal::value)
};

/// An output goal: callable `callable`'s result (field -1) or the public
/// field `field` of the record it returns falls in class `cls`.
struct OutputGoal {
  model::CallableId callable = 0;
  std::int16_t field = -1;
  OutputClass cls = OutputClass::Zero;
  std::int64_t value = 0; ///< Enumerator: its value
};

/// A failure goal: a call of `callable` ended the test this way (exception
/// coverage; Failures.cpp says how a run's ending is named).
struct FailureGoal {
  model::CallableId callable = 0;
  std::string kind; ///< "throws std::out_of_range", "crashes (SIGSEGV)", "aborts", "exits with 3", ...
};

/// What the tests call: the unit's targets, for the goals that belong to
/// callables rather than to the unit's code (outputs) and to tell which of
/// the description's functions a test calls directly (Reach::entryPoint).
/// Without a program, every function counts as called directly and there
/// are no callables' goals.
struct Targets {
  const model::Program *program = nullptr;
  std::vector<model::CallableId> callables;
};

struct Goal {
  const Criterion *criterion = nullptr; ///< whose goal it is (set by Goals)
  std::uint32_t function = 0;           ///< index into UnitDescription::functions
  /// The branch side this goal stands for: covering it means the side was
  /// taken, which releases the goals control dependent on it (DynaMOSA).
  std::optional<std::uint32_t> side;
  /// The mutant this goal stands for (weak mutation).
  std::optional<std::uint32_t> mutant;
  /// The output class this goal stands for (output coverage).
  std::optional<OutputGoal> output;
  /// The failure this goal stands for (exception coverage).
  std::optional<FailureGoal> failure;
  /// The path condition this goal stands for: its number in its
  /// criterion's own table (concolic execution's undecided conditions).
  std::optional<std::uint32_t> pathCondition;
  std::uint32_t line = 0;               ///< the source line it is reported at
  /// The blocks it sits at. In DynaMOSA's goal graph (§1.5) a goal is
  /// current from the start when one of them runs whenever its function
  /// does; otherwise it is released when a branch side one of them is
  /// control dependent on is covered.
  std::vector<std::uint32_t> blocks;
  /// Blocks of other functions that a run covering it passes on its way
  /// there (a crash's: the lines of the trace's caller frames in the unit,
  /// outermost first). Not part of its fitness: the concolic side aims at
  /// the branch sides they are control dependent on, as at its own.
  std::vector<std::uint32_t> waypoints;
  /// Current from the start, whatever its blocks (a function's entry).
  bool initial = false;
  /// Kept, never sought: the archive keeps a test for it when a run covers
  /// it, but no algorithm makes it an objective (smart selection's branch
  /// sides of the functions the tests call, which their direct-branch
  /// goals stand for in the search; covered in passing through another
  /// function, they still earn a test a place in the suite).
  bool passive = false;
  std::string label;                    ///< "cJSON.c:57:9 true (parse_value)", "cJSON.c:60", "parse_value()"
};

class Criterion {
public:
  virtual ~Criterion() = default;
  /// Its name on the command line (--criteria) and in JSON: "branch".
  virtual std::string_view name() const = 0;
  /// Its goals in reports and progress lines: "branches".
  virtual std::string_view plural() const = 0;
  /// Appends the goals of function `function` of the description, in a
  /// fixed order (goals are numbered in that order; the search is
  /// deterministic for a seed only if it is). Only a run that entered the
  /// function (ran its entry block) can cover one of them: Goals::coveredBy
  /// does not ask about the others.
  virtual void goals(std::uint32_t function, const Reach &reach, std::vector<Goal> &out) const = 0;
  /// Appends its goals that belong to what the tests call rather than to a
  /// function's code, after every function's goals (none by default).
  virtual void callableGoals(const Targets &, const Reach &, std::vector<Goal> &) const {}
  /// Appends goals that a run shows exist (a failure no test had shown,
  /// covered by the run that found them) or that became known while the
  /// search ran (a path condition the solver could not decide, sought from
  /// then on): Goals::discover. None by default.
  virtual void discover(const Execution &, const Targets &, const Reach &, std::vector<Goal> &) const {}
  /// Whether run `e` covers `goal`.
  virtual bool covered(const Goal &goal, const Execution &e) const = 0;
  /// Fitness of `goal` for run `e`: 0 when covered, larger is farther.
  virtual double fitness(const Goal &goal, const Execution &e, const Reach &reach) const = 0;
  /// The fitness of `goal` for a run that never entered its function
  /// (MIO keeps no test that tells nothing about a goal).
  virtual double notCalled(const Goal &goal, const Reach &reach) const { return reach.notCalled(goal.function); }
  /// Whether a regression test's comment lists the goals of this criterion
  /// it was kept for (lines are too many to list).
  virtual bool listedInTests() const { return true; }
  /// Whether its goals need the harness built with the mutants' infection
  /// probes (abi/Hooks.h: MOSAIC_PASS_MUTANTS).
  virtual bool needsWeakMutation() const { return false; }
  /// Whether its goals read Execution::outputs (ExecutorOptions::outputs).
  virtual bool needsOutputs() const { return false; }
  /// Whether its goals read Execution::directSides (ExecutorOptions::directSides).
  virtual bool needsDirectSides() const { return false; }
};

} // namespace mosaic::search

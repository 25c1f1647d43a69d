// Secondary objectives (ALGORITHMS.md §1.3-1.4): which of two tests with
// the same fitness for a goal is better. The archive (which test to keep
// for a covered goal), MOSA/DynaMOSA's preference sorting (which test leads
// front 0 for a goal) and MIO (which member of a goal's population to
// replace) all ask one SecondaryObjective: test length (EvoSuite's
// TOTAL_LENGTH), or basic-block coverage (§5.1) then length.
#pragma once

#include "mosaic/search/Execution.h"
#include "mosaic/support/Expected.h"
#include "mosaic/testcase/TestCase.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mosaic::search {

class Goals;

/// A test and its run, as an objective compares them.
struct Scored {
  const testcase::TestCase &test;
  const Execution &run;
};

class SecondaryObjective {
public:
  virtual ~SecondaryObjective() = default;
  /// Its name on the command line (--secondary).
  virtual std::string_view name() const = 0;
  /// For goal `goal` (an index into Goals), with a and b equally fit for
  /// it: negative when a is better, positive when b is, 0 when neither. A
  /// strict weak order per goal: compare(g, a, a) == 0, and the sign flips
  /// with the arguments.
  virtual int compare(size_t goal, const Scored &a, const Scored &b) const = 0;
  /// Whether compare() depends on its goal (false: the same order for every
  /// goal, which lets preference sorting ask once per selection).
  virtual bool perGoal() const { return true; }
};

/// The shorter test is better (fewer statements).
std::unique_ptr<const SecondaryObjective> shorterTest();

/// Basic-block coverage's knobs (ALGORITHMS.md §5.1).
struct BbcOptions {
  /// How much of the budget is used, in [0, 1] (Budget::used); unset: all.
  std::function<double()> progress;
  /// BBC answers nothing until this fraction of the budget is used
  /// (bbcSleep: the SBST tool wrapper's sleep time over the budget).
  double sleep = 0;
  /// How often it is asked (seed 003's recommended 50%).
  std::uint32_t usagePercent = 50;
  std::uint64_t seed = 0; ///< which goals use it when
};
/// The SBST tool wrapper's BBC sleep as a fraction of a budget of
/// `budgetSeconds`: 10 s up to 60 s, 30 s up to 300 s, else 60 s.
double bbcSleep(double budgetSeconds);

/// Between two equally fit tests for a line, branch or mutant goal, at
/// least one of which failed or threw: the one that ran more blocks on the
/// way to the goal's block to their end (BasicBlockCoverage.cpp); `then`
/// decides the rest.
std::unique_ptr<const SecondaryObjective> basicBlockCoverage(const Goals &goals,
                                                             std::unique_ptr<const SecondaryObjective> then,
                                                             BbcOptions options);

/// Every secondary objective's name.
const std::vector<std::string> &secondaryNames();
/// The objective named `name` for `goals` ("length", "bbc": BBC then
/// length); a Usage error for an unknown name.
Expected<std::unique_ptr<const SecondaryObjective>> makeSecondary(const std::string &name, const Goals &goals,
                                                                  BbcOptions bbc = {});

} // namespace mosaic::search

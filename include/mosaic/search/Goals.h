// Coverage goals of a unit and their fitness (ALGORITHMS.md §1.1, §6.2):
// every branch side and switch case, every source line, every function.
// Built from the pass's static description; evaluated on an Execution.
#pragma once

#include "mosaic/model/Description.h"
#include "mosaic/search/Execution.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mosaic::search {

enum class GoalKind : std::uint8_t { Branch, Line, Function };
const char *toString(GoalKind kind);

struct Goal {
  GoalKind kind = GoalKind::Branch;
  std::uint32_t function = 0;          ///< index into UnitDescription::functions
  std::uint32_t side = 0;              ///< Branch: the side's id
  std::uint32_t line = 0;              ///< Branch: the branch's line; Line: the line; Function: its first line
  std::vector<std::uint32_t> blocks;   ///< Branch: the branching block; Line: blocks on the line; Function: entry
  std::string label;                   ///< "cJSON.c:57 true", "cJSON.c:60", "parse_value()"
};

/// Which criteria contribute goals (issue 5: all three by default).
struct Criteria {
  bool branch = true;
  bool line = true;
  bool function = true;
};

class Goals {
public:
  Goals(const model::UnitDescription &description, Criteria criteria = {});

  const std::vector<Goal> &all() const { return goals_; }
  size_t size() const { return goals_.size(); }
  const Goal &operator[](size_t i) const { return goals_[i]; }
  size_t count(GoalKind kind) const;

  /// Fitness of goal `g` for a run: 0 when covered, larger is farther.
  /// Branch: approach level + ν(branch distance), approach levels along the
  /// control dependences; a function never entered gives its diameter + 1;
  /// a dependence cycle gives diameter + 2 (EvoSuite's worst value). Line:
  /// min over its blocks of the same for reaching the block. Function: 0 or 1.
  double fitness(size_t g, const Execution &e) const;
  bool covered(size_t g, const Execution &e) const;
  /// The fitness of goal `g` for a run that never entered its function.
  double notCalled(size_t g) const;
  /// Every goal the run covers, ascending.
  std::vector<size_t> coveredBy(const Execution &e) const;

  /// DynaMOSA's goal graph (§1.5): the goals current from the start (those
  /// reached without taking any branch side, and function goals), and the
  /// goals that become current once branch side `side` is covered.
  const std::vector<size_t> &initial() const { return initial_; }
  const std::vector<size_t> &dependents(std::uint32_t side) const;
  /// The goal of branch side `side`, or SIZE_MAX when branches are not a criterion.
  size_t goalOfSide(std::uint32_t side) const;

  /// ν(x) = x / (x + 1) (ALGORITHMS.md §1.1).
  static double normalise(double x) { return x / (x + 1.0); }

private:
  double reach(std::uint32_t block, const Execution &e) const;
  double sideFitness(std::uint32_t side, const Execution &e) const;
  void approachLevels(std::uint32_t function, const Execution &e) const;

  const model::UnitDescription &d_;
  std::vector<Goal> goals_;
  std::vector<size_t> initial_;
  std::vector<std::vector<size_t>> dependents_;   ///< per side id
  std::vector<size_t> sideGoal_;                  ///< per side id
  // Per block id: its function, its control dependences, and whether it
  // post-dominates its function's entry (reached whenever the function is).
  std::vector<std::uint32_t> blockFunction_;
  std::vector<const std::vector<std::uint32_t> *> blockDeps_;
  std::vector<bool> always_;
  std::vector<std::uint32_t> sideBlock_;          ///< per side id: the branching block
  std::vector<std::vector<std::uint32_t>> functionBlocks_; ///< per function: its block ids
  /// Per block x: the blocks control dependent on a side of x's branch.
  std::vector<std::vector<std::uint32_t>> blockDependents_;
};

} // namespace mosaic::search

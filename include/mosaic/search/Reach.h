// How far a run came from reaching a block or taking a branch side
// (ALGORITHMS.md §1.1): approach level along the control dependences +
// ν(branch distance) at the decision where the run went the other way.
// Built once from the pass's static description and shared by every
// criterion whose goals sit at blocks (branches, lines, and later mutants).
#pragma once

#include "mosaic/model/Description.h"
#include "mosaic/search/Execution.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mosaic::search {

class Reach {
public:
  /// `entryPoints`: per function of the description, whether a test calls
  /// it directly (Goals.h: entryPoints); empty: every function.
  explicit Reach(const model::UnitDescription &description, std::vector<bool> entryPoints = {});

  const model::UnitDescription &description() const { return d_; }
  /// Whether the tests call function `function` directly: the functions
  /// with top-level and direct-branch goals.
  bool entryPoint(std::uint32_t function) const {
    return entryPoints_.empty() || (function < entryPoints_.size() && entryPoints_[function]);
  }

  /// The description's function that is one of `linkageNames` (a callable's
  /// symbols), for goals that belong to a callable; 0 when none is (its code
  /// is not the unit's: an inline function of a header).
  std::uint32_t functionOf(const std::vector<std::string> &linkageNames) const;

  /// Whether `block` ran in `e`.
  bool ran(std::uint32_t block, const Execution &e) const { return block < e.blocks.size() && e.blocks[block]; }
  /// Approach level + ν(distance) for reaching `block`: 0 when it ran; its
  /// function's diameter + 1 when the function never ran; a block reached
  /// whenever its function is costs 2; one whose dependences lead to no
  /// decision that ran, the diameter + 2 (EvoSuite's worst value).
  double block(std::uint32_t block, const Execution &e) const;
  /// Fitness of branch side `side`: ν(distance) when its branch was
  /// evaluated, else the cost of reaching the branching block (1 when it ran
  /// without recording a distance: it stopped on the way).
  double side(std::uint32_t side, const Execution &e) const;
  /// The fitness of a goal in function `function` for a run that never
  /// entered it: the function's diameter + 1.
  double notCalled(std::uint32_t function) const { return d_.functions[function].diameter + 1.0; }

  /// Whether `block` runs whenever its function does (it post-dominates the
  /// entry, or depends on nothing): such a goal is current from the start.
  bool always(std::uint32_t block) const { return always_[block]; }
  /// The branch sides `block` is control dependent on (nullptr: none known).
  const std::vector<std::uint32_t> *dependences(std::uint32_t block) const { return blockDeps_[block]; }
  /// The block that branches to `side`.
  std::uint32_t sideBlock(std::uint32_t side) const { return sideBlock_[side]; }

  /// ν(x) = x / (x + 1) (ALGORITHMS.md §1.1).
  static double normalise(double x) { return x / (x + 1.0); }

private:
  /// The memo of `function`'s blocks in `e` (Execution::approach),
  /// computed on first use.
  const std::vector<double> &approachLevels(std::uint32_t function, const Execution &e) const;

  const model::UnitDescription &d_;
  std::vector<bool> entryPoints_;
  // Per block id: its function, its control dependences, and whether it
  // post-dominates its function's entry (reached whenever the function is).
  std::vector<std::uint32_t> blockFunction_;
  std::vector<std::uint32_t> blockLocal_; ///< per block id: its place in functionBlocks_[its function]
  std::vector<const std::vector<std::uint32_t> *> blockDeps_;
  std::vector<bool> always_;
  std::vector<std::uint32_t> sideBlock_;                   ///< per side id: the branching block
  std::vector<std::vector<std::uint32_t>> functionBlocks_; ///< per function: its block ids
  /// Per block x: the blocks control dependent on a side of x's branch.
  std::vector<std::vector<std::uint32_t>> blockDependents_;
};

} // namespace mosaic::search

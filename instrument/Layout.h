// Ids of the instrumented functions: blocks and branch sides, assigned once
// in module order so that the same module always gets the same ids.
#pragma once

#include "Mutants.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/Function.h>

#include <vector>

namespace mosaic::instrument {

/// One conditional branch or switch, and the ids of its sides.
struct BranchSites {
  llvm::Instruction *terminator = nullptr;
  unsigned firstSide = 0; ///< br: true side, false side = firstSide + 1; switch: case i, default = + #cases
  unsigned sideCount = 0;
};

struct FunctionLayout {
  llvm::Function *function = nullptr;
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> blockIds;
  std::vector<BranchSites> branches; // in block order
  std::vector<MutationSite> mutations; // in block and instruction order
};

struct ModuleLayout {
  std::vector<FunctionLayout> functions;
  unsigned blocks = 0;
  unsigned sides = 0;
  unsigned mutants = 0;
};

/// Assigns ids to every block, branch side and mutant of `functions`, in order.
ModuleLayout layOut(const std::vector<llvm::Function *> &functions);

/// The side id of the edge from `branch`'s block to its successor number
/// `successor` (for a switch: successor 0 is the default).
unsigned sideOfSuccessor(const BranchSites &branch, unsigned successor);

} // namespace mosaic::instrument

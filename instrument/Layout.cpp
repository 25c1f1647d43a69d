// Id assignment.
#include "Layout.h"

#include <llvm/IR/Instructions.h>

namespace mosaic::instrument {

ModuleLayout layOut(const std::vector<llvm::Function *> &functions) {
  ModuleLayout m;
  for (llvm::Function *f : functions) {
    FunctionLayout fl;
    fl.function = f;
    for (llvm::BasicBlock &bb : *f) {
      fl.blockIds[&bb] = m.blocks++;
      for (MutationSite &site : mutationSites(bb, m.mutants)) fl.mutations.push_back(std::move(site));
      llvm::Instruction *term = bb.getTerminator();
      // A sanitizer's own check (clang marks it !nosanitize: UBSan's
      // overflow and bounds checks) is not a branch of the program: no goal.
      if (term->hasMetadata(llvm::LLVMContext::MD_nosanitize)) continue;
      if (auto *br = llvm::dyn_cast<llvm::BranchInst>(term); br && br->isConditional()) {
        fl.branches.push_back({term, m.sides, 2});
        m.sides += 2;
      } else if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(term)) {
        const unsigned n = sw->getNumCases() + 1;
        fl.branches.push_back({term, m.sides, n});
        m.sides += n;
      }
    }
    m.functions.push_back(std::move(fl));
  }
  return m;
}

unsigned sideOfSuccessor(const BranchSites &branch, unsigned successor) {
  if (llvm::isa<llvm::BranchInst>(branch.terminator)) return branch.firstSide + successor; // 0 true, 1 false
  // SwitchInst: successor 0 is the default, successor i the case i - 1.
  const unsigned cases = branch.sideCount - 1;
  return successor == 0 ? branch.firstSide + cases : branch.firstSide + successor - 1;
}

} // namespace mosaic::instrument

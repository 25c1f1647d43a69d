// Mutant schemata: a select per mutant after each mutated instruction.
#include "Schemata.h"

#include "mosaic/abi/Hooks.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

namespace mosaic::instrument {

namespace {

llvm::CmpInst::Predicate predicate(std::uint8_t op, std::uint32_t flags) {
  using P = llvm::CmpInst;
  const bool sgn = flags & MOSAIC_MUT_SIGNED, unordered = flags & MOSAIC_MUT_UNORDERED;
  if (flags & MOSAIC_MUT_FLOAT) {
    switch (op) {
    case MOSAIC_MUT_EQ: return unordered ? P::FCMP_UEQ : P::FCMP_OEQ;
    case MOSAIC_MUT_NE: return unordered ? P::FCMP_UNE : P::FCMP_ONE;
    case MOSAIC_MUT_LT: return unordered ? P::FCMP_ULT : P::FCMP_OLT;
    case MOSAIC_MUT_LE: return unordered ? P::FCMP_ULE : P::FCMP_OLE;
    case MOSAIC_MUT_GT: return unordered ? P::FCMP_UGT : P::FCMP_OGT;
    default: return unordered ? P::FCMP_UGE : P::FCMP_OGE;
    }
  }
  switch (op) {
  case MOSAIC_MUT_EQ: return P::ICMP_EQ;
  case MOSAIC_MUT_NE: return P::ICMP_NE;
  case MOSAIC_MUT_LT: return sgn ? P::ICMP_SLT : P::ICMP_ULT;
  case MOSAIC_MUT_LE: return sgn ? P::ICMP_SLE : P::ICMP_ULE;
  case MOSAIC_MUT_GT: return sgn ? P::ICMP_SGT : P::ICMP_UGT;
  default: return sgn ? P::ICMP_SGE : P::ICMP_UGE;
  }
}

// What mutant `op` computes over a and b; `chosen` is whether it is the
// active mutant (a divisor is 1 otherwise).
llvm::Value *replacement(llvm::IRBuilder<> &b, const MutationSite &site, std::uint8_t op, llvm::Value *x,
                         llvm::Value *y, llvm::Value *chosen) {
  const bool isFloat = site.flags & MOSAIC_MUT_FLOAT, sgn = site.flags & MOSAIC_MUT_SIGNED;
  llvm::Type *t = site.instruction->getType();
  switch (op) {
  case MOSAIC_MUT_ADD: return isFloat ? b.CreateFAdd(x, y) : b.CreateAdd(x, y);
  case MOSAIC_MUT_SUB: return isFloat ? b.CreateFSub(x, y) : b.CreateSub(x, y);
  case MOSAIC_MUT_MUL: return isFloat ? b.CreateFMul(x, y) : b.CreateMul(x, y);
  case MOSAIC_MUT_DIV:
  case MOSAIC_MUT_REM: {
    if (isFloat) return op == MOSAIC_MUT_DIV ? b.CreateFDiv(x, y) : b.CreateFRem(x, y);
    llvm::Value *safe = b.CreateSelect(chosen, y, llvm::ConstantInt::get(y->getType(), 1));
    if (op == MOSAIC_MUT_DIV) return sgn ? b.CreateSDiv(x, safe) : b.CreateUDiv(x, safe);
    return sgn ? b.CreateSRem(x, safe) : b.CreateURem(x, safe);
  }
  case MOSAIC_MUT_AND: return b.CreateAnd(x, y);
  case MOSAIC_MUT_OR: return b.CreateOr(x, y);
  case MOSAIC_MUT_XOR: return b.CreateXor(x, y);
  case MOSAIC_MUT_TRUE: return llvm::ConstantInt::getTrue(t);
  case MOSAIC_MUT_FALSE: return llvm::ConstantInt::getFalse(t);
  default:
    return isFloat ? b.CreateFCmp(predicate(op, site.flags), x, y) : b.CreateICmp(predicate(op, site.flags), x, y);
  }
}

} // namespace

void applySchemata(llvm::Module &m, const ModuleLayout &layout) {
  llvm::LLVMContext &ctx = m.getContext();
  auto *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Constant *active = m.getOrInsertGlobal(MOSAIC_HOOK_ACTIVE_MUTANT, i32);
  llvm::FunctionCallee reached =
      m.getOrInsertFunction(MOSAIC_HOOK_MUTANT_REACHED, llvm::Type::getVoidTy(ctx), i32, i32);
  for (const FunctionLayout &fl : layout.functions)
    for (const MutationSite &site : fl.mutations) {
      llvm::Instruction *original = site.instruction;
      llvm::IRBuilder<> before(original);
      before.CreateCall(reached, {before.getInt32(site.first), before.getInt32(site.replacements.size())});
      llvm::IRBuilder<> b(original->getNextNode());
      llvm::Value *id = b.CreateLoad(i32, active);
      llvm::Value *x = original->getOperand(0), *y = original->getOperand(1);
      llvm::SmallPtrSet<llvm::Value *, 16> made;
      llvm::Value *result = original;
      for (size_t k = site.replacements.size(); k-- > 0;) {
        llvm::Value *chosen = b.CreateICmpEQ(id, b.getInt32(site.first + k));
        llvm::Value *mutant = replacement(b, site, site.replacements[k], x, y, chosen);
        result = b.CreateSelect(chosen, mutant, result);
        for (llvm::Value *v : {chosen, mutant, result}) made.insert(v);
      }
      made.insert(id);
      original->replaceUsesWithIf(result, [&](llvm::Use &u) { return !made.contains(u.getUser()); });
    }
}

} // namespace mosaic::instrument

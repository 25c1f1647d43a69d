// Small IR helpers the probes and the symbolic tracer share.
#pragma once

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace mosaic::instrument {

/// An integer (of at most 64 bits) or a pointer as an i64, zero-extended.
inline llvm::Value *toI64(llvm::IRBuilder<> &b, llvm::Value *v) {
  if (v->getType()->isPointerTy()) return b.CreatePtrToInt(v, b.getInt64Ty());
  return b.CreateZExt(v, b.getInt64Ty());
}

/// A private constant table of `sw`'s case values, zero-extended to i64, in
/// case order (what the runtime's switch hooks read).
inline llvm::GlobalVariable *caseValues(llvm::Module &m, llvm::SwitchInst &sw, const char *name) {
  llvm::Type *i64 = llvm::Type::getInt64Ty(m.getContext());
  std::vector<llvm::Constant *> values;
  for (auto &c : sw.cases()) values.push_back(llvm::ConstantInt::get(i64, c.getCaseValue()->getZExtValue()));
  auto *arrayTy = llvm::ArrayType::get(i64, values.size());
  return new llvm::GlobalVariable(m, arrayTy, /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
                                  llvm::ConstantArray::get(arrayTy, values), name);
}

} // namespace mosaic::instrument

// Symbolic tracing (Symbolic.h).
#include "Symbolic.h"

#include "IrValues.h"

#include "mosaic/abi/Symbolic.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <map>

namespace mosaic::instrument {

namespace {

// An integer of at most 64 bits: what carries an expression.
bool traced(const llvm::Type *t) { return t->isIntegerTy() && t->getIntegerBitWidth() <= 64; }

std::uint32_t binaryOp(unsigned opcode) {
  switch (opcode) {
  case llvm::Instruction::Add: return MOSAIC_SYM_ADD;
  case llvm::Instruction::Sub: return MOSAIC_SYM_SUB;
  case llvm::Instruction::Mul: return MOSAIC_SYM_MUL;
  case llvm::Instruction::UDiv: return MOSAIC_SYM_UDIV;
  case llvm::Instruction::SDiv: return MOSAIC_SYM_SDIV;
  case llvm::Instruction::URem: return MOSAIC_SYM_UREM;
  case llvm::Instruction::SRem: return MOSAIC_SYM_SREM;
  case llvm::Instruction::Shl: return MOSAIC_SYM_SHL;
  case llvm::Instruction::LShr: return MOSAIC_SYM_LSHR;
  case llvm::Instruction::AShr: return MOSAIC_SYM_ASHR;
  case llvm::Instruction::And: return MOSAIC_SYM_AND;
  case llvm::Instruction::Or: return MOSAIC_SYM_OR;
  case llvm::Instruction::Xor: return MOSAIC_SYM_XOR;
  default: return 0;
  }
}

std::uint32_t comparisonOp(llvm::CmpInst::Predicate p) {
  using P = llvm::CmpInst;
  switch (p) {
  case P::ICMP_EQ: return MOSAIC_SYM_EQ;
  case P::ICMP_NE: return MOSAIC_SYM_NE;
  case P::ICMP_ULT: return MOSAIC_SYM_ULT;
  case P::ICMP_ULE: return MOSAIC_SYM_ULE;
  case P::ICMP_UGT: return MOSAIC_SYM_UGT;
  case P::ICMP_UGE: return MOSAIC_SYM_UGE;
  case P::ICMP_SLT: return MOSAIC_SYM_SLT;
  case P::ICMP_SLE: return MOSAIC_SYM_SLE;
  case P::ICMP_SGT: return MOSAIC_SYM_SGT;
  case P::ICMP_SGE: return MOSAIC_SYM_SGE;
  default: return 0;
  }
}

class Tracer {
public:
  Tracer(llvm::Module &m, const ModuleLayout &layout) : m_(m), ctx_(m.getContext()) {
    llvm::Type *i32 = llvm::Type::getInt32Ty(ctx_), *i64 = llvm::Type::getInt64Ty(ctx_), *vd = llvm::Type::getVoidTy(ctx_);
    auto *ptr = llvm::PointerType::getUnqual(ctx_);
    binary_ = m.getOrInsertFunction("__mosaic_sym_binary", i32, i32, i32, i32, i64, i64, i32);
    cast_ = m.getOrInsertFunction("__mosaic_sym_cast", i32, i32, i32, i32);
    select_ = m.getOrInsertFunction("__mosaic_sym_select", i32, i32, i32, i32, i64, i64, i64, i32);
    load_ = m.getOrInsertFunction("__mosaic_sym_load", i32, ptr, i32);
    store_ = m.getOrInsertFunction("__mosaic_sym_store", vd, ptr, i32, i32);
    memcpy_ = m.getOrInsertFunction("__mosaic_sym_memcpy", vd, ptr, ptr, i64);
    memset_ = m.getOrInsertFunction("__mosaic_sym_memset", vd, ptr, i32, i64);
    branch_ = m.getOrInsertFunction("__mosaic_sym_branch", vd, i32, i32, i32);
    switch_ = m.getOrInsertFunction("__mosaic_sym_switch", vd, i32, i64, i32, i32, ptr, i32);
    setArg_ = m.getOrInsertFunction("__mosaic_sym_set_arg", vd, i32, i32);
    call_ = m.getOrInsertFunction("__mosaic_sym_call", vd, ptr);
    enter_ = m.getOrInsertFunction("__mosaic_sym_enter", vd, ptr);
    arg_ = m.getOrInsertFunction("__mosaic_sym_arg", i32, i32);
    setRet_ = m.getOrInsertFunction("__mosaic_sym_set_ret", vd, ptr, i32);
    ret_ = m.getOrInsertFunction("__mosaic_sym_ret", i32, ptr);
    concretize_ = m.getOrInsertFunction("__mosaic_sym_concretize", vd, i32);
    for (const FunctionLayout &fl : layout.functions)
      for (const BranchSites &b : fl.branches) firstSide_[b.terminator] = b.firstSide;
  }

  void function(llvm::Function &f) {
    shadow_.clear();
    // In reverse post-order: every value's definition before its uses
    // (phis aside), whatever the order of the blocks in the function.
    // Unreachable blocks never run and keep no shadows.
    std::vector<llvm::Instruction *> original;
    for (llvm::BasicBlock *bb : llvm::ReversePostOrderTraversal<llvm::Function *>(&f))
      for (llvm::Instruction &i : *bb) original.push_back(&i);
    // Phis' shadows first, empty, so that every use finds them; their
    // incoming shadows once every instruction has its own.
    std::vector<std::pair<llvm::PHINode *, llvm::PHINode *>> phis;
    for (llvm::Instruction *i : original)
      if (auto *phi = llvm::dyn_cast<llvm::PHINode>(i); phi && traced(phi->getType())) {
        auto *s = llvm::PHINode::Create(llvm::Type::getInt32Ty(ctx_), phi->getNumIncomingValues(), "", phi->getIterator());
        shadow_[phi] = s;
        phis.push_back({phi, s});
      }
    entry(f);
    for (llvm::Instruction *i : original)
      if (!llvm::isa<llvm::PHINode>(i)) instruction(*i);
    for (auto &[phi, s] : phis)
      for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) s->addIncoming(get(phi->getIncomingValue(k)), phi->getIncomingBlock(k));
  }

private:
  llvm::Value *zero() { return llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx_), 0); }

  // The shadow of `v`: its node, or 0 (concrete).
  llvm::Value *get(llvm::Value *v) {
    auto it = shadow_.find(v);
    return it == shadow_.end() ? zero() : it->second;
  }

  void entry(llvm::Function &f) {
    llvm::IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
    b.CreateCall(enter_, {&f});
    for (llvm::Argument &a : f.args())
      if (traced(a.getType())) shadow_[&a] = b.CreateCall(arg_, {b.getInt32(a.getArgNo())});
  }

  static bool isHook(const llvm::Function *callee) {
    return callee && (callee->getName().starts_with("__mosaic") || callee->isIntrinsic());
  }

  void instruction(llvm::Instruction &i) {
    if (auto *bo = llvm::dyn_cast<llvm::BinaryOperator>(&i); bo && traced(bo->getType())) {
      if (const std::uint32_t op = binaryOp(bo->getOpcode())) after(i, [&](llvm::IRBuilder<> &b) {
          return b.CreateCall(binary_, {b.getInt32(op), get(bo->getOperand(0)), get(bo->getOperand(1)),
                                        toI64(b, bo->getOperand(0)), toI64(b, bo->getOperand(1)),
                                        b.getInt32(bo->getType()->getIntegerBitWidth())});
        });
      return;
    }
    if (auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(&i); cmp && traced(cmp->getOperand(0)->getType())) {
      const std::uint32_t op = comparisonOp(cmp->getPredicate());
      after(i, [&](llvm::IRBuilder<> &b) {
        return b.CreateCall(binary_, {b.getInt32(op), get(cmp->getOperand(0)), get(cmp->getOperand(1)),
                                      toI64(b, cmp->getOperand(0)), toI64(b, cmp->getOperand(1)),
                                      b.getInt32(cmp->getOperand(0)->getType()->getIntegerBitWidth())});
      });
      return;
    }
    if (auto *c = llvm::dyn_cast<llvm::CastInst>(&i)) return cast(*c);
    if (auto *s = llvm::dyn_cast<llvm::SelectInst>(&i); s && traced(s->getType()) && traced(s->getCondition()->getType())) {
      after(i, [&](llvm::IRBuilder<> &b) {
        return b.CreateCall(select_, {get(s->getCondition()), get(s->getTrueValue()), get(s->getFalseValue()),
                                      toI64(b, s->getCondition()), toI64(b, s->getTrueValue()),
                                      toI64(b, s->getFalseValue()), b.getInt32(s->getType()->getIntegerBitWidth())});
      });
      return;
    }
    if (auto *l = llvm::dyn_cast<llvm::LoadInst>(&i)) {
      if (!traced(l->getType())) return;
      const std::uint64_t bytes = m_.getDataLayout().getTypeStoreSize(l->getType());
      after(i, [&](llvm::IRBuilder<> &b) {
        return b.CreateCall(load_, {l->getPointerOperand(), b.getInt32(static_cast<std::uint32_t>(bytes))});
      });
      return;
    }
    if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
      // Every store: one of a concrete value clears what was there.
      const llvm::TypeSize size = m_.getDataLayout().getTypeStoreSize(s->getValueOperand()->getType());
      if (size.isScalable()) return;
      llvm::IRBuilder<> b(s);
      llvm::Value *value = traced(s->getValueOperand()->getType()) ? get(s->getValueOperand()) : zero();
      b.CreateCall(store_, {s->getPointerOperand(), b.getInt32(static_cast<std::uint32_t>(size.getFixedValue())), value});
      return;
    }
    if (auto *br = llvm::dyn_cast<llvm::BranchInst>(&i); br && br->isConditional()) {
      llvm::IRBuilder<> b(br);
      b.CreateCall(branch_, {get(br->getCondition()), b.CreateZExt(br->getCondition(), b.getInt32Ty()),
                             b.getInt32(side(br))});
      return;
    }
    if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(&i)) return switchConstraint(*sw);
    if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(&i)) {
      llvm::Value *v = ret->getReturnValue();
      if (!v || !traced(v->getType())) return;
      if (auto *call = llvm::dyn_cast_or_null<llvm::CallInst>(ret->getPrevNode()); call && call->isMustTailCall()) return;
      llvm::IRBuilder<> b(ret);
      b.CreateCall(setRet_, {ret->getFunction(), get(v)});
      return;
    }
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i)) return callSite(*call);
  }

  // `v` leaves what is traced (a float made from it, a pointer, an
  // argument of code that is not instrumented): counted when symbolic.
  void concretized(llvm::Instruction &at, llvm::Value *v) {
    if (!traced(v->getType()) || !shadow_.count(v)) return;
    llvm::IRBuilder<>(&at).CreateCall(concretize_, {get(v)});
  }

  void cast(llvm::CastInst &c) {
    if (traced(c.getOperand(0)->getType()) && !traced(c.getType())) return concretized(c, c.getOperand(0));
    if (!traced(c.getType()) || !traced(c.getOperand(0)->getType())) return;
    std::uint32_t op = 0;
    if (llvm::isa<llvm::ZExtInst>(c)) op = MOSAIC_SYM_ZEXT;
    else if (llvm::isa<llvm::SExtInst>(c)) op = MOSAIC_SYM_SEXT;
    else if (llvm::isa<llvm::TruncInst>(c)) op = MOSAIC_SYM_EXTRACT;
    else return;
    after(c, [&](llvm::IRBuilder<> &b) {
      return b.CreateCall(cast_, {b.getInt32(op), get(c.getOperand(0)), b.getInt32(c.getType()->getIntegerBitWidth())});
    });
  }

  void switchConstraint(llvm::SwitchInst &sw) {
    llvm::Value *v = sw.getCondition();
    if (!traced(v->getType()) || sw.getNumCases() == 0) return;
    llvm::GlobalVariable *table = caseValues(m_, sw, "__mosaic_sym_cases");
    llvm::IRBuilder<> b(&sw);
    b.CreateCall(switch_, {get(v), toI64(b, v), b.getInt32(v->getType()->getIntegerBitWidth()),
                           b.getInt32(sw.getNumCases()), table, b.getInt32(side(&sw))});
  }

  void callSite(llvm::CallBase &call) {
    if (call.isInlineAsm()) return;
    const llvm::Function *callee = call.getCalledFunction();
    if (auto *mi = llvm::dyn_cast<llvm::MemTransferInst>(&call)) {
      after(call, [&](llvm::IRBuilder<> &b) {
        b.CreateCall(memcpy_, {mi->getRawDest(), mi->getRawSource(), b.CreateZExtOrTrunc(mi->getLength(), b.getInt64Ty())});
        return nullptr;
      });
      return;
    }
    if (auto *ms = llvm::dyn_cast<llvm::MemSetInst>(&call)) {
      after(call, [&](llvm::IRBuilder<> &b) {
        b.CreateCall(memset_, {ms->getRawDest(), get(ms->getValue()), b.CreateZExtOrTrunc(ms->getLength(), b.getInt64Ty())});
        return nullptr;
      });
      return;
    }
    if (callee && callee->isIntrinsic() && !callee->getName().starts_with("llvm.dbg") &&
        !callee->getName().starts_with("llvm.lifetime"))
      for (llvm::Value *a : call.args()) concretized(call, a); // llvm.umax, llvm.bswap, ...: not modelled
    if (isHook(callee) || llvm::isa<llvm::CallBrInst>(call)) return;
    // Not traced (traceSymbolically), and its address may name nothing.
    if (callee && callee->hasAvailableExternallyLinkage()) return;
    if (callee && callee->isDeclaration()) {
      // The C library's copies, called by name (not as intrinsics).
      const llvm::StringRef name = callee->getName();
      if ((name == "memcpy" || name == "memmove") && call.arg_size() == 3)
        after(call, [&](llvm::IRBuilder<> &b) {
          b.CreateCall(memcpy_, {call.getArgOperand(0), call.getArgOperand(1), toI64(b, call.getArgOperand(2))});
          return nullptr;
        });
      else if (name == "memset" && call.arg_size() == 3)
        after(call, [&](llvm::IRBuilder<> &b) {
          b.CreateCall(memset_, {call.getArgOperand(0), get(call.getArgOperand(1)), toI64(b, call.getArgOperand(2))});
          return nullptr;
        });
      else
        for (llvm::Value *a : call.args()) concretized(call, a); // the C library's, not instrumented
      return;
    }
    if (auto *ci = llvm::dyn_cast<llvm::CallInst>(&call); ci && ci->isMustTailCall()) return;
    llvm::IRBuilder<> b(&call);
    for (unsigned k = 0; k < call.arg_size(); ++k)
      if (traced(call.getArgOperand(k)->getType())) b.CreateCall(setArg_, {b.getInt32(k), get(call.getArgOperand(k))});
    b.CreateCall(call_, {call.getCalledOperand()});
    // An invoke's result is left concrete: its shadow could not be placed
    // where every use of the result sees it.
    if (llvm::isa<llvm::CallInst>(call) && traced(call.getType()))
      after(call, [&](llvm::IRBuilder<> &a) { return a.CreateCall(ret_, {call.getCalledOperand()}); });
  }

  // Runs `make` just after `i` and records what it returns as i's shadow.
  template <typename Make> void after(llvm::Instruction &i, Make make) {
    llvm::Instruction *next = i.getNextNode();
    if (!next) return;
    llvm::IRBuilder<> b(next);
    if (llvm::Value *s = make(b)) shadow_[&i] = s;
  }

  std::uint32_t side(llvm::Instruction *terminator) const {
    auto it = firstSide_.find(terminator);
    return it == firstSide_.end() ? MOSAIC_SYM_NO_SIDE : it->second;
  }

  llvm::Module &m_;
  llvm::LLVMContext &ctx_;
  llvm::FunctionCallee binary_, cast_, select_, load_, store_, memcpy_, memset_, branch_, switch_, setArg_, call_, enter_,
      arg_, setRet_, ret_, concretize_;
  std::map<const llvm::Instruction *, unsigned> firstSide_;
  std::map<const llvm::Value *, llvm::Value *> shadow_;
};

} // namespace

void traceSymbolically(llvm::Module &module, const ModuleLayout &layout) {
  Tracer tracer(module, layout);
  std::vector<llvm::Function *> functions;
  // Not an available_externally copy (libstdc++'s extern templates): it
  // is there to be inlined, and the address its hooks would take names a
  // symbol the library may not export (basic_string's _M_use_local_data).
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && !f.hasAvailableExternallyLinkage() && !f.getName().starts_with("__mosaic_sym") &&
        !f.getName().starts_with("__mosaic_module_ctor"))
      functions.push_back(&f);
  for (llvm::Function *f : functions) tracer.function(*f);
}

} // namespace mosaic::instrument

// The instrumentation itself: which functions, and the probes they get.
#include "Instrumenter.h"

#include "Description.h"
#include "IrValues.h"
#include "Layout.h"
#include "Schemata.h"
#include "Symbolic.h"
#include "mosaic/abi/Symbolic.h"
#include "mosaic/abi/Hooks.h"
#include "mosaic/abi/Trace.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string_view>

namespace mosaic::instrument {

namespace {

std::string realPath(llvm::StringRef path) {
  llvm::SmallString<256> out;
  if (llvm::sys::fs::real_path(path, out)) return path.str();
  return out.str().str();
}

std::string fileOfSubprogram(const llvm::DISubprogram *sp) {
  llvm::StringRef name = sp->getFilename(), dir = sp->getDirectory();
  if (llvm::sys::path::is_absolute(name) || dir.empty()) return realPath(name);
  return realPath((dir + "/" + name).str());
}

// The functions whose code is the unit's: defined here, with debug info
// placing them in the unit's file. Header code (inline functions, templates)
// and the harness around the unit stay uninstrumented. A unit file that
// defines no function but makes its main header's code its own (a
// single-header library's `#define ..._IMPLEMENTATION`) has that header's
// functions whose one definition is this one (external or internal
// linkage; not inline or template code, which any file including the
// header may define, and the linker keep another copy of).
std::vector<llvm::Function *> unitFunctions(llvm::Module &m, const std::string &unit, const std::string &header) {
  std::vector<llvm::Function *> out, inHeader;
  for (llvm::Function &f : m) {
    if (f.isDeclaration() || f.getName().starts_with("__mosaic_")) continue;
    const llvm::DISubprogram *sp = f.getSubprogram();
    if (!sp) continue;
    const std::string file = fileOfSubprogram(sp);
    if (file == unit) out.push_back(&f);
    else if (!header.empty() && file == header && (f.hasExternalLinkage() || f.hasLocalLinkage()))
      inHeader.push_back(&f);
  }
  const bool implemented = std::any_of(inHeader.begin(), inHeader.end(), [](const llvm::Function *f) {
    return f->hasExternalLinkage();
  });
  return out.empty() && implemented ? inHeader : out;
}

enum class Signedness { Unsigned, Signed };

// Our predicate for an IR one, and whether it compares signed values.
std::pair<unsigned, Signedness> predicateOf(llvm::CmpInst::Predicate p) {
  using P = llvm::CmpInst;
  switch (p) {
  case P::ICMP_EQ: return {MOSAIC_PRED_EQ, Signedness::Unsigned};
  case P::ICMP_NE: return {MOSAIC_PRED_NE, Signedness::Unsigned};
  case P::ICMP_ULT: return {MOSAIC_PRED_LT, Signedness::Unsigned};
  case P::ICMP_ULE: return {MOSAIC_PRED_LE, Signedness::Unsigned};
  case P::ICMP_UGT: return {MOSAIC_PRED_GT, Signedness::Unsigned};
  case P::ICMP_UGE: return {MOSAIC_PRED_GE, Signedness::Unsigned};
  case P::ICMP_SLT: return {MOSAIC_PRED_LT, Signedness::Signed};
  case P::ICMP_SLE: return {MOSAIC_PRED_LE, Signedness::Signed};
  case P::ICMP_SGT: return {MOSAIC_PRED_GT, Signedness::Signed};
  case P::ICMP_SGE: return {MOSAIC_PRED_GE, Signedness::Signed};
  case P::FCMP_OEQ: case P::FCMP_UEQ: return {MOSAIC_PRED_EQ, Signedness::Signed};
  case P::FCMP_ONE: case P::FCMP_UNE: return {MOSAIC_PRED_NE, Signedness::Signed};
  case P::FCMP_OLT: case P::FCMP_ULT: return {MOSAIC_PRED_LT, Signedness::Signed};
  case P::FCMP_OLE: case P::FCMP_ULE: return {MOSAIC_PRED_LE, Signedness::Signed};
  case P::FCMP_OGT: case P::FCMP_UGT: return {MOSAIC_PRED_GT, Signedness::Signed};
  case P::FCMP_OGE: case P::FCMP_UGE: return {MOSAIC_PRED_GE, Signedness::Signed};
  case P::FCMP_TRUE: return {MOSAIC_PRED_TRUE, Signedness::Signed};
  default: return {MOSAIC_PRED_FALSE, Signedness::Signed}; // FCMP_FALSE, ORD, UNO: treated as constant
  }
}

// A call whose result the condition is computed from (through casts): its
// string comparisons guide the branch.
llvm::CallInst *resultCall(llvm::Value *v) {
  for (int depth = 0; depth < 4 && v; ++depth) {
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(v)) {
      if (call->isInlineAsm() || llvm::isa<llvm::IntrinsicInst>(call)) return nullptr;
      return call;
    }
    if (auto *cast = llvm::dyn_cast<llvm::CastInst>(v)) v = cast->getOperand(0);
    else return nullptr;
  }
  return nullptr;
}

class Prober {
public:
  explicit Prober(llvm::Module &m) : m_(m), ctx_(m.getContext()) {
    auto *i32 = llvm::Type::getInt32Ty(ctx_), *i64 = llvm::Type::getInt64Ty(ctx_);
    auto *dbl = llvm::Type::getDoubleTy(ctx_), *vd = llvm::Type::getVoidTy(ctx_);
    auto *ptr = llvm::PointerType::getUnqual(ctx_);
    blocks_ = m.getOrInsertGlobal(MOSAIC_HOOK_BLOCKS, ptr);
    cmpInt_ = m.getOrInsertFunction(MOSAIC_HOOK_CMP_INT, vd, i32, i32, i64, i64, i32);
    cmpFloat_ = m.getOrInsertFunction(MOSAIC_HOOK_CMP_FLOAT, vd, i32, i32, dbl, dbl, i32);
    cond_ = m.getOrInsertFunction(MOSAIC_HOOK_COND, vd, i32, i32);
    condCall_ = m.getOrInsertFunction(MOSAIC_HOOK_COND_CALL, vd, i32, i32);
    switch_ = m.getOrInsertFunction(MOSAIC_HOOK_SWITCH, vd, i32, i64, i32, ptr, i32);
    scopeEnter_ = m.getOrInsertFunction(MOSAIC_HOOK_SCOPE_ENTER, vd);
    scopeLeave_ = m.getOrInsertFunction(MOSAIC_HOOK_SCOPE_LEAVE, vd, i32);
    mutateInt_ = m.getOrInsertFunction(MOSAIC_HOOK_MUTATE_INT, vd, i32, ptr, i32, i32, i64, i64, i32);
    mutateFloat_ = m.getOrInsertFunction(MOSAIC_HOOK_MUTATE_FLOAT, vd, i32, ptr, i32, i32, dbl, dbl, i32);
    enter_ = m.getOrInsertFunction(MOSAIC_HOOK_ENTER, i32, i32);
    leave_ = m.getOrInsertFunction(MOSAIC_HOOK_LEAVE, vd, i32, i32);
    resume_ = m.getOrInsertFunction(MOSAIC_HOOK_RESUME, vd, i32);
  }

  // The call depth around a function (Hooks.h: __mosaic_enter): entered at
  // its entry block, left before each return, and set again where an
  // exception or a longjmp lands in it (its callees' frames never left).
  void depth(llvm::Function &f, unsigned entryId) {
    llvm::IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
    llvm::Value *caller = b.CreateCall(enter_, {b.getInt32(entryId)});
    std::vector<llvm::Instruction *> returns, landings;
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb) {
        if (llvm::isa<llvm::ReturnInst>(i)) returns.push_back(&i);
        else if (llvm::isa<llvm::LandingPadInst>(i)) landings.push_back(i.getNextNode());
        else if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i); call && call->hasFnAttr(llvm::Attribute::ReturnsTwice))
          landings.push_back(call->getNextNode());
      }
    for (llvm::Instruction *ret : returns) {
      // Nothing may come between a musttail call and its return.
      llvm::Instruction *at = ret;
      if (auto *call = llvm::dyn_cast_or_null<llvm::CallInst>(ret->getPrevNode()); call && call->isMustTailCall())
        at = call;
      llvm::IRBuilder<>(at).CreateCall(leave_, {b.getInt32(entryId), caller});
    }
    for (llvm::Instruction *at : landings)
      if (at) llvm::IRBuilder<>(at).CreateCall(resume_, {caller});
  }

  // The infection probe of a mutation site, just before its instruction:
  // the operands, and the table of what its mutants compute.
  void mutate(const MutationSite &site) {
    llvm::Instruction *i = site.instruction;
    llvm::IRBuilder<> b(i);
    llvm::Value *a = i->getOperand(0), *c = i->getOperand(1);
    const bool isFloat = site.flags & MOSAIC_MUT_FLOAT;
    auto operand = [&](llvm::Value *v) { return isFloat ? toDouble(b, v) : toI64(b, v); };
    b.CreateCall(isFloat ? mutateFloat_ : mutateInt_,
                 {b.getInt32(site.first), opTable(site.replacements), b.getInt32(site.replacements.size()),
                  b.getInt32(site.original), operand(a), operand(c), b.getInt32(site.flags)});
  }

  // `__mosaic_blocks[id] = 1` at the first insertion point of the block,
  // and `= k + 1` after its k-th call of the program's own (saturated at
  // 255): how far into the block its last run got, for BBC's first
  // scenario (seed 003 §5.1: of two tests that stopped in the same block,
  // the one that got further). Calls are where a block stops part-way (a
  // crash, an abort, an exit or an exception in a callee); a fault in the
  // block's own instructions is not told apart from the call before it.
  void hit(llvm::BasicBlock &bb, unsigned id) {
    std::vector<llvm::CallInst *> calls;
    for (llvm::Instruction &i : bb)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i); call && progresses(*call)) calls.push_back(call);
    llvm::IRBuilder<> b(&*bb.getFirstInsertionPt());
    llvm::Value *base = b.CreateLoad(llvm::PointerType::getUnqual(ctx_), blocks_);
    llvm::Value *slot = b.CreateConstGEP1_32(b.getInt8Ty(), base, id);
    b.CreateStore(b.getInt8(1), slot);
    unsigned k = 0;
    for (llvm::CallInst *call : calls) {
      k = std::min(k + 1, 254u);
      llvm::IRBuilder<>(call->getNextNode()).CreateStore(b.getInt8(static_cast<std::uint8_t>(k + 1)), slot);
    }
  }

  // A call that may stop a block part-way and return to it: the
  // program's calls and memory intrinsics (they may fault), not the
  // harness's hooks, other intrinsics, inline assembly, calls that never
  // return or must stay in tail position.
  static bool progresses(const llvm::CallInst &call) {
    if (call.isInlineAsm() || call.isMustTailCall() || call.doesNotReturn()) return false;
    if (llvm::isa<llvm::IntrinsicInst>(call)) return llvm::isa<llvm::MemIntrinsic>(call);
    const llvm::Function *callee = call.getCalledFunction();
    return !callee || !callee->getName().starts_with("__mosaic_");
  }

  void branch(const BranchSites &site) {
    if (auto *br = llvm::dyn_cast<llvm::BranchInst>(site.terminator)) return conditional(br, site.firstSide);
    if (auto *sw = llvm::dyn_cast<llvm::SwitchInst>(site.terminator)) return switchProbe(sw, site.firstSide);
  }

private:
  void conditional(llvm::BranchInst *br, unsigned side) {
    llvm::IRBuilder<> b(br);
    llvm::Value *cond = br->getCondition();
    llvm::Value *siteId = b.getInt32(side);
    if (auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(cond); cmp && isScalar(cmp->getOperand(0))) {
      auto [pred, sign] = predicateOf(cmp->getPredicate());
      llvm::Value *a = cmp->getOperand(0), *c = cmp->getOperand(1);
      unsigned flags = widthFlag(a) | (sign == Signedness::Signed ? MOSAIC_CMP_SIGNED : 0);
      if (a->getType()->isPointerTy()) flags |= MOSAIC_CMP_POINTER;
      const bool callA = scopeCall(resultCall(a), side), callC = scopeCall(resultCall(c), side);
      if (callA || callC) flags |= MOSAIC_CMP_CALL;
      b.CreateCall(cmpInt_, {siteId, b.getInt32(pred), toI64(b, a), toI64(b, c), b.getInt32(flags)});
      return;
    }
    if (auto *cmp = llvm::dyn_cast<llvm::FCmpInst>(cond); cmp && cmp->getOperand(0)->getType()->isFloatingPointTy()) {
      auto [pred, sign] = predicateOf(cmp->getPredicate());
      (void)sign;
      const unsigned flags = MOSAIC_CMP_FLOAT | (llvm::CmpInst::isUnordered(cmp->getPredicate()) ? MOSAIC_CMP_UNORDERED : 0);
      b.CreateCall(cmpFloat_, {siteId, b.getInt32(pred), toDouble(b, cmp->getOperand(0)),
                               toDouble(b, cmp->getOperand(1)), b.getInt32(flags)});
      return;
    }
    llvm::Value *taken = b.CreateZExt(cond, b.getInt32Ty());
    if (scopeCall(resultCall(cond), side)) b.CreateCall(condCall_, {siteId, taken});
    else b.CreateCall(cond_, {siteId, taken});
  }

  void switchProbe(llvm::SwitchInst *sw, unsigned first) {
    llvm::Value *v = sw->getCondition();
    if (v->getType()->getIntegerBitWidth() > 64) return; // its sides simply never get a distance
    llvm::GlobalVariable *table = caseValues(m_, *sw, "__mosaic_cases");
    llvm::IRBuilder<> b(sw);
    b.CreateCall(switch_, {b.getInt32(first), b.CreateZExt(v, b.getInt64Ty()), b.getInt32(sw->getNumCases()), table,
                           b.getInt32(widthFlag(v))});
  }

  // Wraps a call in scope enter/leave once; true if `call` is one.
  bool scopeCall(llvm::CallInst *call, unsigned side) {
    if (!call) return false;
    if (scoped_.insert(call).second) {
      llvm::IRBuilder<>(call).CreateCall(scopeEnter_);
      llvm::IRBuilder<> after(call->getNextNode());
      after.CreateCall(scopeLeave_, {after.getInt32(side)});
    }
    return true;
  }

  static bool isScalar(llvm::Value *v) {
    llvm::Type *t = v->getType();
    return t->isPointerTy() || (t->isIntegerTy() && t->getIntegerBitWidth() <= 64);
  }
  static unsigned widthFlag(llvm::Value *v) {
    const unsigned bits = v->getType()->isPointerTy() ? 64 : v->getType()->getIntegerBitWidth();
    return bits << MOSAIC_CMP_WIDTH_SHIFT;
  }
  llvm::Value *toDouble(llvm::IRBuilder<> &b, llvm::Value *v) {
    if (v->getType()->isDoubleTy()) return v;
    if (v->getType()->getPrimitiveSizeInBits() < 64) return b.CreateFPExt(v, b.getDoubleTy());
    return b.CreateFPTrunc(v, b.getDoubleTy());
  }

  llvm::Module &m_;
  llvm::LLVMContext &ctx_;
  llvm::Constant *blocks_;
  // One constant table per distinct list of replacements.
  llvm::Constant *opTable(const std::vector<std::uint8_t> &replacements) {
    llvm::Constant *&table = opTables_[replacements];
    if (!table) {
      auto *data = llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<std::uint8_t>(replacements));
      table = new llvm::GlobalVariable(m_, data->getType(), /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
                                       data, "__mosaic_mutant_ops");
    }
    return table;
  }

  llvm::FunctionCallee cmpInt_, cmpFloat_, cond_, condCall_, switch_, scopeEnter_, scopeLeave_, mutateInt_,
      mutateFloat_, enter_, leave_, resume_;
  llvm::SmallPtrSet<llvm::CallInst *, 16> scoped_;
  std::map<std::vector<std::uint8_t>, llvm::Constant *> opTables_;
};

// Calls to the C library's comparisons, anywhere in the module (also in
// header code such as std::char_traits<char>::compare), go to the runtime.
void redirectComparisons(llvm::Module &m) {
  struct Replacement {
    const char *from, *to;
  };
  static constexpr Replacement kReplacements[] = {
#define MOSAIC_X(from, to) {from, to},
      MOSAIC_REPLACED_CALLS(MOSAIC_X)
#undef MOSAIC_X
  };
  for (const Replacement &r : kReplacements) {
    llvm::Function *f = m.getFunction(r.from);
    if (!f || !f->isDeclaration()) continue;
    llvm::FunctionCallee to = m.getOrInsertFunction(r.to, f->getFunctionType());
    for (llvm::Use &u : llvm::make_early_inc_range(f->uses()))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(u.getUser()); call && call->getCalledOperand() == f)
        call->setCalledFunction(to);
  }
}

// A module constructor, run before any other, reporting the unit's counts
// and its mutable globals (restored between tests by a persistent child).
void registerUnit(llvm::Module &m, unsigned blocks, unsigned sides, unsigned mutants) {
  llvm::LLVMContext &ctx = m.getContext();
  const llvm::DataLayout &dl = m.getDataLayout();
  auto *i32 = llvm::Type::getInt32Ty(ctx), *i64 = llvm::Type::getInt64Ty(ctx);
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  unsigned flags = 0;
  // Dynamic initialisers (C++ globals with constructors, C constructor
  // functions) were already there; the harness's own (named __mosaic_*: a
  // variadic call's stack scrubbing word) set nothing a test changes, and
  // must not cost a C unit its persistent children.
  if (const llvm::GlobalVariable *ctors = m.getNamedGlobal("llvm.global_ctors"))
    if (const auto *init = llvm::dyn_cast<llvm::ConstantArray>(ctors->getInitializer()))
      for (const llvm::Use &entry : init->operands()) {
        const auto *e = llvm::dyn_cast<llvm::ConstantStruct>(entry.get());
        const llvm::Value *fn = e && e->getNumOperands() > 1 ? e->getOperand(1)->stripPointerCasts() : nullptr;
        if (!fn || !fn->getName().starts_with("__mosaic")) flags |= MOSAIC_UNIT_DYNAMIC_INIT;
      }
  auto *entryTy = llvm::StructType::get(ctx, {ptr, i64});
  std::vector<llvm::Constant *> entries;
  for (llvm::GlobalVariable &g : m.globals()) {
    if (g.isDeclaration() || g.isConstant() || g.getName().starts_with("llvm.") || g.getName().starts_with("__mosaic") ||
        g.hasSection() || !g.getValueType()->isSized())
      continue;
    if (g.isThreadLocal()) {
      flags |= MOSAIC_UNIT_THREAD_LOCAL;
      continue;
    }
    entries.push_back(llvm::ConstantStruct::get(
        entryTy, {&g, llvm::ConstantInt::get(i64, dl.getTypeAllocSize(g.getValueType()))}));
  }
  auto *tableTy = llvm::ArrayType::get(entryTy, entries.size());
  auto *table = new llvm::GlobalVariable(m, tableTy, /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
                                         llvm::ConstantArray::get(tableTy, entries), "__mosaic_globals");
  llvm::FunctionCallee reg =
      m.getOrInsertFunction(MOSAIC_HOOK_REGISTER, llvm::Type::getVoidTy(ctx), i32, i32, i32, ptr, i32, i32);
  auto *ctor = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
                                      llvm::GlobalValue::InternalLinkage, "__mosaic_module_ctor", m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", ctor));
  b.CreateCall(reg, {b.getInt32(blocks), b.getInt32(sides), b.getInt32(mutants), table, b.getInt32(entries.size()),
                     b.getInt32(flags)});
  b.CreateRetVoid();
  llvm::appendToGlobalCtors(m, ctor, /*Priority=*/0);
}

} // namespace

bool instrumentModule(llvm::Module &module) {
  // A compile mosaic did not set up (a build system's compiler check in a
  // suite built with mutant schemata) is left as it is.
  const char *unitEnv = std::getenv(MOSAIC_ENV_PASS_UNIT);
  if (!unitEnv || !*unitEnv) return false;
  const std::string unit = realPath(unitEnv);
  const char *headerEnv = std::getenv(MOSAIC_ENV_PASS_UNIT_HEADER);
  const std::string header = headerEnv && *headerEnv ? realPath(headerEnv) : "";
  const std::vector<llvm::Function *> functions = unitFunctions(module, unit, header);
  const ModuleLayout layout = layOut(functions);

  // Infection probes only in a weak-mutation build: they cost a call per
  // arithmetic operation and comparison of the unit.
  const char *mutantsEnv = std::getenv(MOSAIC_ENV_PASS_MUTANTS);
  const std::string_view mode = mutantsEnv ? mutantsEnv : "";
  const bool weak = mode == "weak", schemata = mode == "schemata";

  // A schemata build compiles a whole suite with the pass: only the
  // translation unit that holds the unit's code describes it.
  if (const char *out = std::getenv(MOSAIC_ENV_PASS_DESCRIPTION); out && *out && !(schemata && functions.empty()))
    if (!writeDescription(layout, unit, out)) return false;
  if (schemata) {
    applySchemata(module, layout);
    return !functions.empty();
  }

  // A concolic build (issue 22): symbolic tracing everywhere, first, so
  // that it sees the code as written and none of the probes below.
  if (const char *symbolic = std::getenv(MOSAIC_ENV_PASS_SYMBOLIC); symbolic && std::string_view(symbolic) == "1")
    traceSymbolically(module, layout);

  Prober prober(module);
  for (const FunctionLayout &fl : layout.functions) {
    if (weak)
      for (const MutationSite &site : fl.mutations) prober.mutate(site);
    for (const BranchSites &b : fl.branches) prober.branch(b);
    for (llvm::BasicBlock &bb : *fl.function) prober.hit(bb, fl.blockIds.lookup(&bb));
    prober.depth(*fl.function, fl.blockIds.lookup(&fl.function->getEntryBlock()));
  }
  redirectComparisons(module);
  registerUnit(module, layout.blocks, layout.sides, weak ? layout.mutants : 0);
  return true;
}

} // namespace mosaic::instrument

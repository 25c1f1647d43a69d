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

// What a return carries: an integer's expression, or a pointer's address
// from a model (strchr's answer, returned by C++'s std::strchr wrapper).
bool carried(const llvm::Type *t) { return traced(t) || t->isPointerTy(); }

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

// The C library functions the runtime models (runtime/symmodels.c).
enum class Model { None, Strlen, Compare, Strtol, Ctype, Find };

struct ModelCall {
  Model model = Model::None;
  std::uint32_t kind = 0; ///< Compare, Ctype and Find: the hook's kind
  std::uint32_t mask = 0; ///< Ctype, kind 0: glibc's class bit
  int baseArg = -1;       ///< Strtol: the argument that gives the base; -1: base 10
};

ModelCall modelOf(llvm::StringRef name) {
  static const std::map<std::string, ModelCall, std::less<>> kModels = {
      {"strlen", {Model::Strlen}},
      {"strcmp", {Model::Compare, 0}},
      {"strncmp", {Model::Compare, 1}},
      {"memcmp", {Model::Compare, 2}},
      {"bcmp", {Model::Compare, 2}},
      {"atoi", {Model::Strtol}},
      {"atol", {Model::Strtol}},
      {"atoll", {Model::Strtol}},
      {"strtol", {Model::Strtol, 0, 0, 2}},
      {"strtoll", {Model::Strtol, 0, 0, 2}},
      {"strtoul", {Model::Strtol, 0, 0, 2}},
      {"strtoull", {Model::Strtol, 0, 0, 2}},
      // glibc's class bits (ctype.h's _ISbit on a little-endian machine).
      {"isupper", {Model::Ctype, 0, 0x100}},
      {"islower", {Model::Ctype, 0, 0x200}},
      {"isalpha", {Model::Ctype, 0, 0x400}},
      {"isdigit", {Model::Ctype, 0, 0x800}},
      {"isxdigit", {Model::Ctype, 0, 0x1000}},
      {"isspace", {Model::Ctype, 0, 0x2000}},
      {"isprint", {Model::Ctype, 0, 0x4000}},
      {"isgraph", {Model::Ctype, 0, 0x8000}},
      {"isblank", {Model::Ctype, 0, 0x1}},
      {"iscntrl", {Model::Ctype, 0, 0x2}},
      {"ispunct", {Model::Ctype, 0, 0x4}},
      {"isalnum", {Model::Ctype, 0, 0x8}},
      {"tolower", {Model::Ctype, 1}},
      {"toupper", {Model::Ctype, 2}},
      // Results are pointers: only comparisons and ptrtoint read them.
      {"strchr", {Model::Find, 0}},
      {"memchr", {Model::Find, 1}},
  };
  auto it = kModels.find(name);
  return it == kModels.end() ? ModelCall{} : it->second;
}

// libstdc++'s std::string members that copy a string's bytes where no
// pass sees them (compiled into libstdc++.so; at -O2 the unit inlines the
// constructors, which then copy with llvm.memcpy, but not _M_assign, which
// `a = b` calls). After such a call the copy's shadow is made from the
// source's, so that bytes a test gave stay symbolic in the copy. The
// layout read is libstdc++'s std::__cxx11::basic_string<char>, which the
// mangled names below name: the data pointer at offset 0, the length at
// offset 8 (bits/basic_string.h, _M_dataplus and _M_string_length).
enum class StringCopy {
  None,
  FromString, ///< argument `source` is a std::string: its bytes
  FromChars,  ///< argument `source` points at the bytes
  Substr,     ///< argument `source` is a std::string, the bytes from argument 2 on
};

struct StringCopyCall {
  StringCopy kind = StringCopy::None;
  unsigned dest = 0;   ///< the std::string written (`this`, or substr's sret)
  unsigned source = 1;
};

StringCopyCall stringCopyOf(llvm::StringRef name) {
  static const std::map<std::string, StringCopyCall, std::less<>> kMembers = {
      {"9_M_assignERKS4_", {StringCopy::FromString}},
      {"aSERKS4_", {StringCopy::FromString}},    // operator=(const string &)
      {"6assignERKS4_", {StringCopy::FromString}},
      {"C1ERKS4_", {StringCopy::FromString}},    // string(const string &)
      {"C2ERKS4_", {StringCopy::FromString}},
      {"C1EPKcmRKS3_", {StringCopy::FromChars}}, // string(const char *, size_t)
      {"C2EPKcmRKS3_", {StringCopy::FromChars}},
      {"C1EPKcRKS3_", {StringCopy::FromChars}},  // string(const char *)
      {"C2EPKcRKS3_", {StringCopy::FromChars}},
      {"6assignEPKcm", {StringCopy::FromChars}},
      {"12_M_constructIPcEEvT_S7_St20forward_iterator_tag", {StringCopy::FromChars}},
      {"12_M_constructIPKcEEvT_S8_St20forward_iterator_tag", {StringCopy::FromChars}},
  };
  static constexpr llvm::StringLiteral kString = "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE";
  static constexpr llvm::StringLiteral kConstString = "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE";
  if (name.consume_front(kConstString)) return name == "6substrEmm" ? StringCopyCall{StringCopy::Substr, 0, 1} : StringCopyCall{};
  if (!name.consume_front(kString)) return {};
  auto it = kMembers.find(name);
  return it == kMembers.end() ? StringCopyCall{} : it->second;
}

// libstdc++'s std::string members that read a string's bytes and answer
// with a number, compiled into libstdc++.so or inlined uninstrumented
// (available_externally): the runtime models them (runtime/symmodels.c)
// on the layout stringCopyOf reads. `s == "literal"` is compare(const
// char *) in libstdc++ 12 (bits/basic_string.h, operator==).
enum class StringRead { None, Find, CompareChars, CompareString };

StringRead stringReadOf(llvm::StringRef name) {
  if (!name.consume_front("_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE")) return StringRead::None;
  if (name == "4findEcm") return StringRead::Find;              // find(char, size_t)
  if (name == "7compareEPKc") return StringRead::CompareChars;  // compare(const char *)
  if (name == "7compareERKS4_") return StringRead::CompareString; // compare(const string &)
  return StringRead::None;
}

// glibc's <ctype.h> macros index a table whose address a call returns
// (`(*__ctype_b_loc())[c]`): the table's kind for `__mosaic_sym_ctype`
// when `gep` indexes one (0 classes, 1 tolower, 2 toupper), -1 otherwise.
int ctypeTable(const llvm::GetElementPtrInst *gep) {
  if (!gep || gep->getNumIndices() != 1) return -1;
  const auto *table = llvm::dyn_cast<llvm::LoadInst>(gep->getPointerOperand());
  const auto *call = table ? llvm::dyn_cast<llvm::CallInst>(table->getPointerOperand()) : nullptr;
  const llvm::Function *f = call ? call->getCalledFunction() : nullptr;
  if (!f) return -1;
  if (f->getName() == "__ctype_b_loc") return 0;
  if (f->getName() == "__ctype_tolower_loc") return 1;
  if (f->getName() == "__ctype_toupper_loc") return 2;
  return -1;
}

// The class bits a load from the classes table is tested with: the
// constant of the `and` it goes to (through one extension), else all.
std::uint32_t ctypeMask(const llvm::LoadInst &load) {
  const llvm::Value *v = &load;
  if (v->hasOneUse())
    if (const auto *ext = llvm::dyn_cast<llvm::CastInst>(*v->user_begin()); ext && (llvm::isa<llvm::ZExtInst>(ext) || llvm::isa<llvm::SExtInst>(ext)))
      v = ext;
  if (v->hasOneUse())
    if (const auto *bo = llvm::dyn_cast<llvm::BinaryOperator>(*v->user_begin()); bo && bo->getOpcode() == llvm::Instruction::And)
      for (const llvm::Value *o : bo->operands())
        if (const auto *k = llvm::dyn_cast<llvm::ConstantInt>(o)) return static_cast<std::uint32_t>(k->getZExtValue() & 0xffff);
  return 0xffff;
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
    strlen_ = m.getOrInsertFunction("__mosaic_sym_strlen", i32, ptr, i64, i32);
    compare_ = m.getOrInsertFunction("__mosaic_sym_compare", i32, ptr, ptr, i64, i32, i32);
    strtol_ = m.getOrInsertFunction("__mosaic_sym_strtol", i32, ptr, i32, i32);
    ctype_ = m.getOrInsertFunction("__mosaic_sym_ctype", i32, i32, i32, i32, i32);
    find_ = m.getOrInsertFunction("__mosaic_sym_find", i32, ptr, i64, i64, i32, i32, i32);
    stringCompare_ = m.getOrInsertFunction("__mosaic_sym_string_compare", i32, ptr, i64, ptr, i64, i32);
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
    if (auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(&i); cmp && (traced(cmp->getOperand(0)->getType()) || addressed(*cmp))) {
      const std::uint32_t op = comparisonOp(cmp->getPredicate());
      const llvm::Type *t = cmp->getOperand(0)->getType();
      const std::uint32_t width = t->isPointerTy() ? 64 : t->getIntegerBitWidth();
      after(i, [&](llvm::IRBuilder<> &b) {
        return b.CreateCall(binary_, {b.getInt32(op), get(cmp->getOperand(0)), get(cmp->getOperand(1)),
                                      toI64(b, cmp->getOperand(0)), toI64(b, cmp->getOperand(1)), b.getInt32(width)});
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
    if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&i)) {
      // A pointer made from a symbolic index stays concrete (counted),
      // except into glibc's <ctype.h> tables, which the loads model.
      if (ctypeTable(gep) < 0)
        for (llvm::Value *index : gep->indices()) concretized(*gep, index);
      return;
    }
    if (auto *l = llvm::dyn_cast<llvm::LoadInst>(&i)) {
      if (!traced(l->getType()) && !localPointer(*l)) return;
      const auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(l->getPointerOperand());
      if (const int kind = ctypeTable(gep); kind >= 0) {
        llvm::Value *index = gep->getOperand(1);
        if (!shadow_.count(index)) return;
        const std::uint32_t mask = kind == 0 ? ctypeMask(*l) : 0;
        after(i, [&](llvm::IRBuilder<> &b) {
          return b.CreateCall(ctype_, {b.getInt32(static_cast<std::uint32_t>(kind)), get(index), b.getInt32(mask),
                                       b.getInt32(l->getType()->getIntegerBitWidth())});
        });
        return;
      }
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
      llvm::Value *value = carried(s->getValueOperand()->getType()) ? get(s->getValueOperand()) : zero();
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
      if (!v || !carried(v->getType())) return;
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

  // A pointer loaded from a local variable: clang keeps locals in allocas
  // until SROA, which runs after this pass (PipelineStartEP), so a model's
  // address (strchr's answer) reaches its comparison through one. Other
  // pointer loads stay untraced: a model's address is rarely stored
  // anywhere else, and every pointer load would cost a hook.
  static bool localPointer(const llvm::LoadInst &l) {
    return l.getType()->isPointerTy() && llvm::isa<llvm::AllocaInst>(l.getPointerOperand()->stripPointerCasts());
  }

  // A comparison of pointers one of which has an address from a model
  // (strchr's answer against null): pointers are otherwise not traced.
  bool addressed(const llvm::ICmpInst &cmp) const {
    return cmp.getOperand(0)->getType()->isPointerTy() &&
           (shadow_.count(cmp.getOperand(0)) > 0 || shadow_.count(cmp.getOperand(1)) > 0);
  }

  void cast(llvm::CastInst &c) {
    // A model's address as an integer (`found - start`): the address's
    // expression, cut to the integer's width.
    if (llvm::isa<llvm::PtrToIntInst>(c) && shadow_.count(c.getOperand(0)) && traced(c.getType())) {
      const std::uint32_t width = c.getType()->getIntegerBitWidth();
      if (width == 64) {
        shadow_[&c] = get(c.getOperand(0));
        return;
      }
      after(c, [&](llvm::IRBuilder<> &b) {
        return b.CreateCall(cast_, {b.getInt32(MOSAIC_SYM_EXTRACT), get(c.getOperand(0)), b.getInt32(width)});
      });
      return;
    }
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
    // The C library's functions with a model, declared or glibc's inline
    // copies (atoi, tolower at -O1 and up: available_externally).
    if (callee && (callee->isDeclaration() || callee->hasAvailableExternallyLinkage()))
      if (const ModelCall model = modelOf(callee->getName()); model.model != Model::None) {
        if (traced(call.getType()) || (model.model == Model::Find && call.getType()->isPointerTy())) modelled(call, model);
        return;
      }
    // libstdc++'s string copies, declared or its inline copies (extern
    // templates: available_externally, inlined uninstrumented).
    if (callee && (callee->isDeclaration() || callee->hasAvailableExternallyLinkage()))
      if (const StringCopyCall copy = stringCopyOf(callee->getName()); copy.kind != StringCopy::None) {
        for (llvm::Value *a : call.args()) concretized(call, a);
        return stringCopied(call, copy);
      }
    if (callee && (callee->isDeclaration() || callee->hasAvailableExternallyLinkage()))
      if (const StringRead read = stringReadOf(callee->getName()); read != StringRead::None) return stringRead(call, read);
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
    if (llvm::isa<llvm::CallInst>(call) && carried(call.getType()))
      after(call, [&](llvm::IRBuilder<> &a) { return a.CreateCall(ret_, {call.getCalledOperand()}); });
  }

  // After a std::string member that copied bytes (stringCopyOf): the
  // shadow of the bytes now in the destination, from the source's. After
  // an invoke, at its normal destination when that has no other way in.
  void stringCopied(llvm::CallBase &call, const StringCopyCall &copy) {
    const unsigned need = copy.kind == StringCopy::Substr ? 3 : 2;
    if (call.arg_size() < need) return;
    for (unsigned k = 0; k < 2; ++k)
      if (!call.getArgOperand(k)->getType()->isPointerTy()) return;
    llvm::Instruction *at = call.getNextNode();
    if (auto *inv = llvm::dyn_cast<llvm::InvokeInst>(&call)) {
      llvm::BasicBlock *normal = inv->getNormalDest();
      at = normal->getSinglePredecessor() ? &*normal->getFirstInsertionPt() : nullptr;
    }
    if (!at) return;
    llvm::IRBuilder<> b(at);
    auto *ptr = llvm::PointerType::getUnqual(ctx_);
    llvm::Type *i8 = b.getInt8Ty(), *i64 = b.getInt64Ty();
    llvm::Value *dest = call.getArgOperand(copy.dest), *source = call.getArgOperand(copy.source);
    llvm::Value *data = b.CreateLoad(ptr, dest);
    llvm::Value *length = b.CreateLoad(i64, b.CreateConstGEP1_64(i8, dest, 8));
    llvm::Value *from = source;
    if (copy.kind != StringCopy::FromChars) from = b.CreateLoad(ptr, source);
    if (copy.kind == StringCopy::Substr) from = b.CreateGEP(i8, from, toI64(b, call.getArgOperand(2)));
    b.CreateCall(memcpy_, {data, from, length});
  }

  // A std::string member the runtime models (stringReadOf): its result's
  // expression from the string's bytes and length, read after the call.
  void stringRead(llvm::CallBase &call, StringRead read) {
    auto arg = [&](unsigned k) { return call.getArgOperand(k); };
    if (!traced(call.getType()) || call.arg_size() < 2 || !arg(0)->getType()->isPointerTy()) return;
    if (read == StringRead::Find && (call.arg_size() < 3 || !traced(arg(1)->getType()) || !traced(arg(2)->getType())))
      return;
    if (read != StringRead::Find && !arg(1)->getType()->isPointerTy()) return;
    if (read == StringRead::Find) concretized(call, arg(2)); // where the scan starts
    const std::uint32_t width = call.getType()->getIntegerBitWidth();
    after(call, [&](llvm::IRBuilder<> &b) -> llvm::Value * {
      auto *ptr = llvm::PointerType::getUnqual(ctx_);
      auto data = [&](llvm::Value *string) { return b.CreateLoad(ptr, string); };
      auto size = [&](llvm::Value *string) { return b.CreateLoad(b.getInt64Ty(), b.CreateConstGEP1_64(b.getInt8Ty(), string, 8)); };
      switch (read) {
      case StringRead::Find:
        return b.CreateCall(find_, {data(arg(0)), toI64(b, arg(2)), size(arg(0)), get(arg(1)),
                                    b.CreateZExtOrTrunc(arg(1), b.getInt32Ty()), b.getInt32(2)});
      case StringRead::CompareChars:
        return b.CreateCall(stringCompare_, {data(arg(0)), size(arg(0)), arg(1), b.getInt64(~0ull), b.getInt32(width)});
      case StringRead::CompareString:
        return b.CreateCall(stringCompare_, {data(arg(0)), size(arg(0)), data(arg(1)), size(arg(1)), b.getInt32(width)});
      case StringRead::None: break;
      }
      return nullptr;
    });
  }

  // A call of the C library the runtime models: its result's expression
  // from the model, after the call; an integer argument the model takes
  // as concrete (a length, a base) is counted when it was symbolic.
  void modelled(llvm::CallBase &call, const ModelCall &model) {
    const std::uint32_t width = traced(call.getType()) ? call.getType()->getIntegerBitWidth() : 64;
    auto arg = [&](unsigned k) { return call.getArgOperand(k); };
    auto pointers = [&](unsigned n) {
      for (unsigned k = 0; k < n; ++k)
        if (!arg(k)->getType()->isPointerTy()) return false;
      return call.arg_size() >= n;
    };
    switch (model.model) {
    case Model::Strlen:
      if (!pointers(1)) return;
      after(call, [&](llvm::IRBuilder<> &b) { return b.CreateCall(strlen_, {arg(0), toI64(b, &call), b.getInt32(width)}); });
      return;
    case Model::Compare:
      if (!pointers(2) || (model.kind > 0 && (call.arg_size() < 3 || !traced(arg(2)->getType())))) return;
      if (model.kind > 0) concretized(call, arg(2));
      after(call, [&](llvm::IRBuilder<> &b) {
        llvm::Value *n = model.kind > 0 ? toI64(b, arg(2)) : b.getInt64(0);
        return b.CreateCall(compare_, {arg(0), arg(1), n, b.getInt32(model.kind), b.getInt32(width)});
      });
      return;
    case Model::Strtol:
      if (!pointers(1)) return;
      if (model.baseArg >= 0 && (call.arg_size() <= static_cast<unsigned>(model.baseArg) ||
                                 !traced(arg(static_cast<unsigned>(model.baseArg))->getType())))
        return;
      if (model.baseArg >= 0) concretized(call, arg(static_cast<unsigned>(model.baseArg)));
      after(call, [&](llvm::IRBuilder<> &b) {
        llvm::Value *base = model.baseArg >= 0 ? b.CreateZExtOrTrunc(arg(static_cast<unsigned>(model.baseArg)), b.getInt32Ty())
                                               : b.getInt32(10);
        return b.CreateCall(strtol_, {arg(0), base, b.getInt32(width)});
      });
      return;
    case Model::Ctype:
      if (call.arg_size() != 1 || !traced(arg(0)->getType()) || !shadow_.count(arg(0))) return;
      after(call, [&](llvm::IRBuilder<> &b) {
        return b.CreateCall(ctype_, {b.getInt32(model.kind), get(arg(0)), b.getInt32(model.kind == 0 ? model.mask : 0),
                                     b.getInt32(width)});
      });
      return;
    case Model::Find: {
      const bool mem = model.kind == 1;
      if (!pointers(1) || call.arg_size() < (mem ? 3u : 2u) || !traced(arg(1)->getType())) return;
      if (mem && !traced(arg(2)->getType())) return;
      if (mem) concretized(call, arg(2));
      after(call, [&](llvm::IRBuilder<> &b) {
        return b.CreateCall(find_, {arg(0), b.getInt64(0), mem ? toI64(b, arg(2)) : b.getInt64(0), get(arg(1)),
                                    b.CreateZExtOrTrunc(arg(1), b.getInt32Ty()), b.getInt32(model.kind)});
      });
      return;
    }
    case Model::None: return;
    }
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
      arg_, setRet_, ret_, concretize_, strlen_, compare_, strtol_, ctype_, find_, stringCompare_;
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

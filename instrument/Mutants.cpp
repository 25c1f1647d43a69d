// Mutation sites: AOR, ROR and BOR over the unit's own instructions.
#include "Mutants.h"

#include "mosaic/abi/Hooks.h"
#include "mosaic/abi/Subsumption.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <array>
#include <optional>

namespace mosaic::instrument {

namespace {

constexpr std::array<std::uint8_t, 5> kArithmetic{MOSAIC_MUT_ADD, MOSAIC_MUT_SUB, MOSAIC_MUT_MUL, MOSAIC_MUT_DIV,
                                                  MOSAIC_MUT_REM};
constexpr std::array<std::uint8_t, 3> kBitwise{MOSAIC_MUT_AND, MOSAIC_MUT_OR, MOSAIC_MUT_XOR};
constexpr std::array<std::uint8_t, 8> kRelational{MOSAIC_MUT_EQ, MOSAIC_MUT_NE, MOSAIC_MUT_LT,   MOSAIC_MUT_LE,
                                                  MOSAIC_MUT_GT, MOSAIC_MUT_GE, MOSAIC_MUT_TRUE, MOSAIC_MUT_FALSE};

// What a binary operation provably computes when its right operand is a
// constant, for the operations that then compute a function of x alone;
// nullopt for the rest. Two operations with the same value compute the same.
enum class Known { X, Zero, Ones, Negated, Not };
std::optional<Known> known(std::uint8_t op, const llvm::APInt &c, bool isSigned) {
  const bool zero = c.isZero(), one = c.isOne(), ones = c.isAllOnes();
  switch (op) {
  case MOSAIC_MUT_ADD:
  case MOSAIC_MUT_SUB:
    if (zero) return Known::X;
    break;
  case MOSAIC_MUT_MUL:
    if (zero) return Known::Zero;
    if (one) return Known::X;
    if (ones) return Known::Negated;
    break;
  case MOSAIC_MUT_DIV:
    if (one) return Known::X;
    if (ones && isSigned) return Known::Negated;
    break;
  case MOSAIC_MUT_REM:
    if (one || (ones && isSigned)) return Known::Zero;
    break;
  case MOSAIC_MUT_AND:
    if (zero) return Known::Zero;
    if (ones) return Known::X;
    break;
  case MOSAIC_MUT_OR:
    if (zero) return Known::X;
    if (ones) return Known::Ones;
    break;
  case MOSAIC_MUT_XOR:
    if (zero) return Known::X;
    if (ones) return Known::Not;
    break;
  default: break;
  }
  return std::nullopt;
}

// Made by the compiler, not written in the source: no mutants.
bool compilerMade(const llvm::Instruction &i) {
  const llvm::DebugLoc &dl = i.getDebugLoc();
  return !dl || dl.getLine() == 0 || dl.getInlinedAt() || i.hasMetadata(llvm::LLVMContext::MD_nosanitize);
}

unsigned widthOf(const llvm::Type *t) { return t->isPointerTy() ? 64 : t->getPrimitiveSizeInBits().getFixedValue(); }

bool mutableInteger(const llvm::Type *t) {
  return t->isIntegerTy() && t->getIntegerBitWidth() > 1 && t->getIntegerBitWidth() <= 64;
}
bool mutableFloat(const llvm::Type *t) { return t->isFloatTy() || t->isDoubleTy(); }

std::optional<MutationSite> binarySite(llvm::BinaryOperator &bo) {
  using I = llvm::Instruction;
  llvm::Type *t = bo.getType();
  const bool isFloat = mutableFloat(t);
  if (!isFloat && !mutableInteger(t)) return std::nullopt;
  MutationSite s;
  s.instruction = &bo;
  switch (bo.getOpcode()) {
  case I::Add: case I::FAdd: s.original = MOSAIC_MUT_ADD; break;
  case I::Sub: case I::FSub: s.original = MOSAIC_MUT_SUB; break;
  case I::Mul: case I::FMul: s.original = MOSAIC_MUT_MUL; break;
  case I::SDiv: case I::UDiv: case I::FDiv: s.original = MOSAIC_MUT_DIV; break;
  case I::SRem: case I::URem: s.original = MOSAIC_MUT_REM; break;
  case I::And: s.original = MOSAIC_MUT_AND; break;
  case I::Or: s.original = MOSAIC_MUT_OR; break;
  case I::Xor: s.original = MOSAIC_MUT_XOR; break;
  default: return std::nullopt; // shifts, frem
  }
  // Pointer subtraction divides by the element size, `exact`: not the source's.
  if (bo.isExact()) return std::nullopt;
  const auto *rhs = llvm::dyn_cast<llvm::ConstantInt>(bo.getOperand(1));
  const auto *lhs = llvm::dyn_cast<llvm::ConstantInt>(bo.getOperand(0));
  // `~x` is `x ^ -1`: a unary operator, not a bitwise one between two values.
  if (s.original == MOSAIC_MUT_XOR && ((rhs && rhs->isMinusOne()) || (lhs && lhs->isMinusOne()))) return std::nullopt;
  // Signed when the source's operation is: sdiv/srem, or C's signed
  // arithmetic (nsw); unsigned arithmetic and bitwise operations are not.
  const unsigned op = bo.getOpcode();
  const bool isSigned = op == I::SDiv || op == I::SRem ||
                        ((op == I::Add || op == I::Sub || op == I::Mul) && bo.hasNoSignedWrap());
  s.flags = (isFloat ? MOSAIC_MUT_FLOAT : 0u) | (isSigned ? MOSAIC_MUT_SIGNED : 0u) |
            (widthOf(t) << MOSAIC_MUT_WIDTH_SHIFT);
  const bool bitwise = s.original >= MOSAIC_MUT_AND;
  std::vector<std::uint8_t> candidates;
  if (bitwise) candidates.assign(kBitwise.begin(), kBitwise.end());
  else candidates.assign(kArithmetic.begin(), kArithmetic.end() - (isFloat ? 1 : 0));
  const std::optional<Known> same = rhs ? known(s.original, rhs->getValue(), isSigned) : std::nullopt;
  std::vector<Known> taken;
  for (std::uint8_t r : candidates) {
    if (r == s.original) continue;
    if (rhs) {
      const std::optional<Known> k = known(r, rhs->getValue(), isSigned);
      if (k && (k == same || std::find(taken.begin(), taken.end(), *k) != taken.end())) continue;
      if (k) taken.push_back(*k);
    }
    s.replacements.push_back(r);
    s.subsuming.push_back(true);
  }
  if (s.replacements.empty()) return std::nullopt;
  // A mutant subsumed by another (abi/Subsumption.h) is no goal, when that
  // other is made and can be infected here: `x ^ 0`'s `|` is `x` as the
  // original is, so its `&` stays a goal. Floating point: none is.
  const bool zeroOperand = (rhs && rhs->isZero()) || (lhs && lhs->isZero());
  if (!isFloat && !zeroOperand)
    for (size_t k = 0; k < s.replacements.size(); ++k) {
      const unsigned by = mosaic_mut_bitwise_subsumer(s.original, s.replacements[k]);
      s.subsuming[k] = std::find(s.replacements.begin(), s.replacements.end(), by) == s.replacements.end();
    }
  return s;
}

std::uint8_t relationOf(llvm::CmpInst::Predicate p, bool &isSigned, bool &unordered) {
  using P = llvm::CmpInst;
  isSigned = P::isSigned(p);
  unordered = P::isFPPredicate(p) && P::isUnordered(p);
  switch (p) {
  case P::ICMP_EQ: case P::FCMP_OEQ: case P::FCMP_UEQ: return MOSAIC_MUT_EQ;
  case P::ICMP_NE: case P::FCMP_ONE: case P::FCMP_UNE: return MOSAIC_MUT_NE;
  case P::ICMP_SLT: case P::ICMP_ULT: case P::FCMP_OLT: case P::FCMP_ULT: return MOSAIC_MUT_LT;
  case P::ICMP_SLE: case P::ICMP_ULE: case P::FCMP_OLE: case P::FCMP_ULE: return MOSAIC_MUT_LE;
  case P::ICMP_SGT: case P::ICMP_UGT: case P::FCMP_OGT: case P::FCMP_UGT: return MOSAIC_MUT_GT;
  case P::ICMP_SGE: case P::ICMP_UGE: case P::FCMP_OGE: case P::FCMP_UGE: return MOSAIC_MUT_GE;
  default: return 0xff; // fcmp true/false/ord/uno
  }
}

std::optional<MutationSite> compareSite(llvm::CmpInst &cmp) {
  llvm::Type *t = cmp.getOperand(0)->getType();
  const bool isFloat = mutableFloat(t), isPointer = t->isPointerTy();
  if (!isFloat && !isPointer && !mutableInteger(t)) return std::nullopt;
  bool isSigned = false, unordered = false;
  MutationSite s;
  s.instruction = &cmp;
  s.original = relationOf(cmp.getPredicate(), isSigned, unordered);
  if (s.original == 0xff) return std::nullopt;
  // == and != say nothing of signedness: the replacements of an integer's
  // compare signed (C's int), of a pointer's unsigned (addresses).
  if (cmp.isEquality() && !isFloat) isSigned = !isPointer;
  s.flags = (isFloat ? MOSAIC_MUT_FLOAT : 0u) | (isSigned || isFloat ? MOSAIC_MUT_SIGNED : 0u) |
            (unordered ? MOSAIC_MUT_UNORDERED : 0u) | (widthOf(t) << MOSAIC_MUT_WIDTH_SHIFT);
  // Where the left operand can lie against the right: a constant bound
  // leaves out what no value reaches (nothing is below unsigned 0).
  std::array<bool, 3> possible{true, true, true};
  auto bound = [&](const llvm::Value *v, bool onRight) {
    llvm::APInt c;
    if (const auto *ci = llvm::dyn_cast<llvm::ConstantInt>(v)) c = ci->getValue();
    else if (llvm::isa<llvm::ConstantPointerNull>(v)) c = llvm::APInt(64, 0);
    else return;
    const bool low = isSigned ? c.isMinSignedValue() : c.isZero();
    const bool high = isSigned ? c.isMaxSignedValue() : c.isMaxValue();
    // x vs c: nothing below a least c, nothing above a greatest; c vs x: the mirror.
    if (low) possible[onRight ? MOSAIC_MUT_BELOW : MOSAIC_MUT_ABOVE] = false;
    if (high) possible[onRight ? MOSAIC_MUT_ABOVE : MOSAIC_MUT_BELOW] = false;
  };
  if (!isFloat) {
    bound(cmp.getOperand(1), true);
    bound(cmp.getOperand(0), false);
  }
  auto table = [&](std::uint8_t op) {
    unsigned bits = 0;
    for (unsigned p = 0; p < 3; ++p)
      if (possible[p] && mosaic_mut_holds(op, p)) bits |= 1u << p;
    return bits;
  };
  // The subsuming mutants first, so that one of two equal mutants that
  // stays is the subsuming one.
  unsigned keep[3];
  mosaic_mut_ror_sufficient_set(s.original, keep);
  std::vector<std::uint8_t> order(std::begin(keep), std::end(keep));
  for (std::uint8_t r : kRelational)
    if (!mosaic_mut_ror_sufficient(s.original, r)) order.push_back(r);
  std::vector<unsigned> seen{table(s.original)};
  for (std::uint8_t r : order) {
    if (r == s.original) continue;
    const unsigned tr = table(r);
    // Floating point: NaN is a fourth position; no two tables coincide.
    if (!isFloat && std::find(seen.begin(), seen.end(), tr) != seen.end()) continue;
    seen.push_back(tr);
    s.replacements.push_back(r);
    s.subsuming.push_back(mosaic_mut_ror_sufficient(s.original, r) != 0);
  }
  if (s.replacements.empty()) return std::nullopt;
  return s;
}

} // namespace

std::vector<MutationSite> mutationSites(llvm::BasicBlock &block, unsigned &next) {
  std::vector<MutationSite> out;
  for (llvm::Instruction &i : block) {
    if (compilerMade(i)) continue;
    std::optional<MutationSite> s;
    if (auto *bo = llvm::dyn_cast<llvm::BinaryOperator>(&i)) s = binarySite(*bo);
    else if (auto *cmp = llvm::dyn_cast<llvm::CmpInst>(&i)) s = compareSite(*cmp);
    if (!s) continue;
    s->first = next;
    next += s->replacements.size();
    out.push_back(std::move(*s));
  }
  return out;
}

const char *mutationSymbol(std::uint8_t op) {
  static constexpr const char *kSymbols[] = {"+", "-", "*", "/", "%", "&", "|", "^",
                                             "==", "!=", "<", "<=", ">", ">=", "true", "false"};
  return op < std::size(kSymbols) ? kSymbols[op] : "?";
}

const char *mutationOperator(std::uint8_t op) {
  if (op <= MOSAIC_MUT_REM) return "AOR";
  if (op <= MOSAIC_MUT_XOR) return "BOR";
  return "ROR";
}

} // namespace mosaic::instrument

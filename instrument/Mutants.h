// Weak mutation (issue 20, ALGORITHMS.md §6): which instructions of the
// unit get mutants, and which mutants they get.
#pragma once

#include <llvm/IR/Instruction.h>

#include <cstdint>
#include <vector>

namespace mosaic::instrument {

/// One instruction of the unit with its mutants (abi/Hooks.h: enum
/// mosaic_mut_op). Mutant ids are consecutive from `first`, one per entry of
/// `replacements`.
struct MutationSite {
  llvm::Instruction *instruction = nullptr;
  std::uint8_t original = 0;                 ///< what the instruction computes
  std::uint32_t flags = 0;                   ///< MOSAIC_MUT_* and the operand width
  unsigned first = 0;                        ///< id of the first mutant
  std::vector<std::uint8_t> replacements;    ///< what each mutant computes instead
  /// Per mutant: whether it is one of the subsuming mutants of its operator
  /// (abi/Subsumption.h, proven with Z3 by tests/solver: ROR, Kaminski et
  /// al.'s sufficient set, ALGORITHMS.md §6.1; BOR, `&`'s and `^`'s `|`
  /// subsume their third mutant; AOR and floating point, every mutant).
  std::vector<bool> subsuming;
};

/// The mutation sites of `block` in instruction order, ids from `next`
/// (advanced past them). Operators: AOR (+ - * / % on integers, + - * / on
/// float and double), ROR (the six relations and true/false, on integers,
/// pointers and floating point) and BOR (& | ^). An instruction the
/// compiler made rather than the source (no line, a sanitizer's check,
/// pointer subtraction's exact division, `~x`, one-bit logic) has none, and
/// neither has a mutant that provably computes what the original does, or
/// what an earlier mutant of the same instruction does (an operand that is
/// a constant: `x + 0` and `x - 0`; `x == 0` and `x <= 0` unsigned).
std::vector<MutationSite> mutationSites(llvm::BasicBlock &block, unsigned &next);

/// The operator's symbol in the description ("+", "<=", "true").
const char *mutationSymbol(std::uint8_t op);
/// Its class: "AOR", "ROR" or "BOR".
const char *mutationOperator(std::uint8_t op);

} // namespace mosaic::instrument

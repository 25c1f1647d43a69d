// Weak mutation's subsumption between two mutants of one integer
// operation, decided by Z3 (the only component that sees it). What
// abi/Subsumption.h's tables claim is checked against this.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace mosaic::solver {

/// An operation of the unit (abi/Hooks.h's MOSAIC_MUT_*: AOR, BOR or ROR)
/// on `width`-bit integer operands, signed or not.
struct IntegerOperation {
  std::uint8_t original = 0;
  unsigned width = 32;
  bool isSigned = true;
};

enum class Proof { Holds, Fails, Unknown };

/// Decides questions about mutants with one Z3 context, reused across
/// questions (making a context costs more than most of them).
class MutantProver {
public:
  explicit MutantProver(unsigned timeoutMs = 10000);
  ~MutantProver();
  MutantProver(const MutantProver &) = delete;
  MutantProver &operator=(const MutantProver &) = delete;

  /// Whether every pair of operands (a, b) that infects mutant `m1` of
  /// `op` also infects `m2`: m1 subsumes m2. Infected is what
  /// runtime/mutants.c computes: for AOR and BOR the results differ, or one
  /// of them traps (a division by zero, the least signed value divided by
  /// -1) and the other does not; for ROR the two relations answer
  /// differently. On Fails, `example` (when given) gets operands that
  /// infect m1 and not m2. Unknown when Z3 gives up within the timeout.
  Proof subsumes(const IntegerOperation &op, std::uint8_t m1, std::uint8_t m2, std::string *example = nullptr);

  /// Whether some operands infect mutant `m` of `op` (it is not equivalent).
  Proof infectable(const IntegerOperation &op, std::uint8_t m);

private:
  struct State;
  std::unique_ptr<State> s_;
};

} // namespace mosaic::solver

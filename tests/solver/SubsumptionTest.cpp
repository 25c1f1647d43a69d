// The weak-mutation goals the pass makes (abi/Subsumption.h) proven with
// Z3 on 8-, 16-, 32- and 64-bit operands, signed and unsigned: each mutant
// left out is subsumed by one that stays, each that stays can be infected
// and is subsumed by no other that stays, and among arithmetic and bitwise
// mutants no subsumption exists beyond the table's.
#include "mosaic/abi/Subsumption.h"
#include "mosaic/solver/Subsumption.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using mosaic::solver::IntegerOperation;
using mosaic::solver::Proof;

namespace {

const std::vector<std::uint8_t> kArithmetic{MOSAIC_MUT_ADD, MOSAIC_MUT_SUB, MOSAIC_MUT_MUL, MOSAIC_MUT_DIV,
                                            MOSAIC_MUT_REM};
const std::vector<std::uint8_t> kBitwise{MOSAIC_MUT_AND, MOSAIC_MUT_OR, MOSAIC_MUT_XOR};
const std::vector<std::uint8_t> kRelational{MOSAIC_MUT_EQ, MOSAIC_MUT_NE, MOSAIC_MUT_LT,   MOSAIC_MUT_LE,
                                            MOSAIC_MUT_GT, MOSAIC_MUT_GE, MOSAIC_MUT_TRUE, MOSAIC_MUT_FALSE};

std::vector<IntegerOperation> operationsOf(std::uint8_t original) {
  std::vector<IntegerOperation> out;
  for (unsigned width : {8u, 16u, 32u, 64u})
    for (bool isSigned : {false, true}) out.push_back({original, width, isSigned});
  return out;
}

std::string name(const IntegerOperation &o) {
  return "op " + std::to_string(o.original) + " on " + std::to_string(o.width) + "-bit " +
         (o.isSigned ? "signed" : "unsigned");
}

} // namespace

TEST(Subsumption, RelationalSufficientSetsSubsumeEveryOtherMutantAndAreMinimal) {
  mosaic::solver::MutantProver prover;
  for (std::uint8_t original : {MOSAIC_MUT_EQ, MOSAIC_MUT_NE, MOSAIC_MUT_LT, MOSAIC_MUT_LE, MOSAIC_MUT_GT, MOSAIC_MUT_GE})
    for (const IntegerOperation &o : operationsOf(original)) {
      std::vector<std::uint8_t> kept, left;
      for (std::uint8_t r : kRelational)
        if (r != original) (mosaic_mut_ror_sufficient(original, r) ? kept : left).push_back(r);
      ASSERT_EQ(kept.size(), 3u) << name(o);
      for (std::uint8_t k : kept) {
        EXPECT_EQ(prover.infectable(o, k), Proof::Holds) << name(o) << " mutant " << int(k);
        for (std::uint8_t other : kept)
          if (other != k) EXPECT_EQ(prover.subsumes(o, other, k), Proof::Fails) << name(o);
      }
      for (std::uint8_t l : left) {
        bool subsumed = false;
        for (std::uint8_t k : kept) subsumed |= prover.subsumes(o, k, l) == Proof::Holds;
        EXPECT_TRUE(subsumed) << name(o) << ": mutant " << int(l) << " is subsumed by none of the sufficient set";
      }
    }
}

TEST(Subsumption, ArithmeticAndBitwiseMutantsAreSubsumedExactlyAsTheTableSays) {
  mosaic::solver::MutantProver prover;
  for (const auto *group : {&kArithmetic, &kBitwise})
    for (std::uint8_t original : *group)
      for (const IntegerOperation &o : operationsOf(original))
        for (std::uint8_t m1 : *group)
          for (std::uint8_t m2 : *group) {
            if (m1 == original || m2 == original || m1 == m2) continue;
            std::string example;
            const Proof p = prover.subsumes(o, m1, m2, &example);
            const bool claimed = mosaic_mut_bitwise_subsumer(original, m2) == m1;
            EXPECT_EQ(p, claimed ? Proof::Holds : Proof::Fails)
                << name(o) << ": mutant " << int(m1) << " over " << int(m2) << (example.empty() ? "" : ": ") << example;
            if (claimed) EXPECT_EQ(prover.infectable(o, m1), Proof::Holds) << name(o);
          }
}

TEST(Subsumption, ACounterexampleInfectsTheOneMutantAndNotTheOther) {
  mosaic::solver::MutantProver prover;
  // `a + b`: `-` differs when b != 0 (and b != 2^(w-1)), `*` when
  // a + b != a * b; neither set holds the other.
  std::string example;
  EXPECT_EQ(prover.subsumes({MOSAIC_MUT_ADD, 32, true}, MOSAIC_MUT_SUB, MOSAIC_MUT_MUL, &example),
            Proof::Fails);
  EXPECT_NE(example.find("a = "), std::string::npos) << example;
  // `a & b`: `|` differs exactly when a != b, where `^` differs too.
  EXPECT_EQ(prover.subsumes({MOSAIC_MUT_AND, 64, false}, MOSAIC_MUT_OR, MOSAIC_MUT_XOR), Proof::Holds);
  EXPECT_EQ(prover.subsumes({MOSAIC_MUT_AND, 64, false}, MOSAIC_MUT_XOR, MOSAIC_MUT_OR), Proof::Fails);
}

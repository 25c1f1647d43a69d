/* Which mutants of an operation are weak mutation's goals: the subsuming
 * ones (issue 20, ALGORITHMS.md §6.1). Mutant m1 subsumes m2 when every
 * pair of operands that infects m1 (runtime/mutants.c: the result differs,
 * or one traps and the other does not) infects m2: a test that weakly
 * kills m1 kills m2, so m2 need not be a goal. The pass marks the mutants
 * (instrument/Mutants.cpp); every one of them stays in the description and
 * in `mosaic mutate`. tests/solver/SubsumptionTest.cpp proves these tables
 * with Z3 (lib/solver) on 8-, 16-, 32- and 64-bit operands, signed and
 * unsigned, and that no other pair of integer mutants is in such a relation.
 * Floating-point mutants are all goals. */
#ifndef MOSAIC_ABI_SUBSUMPTION_H
#define MOSAIC_ABI_SUBSUMPTION_H

#include "mosaic/abi/Hooks.h"

/* ROR: Kaminski, Ammann and Offutt's sufficient set for each relation: a
 * test that kills these three kills every relational mutant of it (each
 * other mutant is subsumed by one of them), in the order the pass makes
 * them (mutant ids follow it); and whether `replacement` of `original` is
 * one of the three. */
static __inline__ void mosaic_mut_ror_sufficient_set(unsigned original, unsigned set[3]) {
  switch (original) {
  case MOSAIC_MUT_LT: set[0] = MOSAIC_MUT_LE, set[1] = MOSAIC_MUT_NE, set[2] = MOSAIC_MUT_FALSE; break;
  case MOSAIC_MUT_LE: set[0] = MOSAIC_MUT_LT, set[1] = MOSAIC_MUT_EQ, set[2] = MOSAIC_MUT_TRUE; break;
  case MOSAIC_MUT_GT: set[0] = MOSAIC_MUT_GE, set[1] = MOSAIC_MUT_NE, set[2] = MOSAIC_MUT_FALSE; break;
  case MOSAIC_MUT_GE: set[0] = MOSAIC_MUT_GT, set[1] = MOSAIC_MUT_EQ, set[2] = MOSAIC_MUT_TRUE; break;
  case MOSAIC_MUT_EQ: set[0] = MOSAIC_MUT_LE, set[1] = MOSAIC_MUT_GE, set[2] = MOSAIC_MUT_FALSE; break;
  default: set[0] = MOSAIC_MUT_LT, set[1] = MOSAIC_MUT_GT, set[2] = MOSAIC_MUT_TRUE; break; /* NE */
  }
}
static __inline__ int mosaic_mut_ror_sufficient(unsigned original, unsigned replacement) {
  unsigned set[3];
  mosaic_mut_ror_sufficient_set(original, set);
  return replacement == set[0] || replacement == set[1] || replacement == set[2];
}

/* AOR and BOR on integers: the mutant of `original` that subsumes mutant
 * `replacement`, or 0xff when none does. Z3 finds none among + - * / %
 * (each pair has operands that infect one and not the other); among the
 * bitwise ones, `a | b` differs from `a & b` exactly when a != b, where
 * `a ^ b` differs from it too, and `a | b` differs from `a ^ b` exactly
 * when a & b != 0, where `a & b` differs from it too. */
static __inline__ unsigned mosaic_mut_bitwise_subsumer(unsigned original, unsigned replacement) {
  if (original == MOSAIC_MUT_AND && replacement == MOSAIC_MUT_XOR) return MOSAIC_MUT_OR;
  if (original == MOSAIC_MUT_XOR && replacement == MOSAIC_MUT_AND) return MOSAIC_MUT_OR;
  return 0xffu;
}

#endif

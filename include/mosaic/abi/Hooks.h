/* The C ABI between instrumented code and the runtime: the functions and
 * globals the LLVM pass (instrument/) emits calls to, implemented by the
 * runtime (runtime/). The pass names them through MOSAIC_HOOK_NAMES below,
 * so each name is written once. */
#ifndef MOSAIC_ABI_HOOKS_H
#define MOSAIC_ABI_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Comparison predicates, as the pass reports them. */
enum mosaic_pred {
  MOSAIC_PRED_EQ = 0,
  MOSAIC_PRED_NE = 1,
  MOSAIC_PRED_LT = 2,
  MOSAIC_PRED_LE = 3,
  MOSAIC_PRED_GT = 4,
  MOSAIC_PRED_GE = 5,
  MOSAIC_PRED_FALSE = 6, /* fcmp false / true: constant outcomes */
  MOSAIC_PRED_TRUE = 7
};
/* Flags of a comparison, beside the MOSAIC_CMP_* of Trace.h. */
#define MOSAIC_CMP_UNORDERED 4u /* fcmp u*: true when an operand is NaN */
#define MOSAIC_CMP_POINTER 16u  /* pointer comparison: distances are 0 or 1 */

/* Operators of weak mutation (issue 20): what an instruction of the unit
 * computes and what a mutant computes instead. The pass lists each
 * instruction's mutants in the unit description and, in a weak-mutation
 * build, calls __mosaic_mutate_int / _float before the instruction with
 * its operands. */
enum mosaic_mut_op {
  MOSAIC_MUT_ADD = 0, /* AOR: + - * / % */
  MOSAIC_MUT_SUB = 1,
  MOSAIC_MUT_MUL = 2,
  MOSAIC_MUT_DIV = 3,
  MOSAIC_MUT_REM = 4,
  MOSAIC_MUT_AND = 5, /* BOR: & | ^ */
  MOSAIC_MUT_OR = 6,
  MOSAIC_MUT_XOR = 7,
  MOSAIC_MUT_EQ = 8, /* ROR: == != < <= > >=, and the constants true, false */
  MOSAIC_MUT_NE = 9,
  MOSAIC_MUT_LT = 10,
  MOSAIC_MUT_LE = 11,
  MOSAIC_MUT_GT = 12,
  MOSAIC_MUT_GE = 13,
  MOSAIC_MUT_TRUE = 14,
  MOSAIC_MUT_FALSE = 15
};
/* Where the left operand of a relation lies against the right one, and
 * whether relation `op` holds there: the one definition of what a
 * relational mutant computes, for the pass (which mutants are the same)
 * and the runtime (how far a mutant is from differing). */
enum mosaic_mut_position { MOSAIC_MUT_BELOW = 0, MOSAIC_MUT_EQUAL = 1, MOSAIC_MUT_ABOVE = 2 };
static __inline__ int mosaic_mut_holds(unsigned op, unsigned position) {
  switch (op) {
  case MOSAIC_MUT_EQ: return position == MOSAIC_MUT_EQUAL;
  case MOSAIC_MUT_NE: return position != MOSAIC_MUT_EQUAL;
  case MOSAIC_MUT_LT: return position == MOSAIC_MUT_BELOW;
  case MOSAIC_MUT_LE: return position != MOSAIC_MUT_ABOVE;
  case MOSAIC_MUT_GT: return position == MOSAIC_MUT_ABOVE;
  case MOSAIC_MUT_GE: return position != MOSAIC_MUT_BELOW;
  case MOSAIC_MUT_TRUE: return 1;
  default: return 0; /* MOSAIC_MUT_FALSE */
  }
}

/* Flags of a mutated instruction. */
#define MOSAIC_MUT_SIGNED 1u      /* integer operands are signed (sdiv, srem, slt, ...) */
#define MOSAIC_MUT_FLOAT 2u       /* floating-point operands (width 32 or 64) */
#define MOSAIC_MUT_UNORDERED 4u   /* a floating-point relation that holds when an operand is NaN */
#define MOSAIC_MUT_WIDTH_SHIFT 8u /* bits 8..15: operand width in bits */

/* Where block hits and side distances go: the shared trace when a host is
 * there, a private buffer otherwise. Set before any instrumented code runs. */
extern uint8_t *__mosaic_blocks;
extern double *__mosaic_sides;
/* Per mutant: 0 = never reached, else 1 + the least infection distance. */
extern double *__mosaic_mutants;

/* A mutable global variable of the instrumented module: what a persistent
 * fork-server child restores before each test. */
typedef struct mosaic_global {
  void *address;
  uint64_t size;
} mosaic_global;

/* Flags of a unit (__mosaic_register_unit). */
#define MOSAIC_UNIT_DYNAMIC_INIT 1u /* C++ dynamic initialisers: globals may own heap memory */
#define MOSAIC_UNIT_THREAD_LOCAL 2u /* mutable thread-local variables: not restorable */

/* A unit's module constructor reports its counts and its mutable globals
 * (first thing it does, before any other constructor). */
void __mosaic_register_unit(uint32_t blocks, uint32_t sides, uint32_t mutants, const mosaic_global *globals,
                            uint32_t nglobals, uint32_t flags);

/* One mutated instruction about to compute `original` (enum mosaic_mut_op)
 * over `a` and `b`: mutants first .. first + n - 1 compute ops[0 .. n-1]
 * instead. Records each one's infection distance: 0 when its result would
 * differ, else how far the operands are from making it differ
 * (ALGORITHMS.md §6.2). Integer operands are zero-extended to 64 bits. */
void __mosaic_mutate_int(uint32_t first, const uint8_t *ops, uint32_t n, uint32_t original, uint64_t a, uint64_t b,
                         uint32_t flags);
void __mosaic_mutate_float(uint32_t first, const uint8_t *ops, uint32_t n, uint32_t original, double a, double b,
                           uint32_t flags);

/* Calls the test makes directly (issue 20: the direct-branch and top-level
 * criteria). Every function of the unit enters with __mosaic_enter (its
 * entry block's id) and keeps what it returns, the call depth it was
 * called at (0: called by the test, not by the unit's own code); it gives
 * that back with __mosaic_leave before each return, and with
 * __mosaic_resume after a landing pad or a second return from setjmp,
 * where the frames the exception or longjmp skipped never left. The
 * runtime marks the direct entries and returns (Trace.h: MOSAIC_DIRECT_*) and
 * keeps the branch distances of direct calls apart (direct_sides_off). */
uint32_t __mosaic_enter(uint32_t entry_block);
void __mosaic_leave(uint32_t entry_block, uint32_t depth);
void __mosaic_resume(uint32_t depth);

/* A conditional branch on an integer or pointer comparison. `site` is the
 * side id of the true side; the false side is site + 1. */
void __mosaic_cmp_int(uint32_t site, uint32_t pred, uint64_t a, uint64_t b, uint32_t flags);
/* A conditional branch on a floating-point comparison (NaN-safe). */
void __mosaic_cmp_float(uint32_t site, uint32_t pred, double a, double b, uint32_t flags);
/* A conditional branch on any other condition: taken is 1 for the true side. */
void __mosaic_cond(uint32_t site, uint32_t taken);
/* A switch: sides first_side + i for case i (values in `cases`), then the
 * default side first_side + n. */
void __mosaic_switch(uint32_t first_side, uint64_t value, uint32_t n, const uint64_t *cases, uint32_t flags);

/* Around a call whose result decides a branch: string comparisons made
 * inside it (at any depth) are remembered, and the branch probes that
 * follow (`__mosaic_cmp_int` with MOSAIC_CMP_CALL, `__mosaic_cond_call`)
 * use their distance for the side not taken. */
void __mosaic_scope_enter(void);
void __mosaic_scope_leave(uint32_t site);
void __mosaic_cond_call(uint32_t site, uint32_t taken);
#define MOSAIC_CMP_CALL 32u /* an operand is the result of a scoped call */

/* Replacements for the C library's comparisons: same results, and they
 * record their operands and a byte distance. */
int __mosaic_strcmp(const char *a, const char *b);
int __mosaic_strncmp(const char *a, const char *b, size_t n);
int __mosaic_strcasecmp(const char *a, const char *b);
int __mosaic_strncasecmp(const char *a, const char *b, size_t n);
int __mosaic_memcmp(const void *a, const void *b, size_t n);
int __mosaic_bcmp(const void *a, const void *b, size_t n);

/* X(library name, replacement): the calls the pass redirects. */
#define MOSAIC_REPLACED_CALLS(X)                                                                                   \
  X("strcmp", "__mosaic_strcmp")                                                                                   \
  X("strncmp", "__mosaic_strncmp")                                                                                 \
  X("strcasecmp", "__mosaic_strcasecmp")                                                                           \
  X("strncasecmp", "__mosaic_strncasecmp")                                                                         \
  X("memcmp", "__mosaic_memcmp")                                                                                   \
  X("bcmp", "__mosaic_bcmp")

#define MOSAIC_HOOK_BLOCKS "__mosaic_blocks"
#define MOSAIC_HOOK_SIDES "__mosaic_sides"
#define MOSAIC_HOOK_MUTANTS "__mosaic_mutants"
#define MOSAIC_HOOK_MUTATE_INT "__mosaic_mutate_int"
#define MOSAIC_HOOK_MUTATE_FLOAT "__mosaic_mutate_float"
#define MOSAIC_HOOK_ACTIVE_MUTANT "__mosaic_active_mutant"
#define MOSAIC_HOOK_MUTANT_REACHED "__mosaic_mutant_reached"
#define MOSAIC_HOOK_REGISTER "__mosaic_register_unit"
#define MOSAIC_HOOK_ENTER "__mosaic_enter"
#define MOSAIC_HOOK_LEAVE "__mosaic_leave"
#define MOSAIC_HOOK_RESUME "__mosaic_resume"
#define MOSAIC_HOOK_CMP_INT "__mosaic_cmp_int"
#define MOSAIC_HOOK_CMP_FLOAT "__mosaic_cmp_float"
#define MOSAIC_HOOK_COND "__mosaic_cond"
#define MOSAIC_HOOK_SWITCH "__mosaic_switch"
#define MOSAIC_HOOK_SCOPE_ENTER "__mosaic_scope_enter"
#define MOSAIC_HOOK_SCOPE_LEAVE "__mosaic_scope_leave"
#define MOSAIC_HOOK_COND_CALL "__mosaic_cond_call"

/* Environment the pass reads (it runs inside clang, which has no place for
 * a plugin's own flags): the unit whose functions it instruments, and where
 * it writes the unit's static description (Description.h). */
#define MOSAIC_ENV_PASS_UNIT "MOSAIC_PASS_UNIT"
#define MOSAIC_ENV_PASS_DESCRIPTION "MOSAIC_PASS_DESCRIPTION"
/* The unit's main header, whose code is the unit's when the unit file
 * itself defines no function: a single-header library's implementation file
 * (tinyobjloader's tiny_obj_loader.cc: `#define TINYOBJLOADER_IMPLEMENTATION`
 * then `#include "tiny_obj_loader.h"`). Optional. */
#define MOSAIC_ENV_PASS_UNIT_HEADER "MOSAIC_PASS_UNIT_HEADER"
/* "weak": the mutants' infection probes are compiled in (a harness for the
 * weak-mutation criterion); "schemata": every mutant is compiled in, the one
 * run chosen at run time, and nothing else is instrumented (`mosaic mutate`:
 * the unit then links with the mutation runtime, below); unset or anything
 * else: they are only listed. */
#define MOSAIC_ENV_PASS_MUTANTS "MOSAIC_PASS_MUTANTS"

/* What a unit built with mutant schemata links with: the mutation runtime
 * (runtime/mutate.c) in a suite `mosaic mutate` builds, where the mutant
 * that runs is the id in MOSAIC_MUTANT (none when unset); or the harness's
 * runtime (runtime/trace.c), where it is the trace's active_mutant for each
 * test and a reached site marks its mutants' slots in the mutants area
 * (1.0). The original code runs for every other mutant. */
extern uint32_t __mosaic_active_mutant;
/* Before a mutated instruction: mutants first .. first + n - 1 are reached.
 * A process appends the sites it reached ("first n" lines) to the file
 * MOSAIC_MUTANT_REACHED names, when it exits normally. */
void __mosaic_mutant_reached(uint32_t first, uint32_t n);
#define MOSAIC_ENV_MUTANT "MOSAIC_MUTANT"
#define MOSAIC_ENV_MUTANT_REACHED "MOSAIC_MUTANT_REACHED"

#ifdef __cplusplus
}
#endif

#endif

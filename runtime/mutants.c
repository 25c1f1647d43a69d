/* Weak mutation: the infection distance of each mutant of an instruction
 * about to run (Hooks.h: __mosaic_mutate_int, __mosaic_mutate_float).
 * EvoSuite's rules (ALGORITHMS.md §6.2): an arithmetic or bitwise mutant is
 * infected (0) when its result would differ, else 1; a relational one by
 * how far a - b is from a value where the two relations disagree. */
#include "internal.h"

#include <math.h>
#include <string.h>

static void infect(uint32_t id, double d) {
  mosaic_rt_least(__mosaic_mutants, mosaic_rt_unit_mutants(), id, d);
}

/* `op` over a and b on `width`-bit integers. *trap: it would not produce a
 * value (division by zero; the least signed value divided by -1). */
static uint64_t arithmetic(unsigned op, uint64_t a, uint64_t b, unsigned width, int sgn, int *trap) {
  *trap = 0;
  switch (op) {
  case MOSAIC_MUT_ADD: return mosaic_rt_mask(a + b, width);
  case MOSAIC_MUT_SUB: return mosaic_rt_mask(a - b, width);
  case MOSAIC_MUT_MUL: return mosaic_rt_mask(a * b, width);
  case MOSAIC_MUT_AND: return mosaic_rt_mask(a & b, width);
  case MOSAIC_MUT_OR: return mosaic_rt_mask(a | b, width);
  case MOSAIC_MUT_XOR: return mosaic_rt_mask(a ^ b, width);
  default: break; /* DIV, REM */
  }
  if (mosaic_rt_mask(b, width) == 0) {
    *trap = 1;
    return 0;
  }
  if (sgn) {
    const int64_t x = mosaic_rt_sign_extend(a, width), y = mosaic_rt_sign_extend(b, width);
    const int64_t least = width >= 64 ? INT64_MIN : -(int64_t)(1ull << (width - 1));
    if (y == -1 && x == least) {
      *trap = 1;
      return 0;
    }
    return mosaic_rt_mask((uint64_t)(op == MOSAIC_MUT_DIV ? x / y : x % y), width);
  }
  a = mosaic_rt_mask(a, width);
  b = mosaic_rt_mask(b, width);
  return op == MOSAIC_MUT_DIV ? a / b : a % b;
}

/* How far diff = a - b is from a position where `original` and `mutant`
 * disagree: 0 when they disagree here; 1 when they never do. */
static double relation_distance(unsigned original, unsigned mutant, double diff, int position) {
  double best = -1.0;
  int p;
  if (mosaic_mut_holds(original, position) != mosaic_mut_holds(mutant, position)) return 0.0;
  for (p = MOSAIC_MUT_BELOW; p <= MOSAIC_MUT_ABOVE; ++p) {
    double d;
    if (mosaic_mut_holds(original, p) == mosaic_mut_holds(mutant, p)) continue;
    d = p == MOSAIC_MUT_BELOW ? diff + 1.0 : p == MOSAIC_MUT_EQUAL ? fabs(diff) : -diff + 1.0;
    if (best < 0.0 || d < best) best = d;
  }
  return best < 0.0 ? 1.0 : best;
}

static int is_relation(unsigned op) { return op >= MOSAIC_MUT_EQ; }

void __mosaic_mutate_int(uint32_t first, const uint8_t *ops, uint32_t n, uint32_t original, uint64_t a, uint64_t b,
                         uint32_t flags) {
  const unsigned width = (flags >> MOSAIC_MUT_WIDTH_SHIFT) & 0xffu;
  const int sgn = (flags & MOSAIC_MUT_SIGNED) != 0;
  uint32_t i;
  if (is_relation(original)) {
    double diff;
    int position;
    if (sgn) {
      const int64_t x = mosaic_rt_sign_extend(a, width), y = mosaic_rt_sign_extend(b, width);
      diff = (double)x - (double)y;
      position = x < y ? MOSAIC_MUT_BELOW : x == y ? MOSAIC_MUT_EQUAL : MOSAIC_MUT_ABOVE;
    } else {
      const uint64_t x = mosaic_rt_mask(a, width), y = mosaic_rt_mask(b, width);
      diff = x >= y ? (double)(x - y) : -(double)(y - x);
      position = x < y ? MOSAIC_MUT_BELOW : x == y ? MOSAIC_MUT_EQUAL : MOSAIC_MUT_ABOVE;
    }
    for (i = 0; i < n; ++i) infect(first + i, relation_distance(original, ops[i], diff, position));
    return;
  }
  {
    int trap0, trap1;
    const uint64_t r0 = arithmetic(original, a, b, width, sgn, &trap0);
    for (i = 0; i < n; ++i) {
      const uint64_t r1 = arithmetic(ops[i], a, b, width, sgn, &trap1);
      infect(first + i, (trap0 != trap1 || (!trap0 && r0 != r1)) ? 0.0 : 1.0);
    }
  }
}

/* `op` over a and b, at the precision of `width` (32: float). */
static double float_arithmetic(unsigned op, double a, double b, unsigned width) {
  double r;
  switch (op) {
  case MOSAIC_MUT_ADD: r = a + b; break;
  case MOSAIC_MUT_SUB: r = a - b; break;
  case MOSAIC_MUT_MUL: r = a * b; break;
  case MOSAIC_MUT_DIV: r = a / b; break;
  default: r = fmod(a, b); break;
  }
  return width == 32 ? (double)(float)r : r;
}

/* Two results a program can tell apart: NaN from a number, -0.0 from 0.0. */
static int differ(double x, double y) {
  if (isnan(x) || isnan(y)) return isnan(x) != isnan(y);
  return memcmp(&x, &y, sizeof x) != 0;
}

void __mosaic_mutate_float(uint32_t first, const uint8_t *ops, uint32_t n, uint32_t original, double a, double b,
                           uint32_t flags) {
  const unsigned width = (flags >> MOSAIC_MUT_WIDTH_SHIFT) & 0xffu;
  uint32_t i;
  if (is_relation(original)) {
    if (isnan(a) || isnan(b)) {
      /* Unordered: every relation of the instruction's kind answers the same
       * (true for an unordered one), the constants what they are. */
      const int answer = (flags & MOSAIC_MUT_UNORDERED) != 0;
      for (i = 0; i < n; ++i) {
        const int mutant = ops[i] == MOSAIC_MUT_TRUE ? 1 : ops[i] == MOSAIC_MUT_FALSE ? 0 : answer;
        infect(first + i, mutant != answer ? 0.0 : 1.0);
      }
      return;
    }
    {
      double diff = a - b;
      const int position = a < b ? MOSAIC_MUT_BELOW : a == b ? MOSAIC_MUT_EQUAL : MOSAIC_MUT_ABOVE;
      if (!isfinite(diff)) diff = diff > 0 ? 1e308 : -1e308;
      for (i = 0; i < n; ++i) infect(first + i, relation_distance(original, ops[i], diff, position));
    }
    return;
  }
  {
    const double r0 = float_arithmetic(original, a, b, width);
    for (i = 0; i < n; ++i) infect(first + i, differ(r0, float_arithmetic(ops[i], a, b, width)) ? 0.0 : 1.0);
  }
}

/* Coverage and branch distances: the hooks instrumented code calls. */
#define _GNU_SOURCE
#include "internal.h"

#include "mosaic/abi/Hooks.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

uint8_t *__mosaic_blocks;
double *__mosaic_sides;
double *__mosaic_mutants;
mosaic_trace_header *mosaic_rt_trace;
/* Direct calls (Hooks.h: __mosaic_enter): entry marks per block and the
 * distances of branches evaluated at depth 1, in a function the test called. */
static uint8_t *direct_blocks;
static double *direct_sides;
/* How many of the unit's frames are live on this thread: 0 in the test's
 * own code. Thread-local: a unit's worker threads have their own. */
static _Thread_local uint32_t depth;

static uint32_t unit_blocks, unit_sides, unit_mutants, unit_flags, unit_nglobals;
static const mosaic_global *unit_globals;

uint32_t mosaic_rt_unit_blocks(void) { return unit_blocks; }
uint32_t mosaic_rt_unit_sides(void) { return unit_sides; }
uint32_t mosaic_rt_unit_mutants(void) { return unit_mutants; }
uint32_t mosaic_rt_unit_flags(void) { return unit_flags; }
const mosaic_global *mosaic_rt_unit_globals(uint32_t *n) {
  *n = unit_nglobals;
  return unit_globals;
}

void mosaic_rt_use_trace(mosaic_trace_header *t) {
  mosaic_rt_trace = t;
  t->unit_blocks = unit_blocks;
  t->unit_sides = unit_sides;
  t->unit_mutants = unit_mutants;
  /* A trace smaller than the unit (a stale harness) keeps the private
   * buffers: never write out of bounds. The host sees the counts. */
  if (t->block_capacity >= unit_blocks && t->side_capacity >= unit_sides && t->mutant_capacity >= unit_mutants) {
    __mosaic_blocks = (uint8_t *)t + t->blocks_off;
    __mosaic_sides = (double *)((char *)t + t->sides_off);
    __mosaic_mutants = (double *)((char *)t + t->mutants_off);
    direct_blocks = (uint8_t *)t + t->direct_off;
    direct_sides = (double *)((char *)t + t->direct_sides_off);
  }
}

void __mosaic_register_unit(uint32_t blocks, uint32_t sides, uint32_t mutants, const mosaic_global *globals,
                            uint32_t nglobals, uint32_t flags) {
  unit_blocks = blocks;
  unit_sides = sides;
  unit_mutants = mutants;
  unit_globals = globals;
  unit_nglobals = nglobals;
  unit_flags = flags;
  /* Private buffers until main() attaches the host's trace: static
   * initialisers of the unit may already run instrumented code. */
  __mosaic_blocks = (uint8_t *)calloc(blocks ? blocks : 1, 1);
  __mosaic_sides = (double *)calloc(sides ? sides : 1, sizeof(double));
  __mosaic_mutants = (double *)calloc(mutants ? mutants : 1, sizeof(double));
  direct_blocks = (uint8_t *)calloc(blocks ? blocks : 1, 1);
  direct_sides = (double *)calloc(sides ? sides : 1, sizeof(double));
}

/* ---- mutant schemata (a harness for assertion filtering) ---------------- */

uint32_t __mosaic_active_mutant = MOSAIC_NO_MUTANT;

void mosaic_rt_select_mutant(const mosaic_trace_header *t) { __mosaic_active_mutant = t->active_mutant; }

void __mosaic_mutant_reached(uint32_t first, uint32_t n) {
  const mosaic_trace_header *t = mosaic_rt_trace;
  uint32_t i;
  /* Only into the trace's area (a unit registers no count in this build). */
  if (!t || __mosaic_mutants != (double *)((char *)t + t->mutants_off)) return;
  for (i = first; i < first + n && i < t->mutant_capacity; ++i) __mosaic_mutants[i] = 1.0;
}

/* ---- direct calls ---------------------------------------------------- */

void mosaic_rt_reset_depth(void) { depth = 0; }

uint32_t __mosaic_enter(uint32_t entry) {
  const uint32_t caller = depth++;
  if (caller == 0 && entry < unit_blocks) direct_blocks[entry] |= MOSAIC_DIRECT_ENTERED;
  return caller;
}

void __mosaic_leave(uint32_t entry, uint32_t caller) {
  depth = caller;
  if (caller == 0 && entry < unit_blocks) direct_blocks[entry] |= MOSAIC_DIRECT_RETURNED;
}

void __mosaic_resume(uint32_t caller) { depth = caller + 1; }

/* ---- distances ------------------------------------------------------- */

static void update(uint32_t side, double d) {
  mosaic_rt_least(__mosaic_sides, unit_sides, side, d);
  if (depth == 1) mosaic_rt_least(direct_sides, unit_sides, side, d);
}

/* Whether both sides of the branch at `site` were already taken in this
 * run (slot 1.0: 1 + distance 0), in the direct area too when the
 * comparison is the called function's own: no distance can lower them, so
 * a comparison there needs no arithmetic. Most calls in a loop of the unit
 * are of this kind after its first exit. */
static inline int settled(uint32_t site) {
  if (site + 1 >= unit_sides || __mosaic_sides[site] != 1.0 || __mosaic_sides[site + 1] != 1.0) return 0;
  return depth != 1 || (direct_sides[site] == 1.0 && direct_sides[site + 1] == 1.0);
}

static double nu(double x) { return x / (x + 1.0); }

/* Scopes around calls whose result decides a branch (Hooks.h). */
#define SCOPE_DEPTH 64
static double scope_min[SCOPE_DEPTH];
static int scope_top = -1;
static uint32_t last_scope_site = 0xffffffffu;
static double last_scope_dist = -1.0; /* < 0: no string comparison in it */

void mosaic_rt_reset_scopes(void) {
  scope_top = -1;
  last_scope_site = 0xffffffffu;
  last_scope_dist = -1.0;
}

void __mosaic_scope_enter(void) {
  if (scope_top + 1 < SCOPE_DEPTH) scope_min[++scope_top] = -1.0;
}

void __mosaic_scope_leave(uint32_t site) {
  double d = -1.0;
  if (scope_top >= 0) d = scope_min[scope_top--];
  if (d >= 0.0 && scope_top >= 0 && (scope_min[scope_top] < 0.0 || d < scope_min[scope_top])) scope_min[scope_top] = d;
  last_scope_site = site;
  last_scope_dist = d;
}

static void note_string_distance(double d) {
  if (scope_top >= 0 && (scope_min[scope_top] < 0.0 || d < scope_min[scope_top])) scope_min[scope_top] = d;
}

/* The side not taken of a branch decided by a scoped call: the string
 * distance when the strings differed (reaching it likely needs them equal),
 * else 1. */
static int scoped_distance(uint32_t site, double *out) {
  if (site != last_scope_site || last_scope_dist < 0.0) return 0;
  *out = last_scope_dist > 0.0 ? last_scope_dist : 1.0;
  return 1;
}

static void record_cmp(uint32_t site, uint64_t a, uint64_t b, uint32_t flags) {
  mosaic_trace_header *t = mosaic_rt_trace;
  mosaic_cmp_entry *e;
  uint32_t n;
  if (!t) return;
  n = t->cmp_count;
  e = (mosaic_cmp_entry *)((char *)t + t->cmps_off);
  /* Loops compare against the same constant again and again: keep one. */
  if (n > 0 && n <= MOSAIC_CMP_CAPACITY && e[n - 1].a == a && e[n - 1].b == b && e[n - 1].site == site) return;
  t->cmp_count = n + 1;
  if (n >= MOSAIC_CMP_CAPACITY) return;
  e[n].a = a;
  e[n].b = b;
  e[n].site = site;
  e[n].flags = flags;
}


/* |a - b| on the ring of `width`-bit integers: right for signed and
 * unsigned operands alike. */
static double ring_distance(uint64_t a, uint64_t b, unsigned width) {
  uint64_t d = mosaic_rt_mask(a - b, width), e = mosaic_rt_mask(b - a, width);
  return (double)(d < e ? d : e);
}

/* EvoSuite's distances (ALGORITHMS.md §1.2, K = 1) for an ordered
 * predicate, from diff = a - b. Returns whether the true side is taken. */
static int ordered(uint32_t pred, double diff, double *dt, double *df) {
  int taken;
  switch (pred) {
  case MOSAIC_PRED_LT: taken = diff < 0; *dt = taken ? 0 : diff + 1; *df = taken ? -diff + 1 : 0; break;
  case MOSAIC_PRED_LE: taken = diff <= 0; *dt = taken ? 0 : diff + 1; *df = taken ? -diff + 1 : 0; break;
  case MOSAIC_PRED_GT: taken = diff > 0; *dt = taken ? 0 : -diff + 1; *df = taken ? diff + 1 : 0; break;
  default: taken = diff >= 0; *dt = taken ? 0 : -diff + 1; *df = taken ? diff + 1 : 0; break; /* GE */
  }
  return taken;
}

/* Equality: the distance to equal, on the ring of the operands' width. */
static int equality(uint32_t pred, double d, int equal, double *dt, double *df) {
  *dt = pred == MOSAIC_PRED_EQ ? d : (equal ? 1 : 0);
  *df = pred == MOSAIC_PRED_EQ ? (equal ? 1 : 0) : d;
  return pred == MOSAIC_PRED_EQ ? equal : !equal;
}

static void apply(uint32_t site, int taken, double dt, double df, uint32_t flags) {
  double scoped;
  if ((flags & MOSAIC_CMP_CALL) && scoped_distance(site, &scoped)) {
    if (taken) df = scoped;
    else dt = scoped;
  }
  update(site, dt);
  update(site + 1, df);
}

void __mosaic_cmp_int(uint32_t site, uint32_t pred, uint64_t a, uint64_t b, uint32_t flags) {
  const unsigned width = (flags >> MOSAIC_CMP_WIDTH_SHIFT) & 0xffu;
  double dt, df;
  int taken;
  if (!(flags & MOSAIC_CMP_POINTER)) record_cmp(site, a, b, flags);
  if (settled(site)) return;
  if (flags & MOSAIC_CMP_POINTER) {
    /* Null and equality tests: no gradient between addresses. */
    switch (pred) {
    case MOSAIC_PRED_EQ: taken = a == b; break;
    case MOSAIC_PRED_NE: taken = a != b; break;
    case MOSAIC_PRED_LT: taken = a < b; break;
    case MOSAIC_PRED_LE: taken = a <= b; break;
    case MOSAIC_PRED_GT: taken = a > b; break;
    default: taken = a >= b; break;
    }
    apply(site, taken, taken ? 0 : 1, taken ? 1 : 0, flags);
    return;
  }
  if (pred == MOSAIC_PRED_EQ || pred == MOSAIC_PRED_NE) {
    const int equal = mosaic_rt_mask(a, width) == mosaic_rt_mask(b, width);
    taken = equality(pred, ring_distance(a, b, width), equal, &dt, &df);
  } else {
    const double diff = (flags & MOSAIC_CMP_SIGNED)
                            ? (double)mosaic_rt_sign_extend(a, width) - (double)mosaic_rt_sign_extend(b, width)
                            : (double)mosaic_rt_mask(a, width) - (double)mosaic_rt_mask(b, width);
    taken = ordered(pred, diff, &dt, &df);
  }
  apply(site, taken, dt, df, flags);
}

void __mosaic_cmp_float(uint32_t site, uint32_t pred, double a, double b, uint32_t flags) {
  uint64_t ua, ub;
  memcpy(&ua, &a, sizeof ua);
  memcpy(&ub, &b, sizeof ub);
  record_cmp(site, ua, ub, flags | (64u << MOSAIC_CMP_WIDTH_SHIFT));
  if (settled(site)) return;
  if (pred == MOSAIC_PRED_TRUE || pred == MOSAIC_PRED_FALSE) {
    update(site, pred == MOSAIC_PRED_TRUE ? 0 : 1);
    update(site + 1, pred == MOSAIC_PRED_TRUE ? 1 : 0);
    return;
  }
  if (isnan(a) || isnan(b)) {
    /* Unordered: only the predicate's NaN answer is reachable this way. */
    const int taken = (flags & MOSAIC_CMP_UNORDERED) != 0;
    update(site, taken ? 0 : 1);
    update(site + 1, taken ? 1 : 0);
    return;
  }
  {
    double diff = a - b, dt, df;
    int taken;
    if (!isfinite(diff)) diff = diff > 0 ? 1e308 : -1e308;
    if (pred == MOSAIC_PRED_EQ || pred == MOSAIC_PRED_NE) taken = equality(pred, fabs(diff), a == b, &dt, &df);
    else taken = ordered(pred, diff, &dt, &df);
    apply(site, taken, dt, df, flags);
  }
}

void __mosaic_cond(uint32_t site, uint32_t taken) {
  if (settled(site)) return;
  update(site, taken ? 0 : 1);
  update(site + 1, taken ? 1 : 0);
}

void __mosaic_cond_call(uint32_t site, uint32_t taken) {
  double scoped;
  if (settled(site)) return;
  if (scoped_distance(site, &scoped)) {
    update(site, taken ? 0 : scoped);
    update(site + 1, taken ? scoped : 0);
  } else {
    __mosaic_cond(site, taken);
  }
}

void __mosaic_switch(uint32_t first, uint64_t value, uint32_t n, const uint64_t *cases, uint32_t flags) {
  const unsigned width = (flags >> MOSAIC_CMP_WIDTH_SHIFT) & 0xffu;
  int matched = 0;
  uint32_t i;
  for (i = 0; i < n; ++i) {
    const double d = ring_distance(value, cases[i], width);
    matched |= d == 0.0;
    update(first + i, d);
  }
  update(first + n, matched ? 1 : 0);
}

/* ---- string comparisons ---------------------------------------------- */

static void record_strings(const char *a, size_t la, const char *b, size_t lb) {
  mosaic_trace_header *t = mosaic_rt_trace;
  mosaic_str_entry *e;
  uint32_t n;
  if (!t) return;
  n = t->str_count;
  t->str_count = n + 1;
  if (n >= MOSAIC_STR_CAPACITY) return;
  e = (mosaic_str_entry *)((char *)t + t->strs_off) + n;
  e->len_a = (uint32_t)la;
  e->len_b = (uint32_t)lb;
  memcpy(e->a, a, la < MOSAIC_STR_BYTES ? la : MOSAIC_STR_BYTES);
  memcpy(e->b, b, lb < MOSAIC_STR_BYTES ? lb : MOSAIC_STR_BYTES);
}

/* Pynguin's string distance: |la - lb| + sum over common positions of
 * nu(|a_i - b_i|); 0 exactly when equal. */
static double byte_distance(const unsigned char *a, size_t la, const unsigned char *b, size_t lb, int fold) {
  const size_t common = la < lb ? la : lb;
  double d = la > lb ? (double)(la - lb) : (double)(lb - la);
  size_t i;
  for (i = 0; i < common; ++i) {
    int x = a[i], y = b[i];
    if (fold) x = tolower(x), y = tolower(y);
    if (x != y) d += nu((double)(x > y ? x - y : y - x));
  }
  return d;
}

static void compared(const void *a, size_t la, const void *b, size_t lb, int fold) {
  record_strings((const char *)a, la, (const char *)b, lb);
  note_string_distance(byte_distance((const unsigned char *)a, la, (const unsigned char *)b, lb, fold));
}

int __mosaic_strcmp(const char *a, const char *b) {
  compared(a, strlen(a), b, strlen(b), 0);
  return strcmp(a, b);
}
int __mosaic_strncmp(const char *a, const char *b, size_t n) {
  compared(a, strnlen(a, n), b, strnlen(b, n), 0);
  return strncmp(a, b, n);
}
int __mosaic_strcasecmp(const char *a, const char *b) {
  compared(a, strlen(a), b, strlen(b), 1);
  return strcasecmp(a, b);
}
int __mosaic_strncasecmp(const char *a, const char *b, size_t n) {
  compared(a, strnlen(a, n), b, strnlen(b, n), 1);
  return strncasecmp(a, b, n);
}
int __mosaic_memcmp(const void *a, const void *b, size_t n) {
  compared(a, n, b, n, 0);
  return memcmp(a, b, n);
}
int __mosaic_bcmp(const void *a, const void *b, size_t n) {
  compared(a, n, b, n, 0);
  return bcmp(a, b, n);
}

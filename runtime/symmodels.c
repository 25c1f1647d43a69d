/* Models of the C library functions C code branches on (issue 22;
 * abi/Symbolic.h, "models"). The pass calls a model just after the real
 * call, with the call's arguments and result; the model returns the
 * result's expression over the expressions of the bytes and values it
 * read (0: the result stays concrete) and records, as constraints with no
 * branch side, what the real function decided on the way that the result
 * alone does not say (atoi's digits). The real call did the work: a model
 * only says how its result depends on what was symbolic. Character
 * classes are the "C" locale's, glibc's bit layout. */
#include "internal.h"

#include "mosaic/abi/Symbolic.h"

#include <stdint.h>

/* Ours: bytes a model follows. The result of a call that reads more (a
 * long string's strlen) stays concrete, counted as concretised. */
#define MAX_SPAN 4096u

static uint32_t constant(uint64_t v, uint32_t width) {
  return mosaic_rt_sym_node(MOSAIC_SYM_CONST, width, 0, 0, 0, mosaic_rt_mask(v, width));
}

/* A binary node, 0 when an operand is 0 (a full region). */
static uint32_t op2(uint32_t op, uint32_t a, uint32_t b, uint32_t width) {
  if (!a || !b) return 0;
  return mosaic_rt_sym_node((uint8_t)op, op >= MOSAIC_SYM_EQ && op <= MOSAIC_SYM_SGE ? 1 : width, a, b, 0, 0);
}

static uint32_t ite(uint32_t c, uint32_t a, uint32_t b) {
  if (!c || !a || !b) return 0;
  return mosaic_rt_sym_node(MOSAIC_SYM_ITE, mosaic_rt_sym_width(a), c, a, b, 0);
}

/* `e` zero-extended or cut to `width`. */
static uint32_t resize(uint32_t e, uint32_t width) {
  const uint32_t w = mosaic_rt_sym_width(e);
  if (!e || w == width) return e;
  return mosaic_rt_sym_node(w < width ? MOSAIC_SYM_ZEXT : MOSAIC_SYM_EXTRACT, width, e, 0, 0, 0);
}

/* The byte at `p`: its expression, or a constant of its value. */
static uint32_t byte_at(const unsigned char *p) {
  const uint32_t e = mosaic_rt_sym_byte((uintptr_t)p);
  return e ? e : constant(*p, 8);
}

static int any_symbolic(const unsigned char *p, uint64_t n) {
  uint64_t k;
  for (k = 0; k < n; ++k)
    if (mosaic_rt_sym_byte((uintptr_t)(p + k))) return 1;
  return 0;
}

/* ---- strlen ---------------------------------------------------------------- */

/* The first zero byte's index: for each symbolic byte before the first
 * zero that is not symbolic, "this byte is zero ? its index : what
 * follows". Past the terminator that is the slack of a C string the test
 * made (MOSAIC_SYM_CSTRING_SLACK): symbolic zeros, then a concrete one,
 * so a model may lengthen the string. */
uint32_t __mosaic_sym_strlen(const char *s, uint64_t length, uint32_t width) {
  const unsigned char *p = (const unsigned char *)s;
  uint32_t e;
  uint64_t k, end = length;
  if (!mosaic_rt_sym_on() || !p || width == 0 || width > 64 || !any_symbolic(p, length + 1)) return 0;
  if (length >= MAX_SPAN) {
    mosaic_rt_sym_count_concretized();
    return 0;
  }
  /* Symbolic bytes from the terminator on (all zero: the real strlen
   * stopped at the first), up to a concrete zero; none past the slack. */
  while (end < length + MOSAIC_SYM_CSTRING_SLACK && mosaic_rt_sym_byte((uintptr_t)(p + end))) ++end;
  if (end > length && (mosaic_rt_sym_byte((uintptr_t)(p + end)) || p[end] != 0)) end = length;
  e = constant(end, width);
  for (k = end; k-- > 0;) {
    const uint32_t b = mosaic_rt_sym_byte((uintptr_t)(p + k));
    if (b) e = ite(op2(MOSAIC_SYM_EQ, b, constant(0, 8), 8), constant(k, width), e);
  }
  return e;
}

/* ---- strcmp, strncmp, memcmp ------------------------------------------------ */

/* kind: 0 strcmp, 1 strncmp (at most n bytes), 2 memcmp (n bytes). The
 * result is glibc's: the difference of the first differing bytes (as
 * unsigned char), 0 when equal. From the last byte both strings have
 * (either's terminator, or n) back to the first: "these bytes differ ?
 * their difference : (a string ends here ? 0 : what follows)". */
uint32_t __mosaic_sym_compare(const void *a, const void *b, uint64_t n, uint32_t kind, uint32_t width) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  uint64_t last = 0, k;
  uint32_t e;
  if (!mosaic_rt_sym_on() || !p || !q || width == 0 || width > 64 || kind > 2) return 0;
  if (kind > 0 && n == 0) return 0;
  if (kind == 2) last = n - 1;
  else {
    while (last < MAX_SPAN && p[last] && q[last] && (kind == 0 || last + 1 < n)) ++last;
  }
  if (last >= MAX_SPAN) {
    if (any_symbolic(p, MAX_SPAN) || any_symbolic(q, MAX_SPAN)) mosaic_rt_sym_count_concretized();
    return 0;
  }
  if (!any_symbolic(p, last + 1) && !any_symbolic(q, last + 1)) return 0;
  e = constant(0, width);
  for (k = last + 1; k-- > 0;) {
    const uint32_t x = byte_at(p + k), y = byte_at(q + k);
    const int symbolic = mosaic_rt_sym_byte((uintptr_t)(p + k)) || mosaic_rt_sym_byte((uintptr_t)(q + k));
    if (!symbolic) {
      /* Both concrete: equal bytes pass on to what follows (within the
       * strings, neither is zero), different ones decide. */
      if (p[k] != q[k]) e = constant((uint64_t)((int64_t)p[k] - (int64_t)q[k]), width);
      continue;
    }
    {
      const uint32_t differ = op2(MOSAIC_SYM_NE, x, y, 8);
      const uint32_t diff = op2(MOSAIC_SYM_SUB, resize(x, width), resize(y, width), width);
      if (kind != 2) e = ite(op2(MOSAIC_SYM_EQ, x, constant(0, 8), 8), constant(0, width), e);
      e = ite(differ, diff, e);
    }
    if (!e) return 0;
  }
  return e;
}

/* ---- atoi, strtol --------------------------------------------------------- */

/* `c - low < count`, unsigned (width 1): c in [low, low + count). */
static uint32_t in_range(uint32_t c, uint64_t low, uint64_t count) {
  const uint32_t w = mosaic_rt_sym_width(c);
  return op2(MOSAIC_SYM_ULT, op2(MOSAIC_SYM_SUB, c, constant(low, w), w), constant(count, w), w);
}

static uint32_t equals(uint32_t c, uint64_t v) { return op2(MOSAIC_SYM_EQ, c, constant(v, mosaic_rt_sym_width(c)), 1); }
static uint32_t either(uint32_t x, uint32_t y) { return op2(MOSAIC_SYM_OR, x, y, 1); }

static int is_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* `b - '0' < 10` (width 1). */
static uint32_t is_digit(uint32_t b) { return in_range(b, '0', 10); }

/* A digit's value, in 4 bits (what it is when the byte is a digit: the
 * solver then searches 16 values per byte, not 256). */
static uint32_t digit_value(uint32_t b) {
  const uint32_t d = op2(MOSAIC_SYM_SUB, b, constant('0', 8), 8);
  return d ? mosaic_rt_sym_node(MOSAIC_SYM_EXTRACT, 4, d, 0, 0, 0) : 0;
}

/* Bits that hold any sum of n digits of 4 bits each: 4, 8, 11, 15, ... */
static uint32_t sum_width(uint32_t n) {
  static const uint8_t bits[19] = {4, 4, 8, 11, 15, 18, 21, 24, 28, 31, 34, 38, 41, 44, 48, 51, 54, 58, 61};
  return n < 19 ? bits[n] : 64;
}

/* The value of the digits from `from` on, how many of the bytes (up to
 * the terminator, at most as many as the width holds) are digits being part of the expression:
 * from the last byte back, "this byte is a digit ? what follows : the
 * value of the digits before it"; the byte after the last one followed,
 * when the string goes on, stays no digit. */
static uint32_t digits(const unsigned char *p, uint64_t from, uint32_t width) {
  uint32_t sums[19], e;
  uint64_t end, k;
  /* Ours: no more digits than the result holds (10 for 32 bits): past
   * them the value wraps, which makes hard queries and few programs mean. */
  const uint64_t most = width <= 16 ? 5 : width <= 32 ? 10 : 18;
  for (end = from; end < from + most && p[end]; ++end) {}
  if (p[end] && mosaic_rt_sym_byte((uintptr_t)(p + end)))
    mosaic_rt_sym_constrain(is_digit(byte_at(p + end)), 0, MOSAIC_SYM_NO_SIDE);
  sums[0] = constant(0, 4);
  for (k = from; k < end; ++k) {
    /* The narrowest width that holds n digits of up to 15 (the digit's
     * 4 bits): small circuits are what keep the solver fast (9 digits:
     * 70 ms where 32 bits throughout time out). In the result's width at
     * most: a narrower result is the wider value's low bits. */
    const uint32_t n = (uint32_t)(k - from + 1), w = sum_width(n) < width ? sum_width(n) : width;
    sums[n] = op2(MOSAIC_SYM_ADD, op2(MOSAIC_SYM_MUL, resize(sums[n - 1], w), constant(10, w), w),
                  resize(digit_value(byte_at(p + k)), w), w);
  }
  e = resize(sums[end - from], width);
  for (k = end; k-- > from;) e = ite(is_digit(byte_at(p + k)), e, resize(sums[k - from], width));
  return e;
}

static uint32_t negated(uint32_t e) { return e ? mosaic_rt_sym_node(MOSAIC_SYM_NEG, mosaic_rt_sym_width(e), e, 0, 0, 0) : 0; }

/* Decimal only (atoi, atol, atoll; strtol and kin with base 10, or base 0
 * and no leading zero). Leading spaces stay what they are; so does a
 * sign the run read; without one the first byte may become one. Other
 * bases, or a run that read more than 18 digits: concrete. */
uint32_t __mosaic_sym_strtol(const char *s, uint32_t base, uint32_t width) {
  const unsigned char *p = (const unsigned char *)s;
  uint64_t i = 0, first, end, k;
  int sign = 0;
  uint32_t b;
  if (!mosaic_rt_sym_on() || !p || width == 0 || width > 64) return 0;
  while (i < MAX_SPAN && is_space(p[i])) ++i;
  if (p[i] == '+' || p[i] == '-') sign = p[i++];
  first = i;
  while (i < MAX_SPAN && p[i] >= '0' && p[i] <= '9') ++i;
  for (end = i; end < first + 19 && p[end]; ++end) {}
  if (!any_symbolic(p, end + 1)) return 0;
  if (i - first > 18 || (base != 10 && !(base == 0 && p[first] != '0'))) {
    mosaic_rt_sym_count_concretized();
    return 0;
  }
  for (k = 0; k < first; ++k)
    if ((b = mosaic_rt_sym_byte((uintptr_t)(p + k))))
      mosaic_rt_sym_constrain(op2(MOSAIC_SYM_EQ, b, constant(p[k], 8), 8), 1, MOSAIC_SYM_NO_SIDE);
  b = mosaic_rt_sym_byte((uintptr_t)(p + first));
  if (sign || !b || !p[first]) {
    const uint32_t e = digits(p, first, width);
    return sign == '-' ? negated(e) : e;
  }
  {
    /* No sign: the first byte stays no space, and may become a sign. */
    const uint32_t c = resize(b, 32);
    const uint32_t unsigned_ = digits(p, first, width), after = digits(p, first + 1, width);
    mosaic_rt_sym_constrain(either(in_range(c, '\t', 5), equals(c, ' ')), 0, MOSAIC_SYM_NO_SIDE);
    return ite(equals(c, '-'), negated(after), ite(equals(c, '+'), after, unsigned_));
  }
}

/* ---- <ctype.h> -------------------------------------------------------------- */


/* glibc's class bits on a little-endian machine (ctype.h's _ISbit). */
enum {
  IS_UPPER = 0x100,
  IS_LOWER = 0x200,
  IS_ALPHA = 0x400,
  IS_DIGIT = 0x800,
  IS_XDIGIT = 0x1000,
  IS_SPACE = 0x2000,
  IS_PRINT = 0x4000,
  IS_GRAPH = 0x8000,
  IS_BLANK = 0x1,
  IS_CNTRL = 0x2,
  IS_PUNCT = 0x4,
  IS_ALNUM = 0x8,
};

/* Whether c is in the class of `bit`, in the "C" locale (width 1). */
static uint32_t in_class(uint32_t c, uint32_t bit) {
  switch (bit) {
  case IS_UPPER: return in_range(c, 'A', 26);
  case IS_LOWER: return in_range(c, 'a', 26);
  case IS_ALPHA: return either(in_range(c, 'A', 26), in_range(c, 'a', 26));
  case IS_DIGIT: return in_range(c, '0', 10);
  case IS_XDIGIT: return either(in_range(c, '0', 10), either(in_range(c, 'a', 6), in_range(c, 'A', 6)));
  case IS_SPACE: return either(equals(c, ' '), in_range(c, '\t', 5));
  case IS_PRINT: return in_range(c, 0x20, 95);
  case IS_GRAPH: return in_range(c, 0x21, 94);
  case IS_BLANK: return either(equals(c, ' '), equals(c, '\t'));
  case IS_CNTRL: return either(in_range(c, 0, 0x20), equals(c, 0x7f));
  case IS_PUNCT: {
    /* graphic and not alphanumeric: ! " # ... / : ... @ [ ... ` { ... ~ */
    const uint32_t alnum = either(in_class(c, IS_ALPHA), in_class(c, IS_DIGIT));
    const uint32_t not_alnum = alnum ? mosaic_rt_sym_node(MOSAIC_SYM_NOT, 1, alnum, 0, 0, 0) : 0;
    return op2(MOSAIC_SYM_AND, in_range(c, 0x21, 94), not_alnum, 1);
  }
  default: return either(in_class(c, IS_ALPHA), in_class(c, IS_DIGIT)); /* IS_ALNUM */
  }
}

/* kind 0: the class bits glibc's table (__ctype_b_loc) holds for c, only
 * the bits of `mask` (the mask the code tests with, when the pass saw it;
 * 0xffff otherwise); 1: tolower; 2: toupper. The result has `width` bits. */
uint32_t __mosaic_sym_ctype(uint32_t kind, uint32_t c, uint32_t mask, uint32_t width) {
  uint32_t e, bit;
  if (!mosaic_rt_sym_on() || !c || width == 0 || width > 64) return 0;
  if (kind == 1 || kind == 2) {
    const uint32_t w = mosaic_rt_sym_width(c);
    const uint32_t shifted = kind == 1 ? op2(MOSAIC_SYM_ADD, c, constant(32, w), w) : op2(MOSAIC_SYM_SUB, c, constant(32, w), w);
    return resize(ite(in_range(c, kind == 1 ? 'A' : 'a', 26), shifted, c), width);
  }
  e = constant(0, width);
  for (bit = 1; bit <= 0x8000; bit <<= 1)
    if (mask & bit) e = op2(MOSAIC_SYM_OR, e, ite(in_class(c, bit), constant(bit, width), constant(0, width)), width);
  return e;
}

/* ---- strchr, memchr, std::string::find ------------------------------------- */

/* Where the first byte equal to (unsigned char)c is: from the last byte a
 * model may put c in back to the first, "this byte is c ? where :
 * (strchr: this byte is zero ? null :) what follows", and past the last
 * null (npos for find). The last byte is past where the real function
 * stopped, so that a model may also move c further on: strchr's to the
 * string's terminator and on through the symbolic slack of a C string the
 * test made (as strlen's model), find's to the string's end, memchr's over
 * the input bytes that follow (what lies past them may not be the
 * caller's to read). */
uint32_t __mosaic_sym_find(const void *s, uint64_t start, uint64_t n, uint32_t c, uint32_t c_value, uint32_t kind) {
  const unsigned char *p = (const unsigned char *)s;
  const unsigned char want = (unsigned char)c_value;
  uint64_t last = start, k;
  uint32_t wanted, e;
  if (!mosaic_rt_sym_on() || !p || kind > 2 || (kind > 0 && start >= n)) return 0;
  if (kind == 0)
    while (last - start < MAX_SPAN && p[last] != want && p[last] != 0) ++last;
  else
    while (last + 1 < n && last - start < MAX_SPAN && p[last] != want) ++last;
  if (last - start >= MAX_SPAN) {
    if (c || any_symbolic(p + start, MAX_SPAN)) mosaic_rt_sym_count_concretized();
    return 0;
  }
  if (kind == 0) {
    uint64_t end;
    while (last - start < MAX_SPAN && p[last] != 0) ++last;
    end = last;
    while (end < last + MOSAIC_SYM_CSTRING_SLACK && mosaic_rt_sym_byte((uintptr_t)(p + end + 1))) ++end;
    if (end > last && !mosaic_rt_sym_byte((uintptr_t)(p + end + 1)) && p[end + 1] == 0) last = end;
  } else if (kind == 1) {
    while (last + 1 < n && last - start < MAX_SPAN && mosaic_rt_sym_byte((uintptr_t)(p + last + 1))) ++last;
  } else if (n - start <= MAX_SPAN) {
    last = n - 1;
  }
  if (!c && !any_symbolic(p + start, last - start + 1)) return 0;
  wanted = c ? resize(c, 8) : constant(want, 8);
#define FOUND(k) constant(kind == 2 ? (uint64_t)(k) : (uint64_t)(uintptr_t)(p + (k)), 64)
  e = constant(kind == 2 ? ~0ull : 0, 64);
  for (k = last + 1; k-- > start;) {
    uint32_t b;
    if (!c && !mosaic_rt_sym_byte((uintptr_t)(p + k))) {
      /* Both concrete: this byte decides, or passes on to what follows. */
      if (p[k] == want) e = FOUND(k);
      else if (kind == 0 && p[k] == 0) e = constant(0, 64);
      continue;
    }
    b = byte_at(p + k);
    if (kind == 0) e = ite(op2(MOSAIC_SYM_EQ, b, constant(0, 8), 8), constant(0, 64), e);
    e = ite(op2(MOSAIC_SYM_EQ, b, wanted, 8), FOUND(k), e);
    if (!e) return 0;
  }
#undef FOUND
  return e;
}

/* ---- std::string::compare ---------------------------------------------------- */

uint32_t __mosaic_sym_string_compare(const char *a, uint64_t an, const char *b, uint64_t bn, uint32_t width) {
  uint64_t len;
  int64_t d;
  uint32_t r;
  if (!mosaic_rt_sym_on() || !a || !b || width == 0 || width > 64) return 0;
  if (bn == UINT64_MAX) {
    for (bn = 0; bn < MAX_SPAN && b[bn]; ++bn) {}
    if (bn >= MAX_SPAN) return 0;
  }
  len = an < bn ? an : bn;
  if (len == 0) return 0;
  r = __mosaic_sym_compare(a, b, len, 2, width);
  if (!r) return 0;
  d = (int64_t)(an - bn);
  if (d > INT32_MAX) d = INT32_MAX;
  if (d < INT32_MIN) d = INT32_MIN;
  return ite(op2(MOSAIC_SYM_EQ, r, constant(0, width), width), constant((uint64_t)d, width), r);
}

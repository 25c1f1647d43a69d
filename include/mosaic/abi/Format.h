/* What a printf-style format string asks of the arguments after it, shared
 * by the harness (which performs a call of a format function only when its
 * extra arguments fit its format: a mismatch is the caller's undefined
 * behaviour, not a defect of the callee) and the test generator (which
 * chooses extras that fit). Plain C, header only. */
#ifndef MOSAIC_ABI_FORMAT_H
#define MOSAIC_ABI_FORMAT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of extra argument, as letters: a 32-bit int ('i'), a 64-bit
 * integer ('l'), a double ('d'), a char pointer ('s'), another pointer
 * ('p'). */
#define MOSAIC_VARARG_INT 'i'
#define MOSAIC_VARARG_LONG 'l'
#define MOSAIC_VARARG_DOUBLE 'd'
#define MOSAIC_VARARG_STRING 's'
#define MOSAIC_VARARG_POINTER 'p'

/* Writes into `kinds` (room for `room` letters, NUL-terminated when there
 * is room) the kind of each argument the printf-style format `fmt`
 * consumes, in order; returns how many, or -1 when the format asks for
 * something no test passes: `%n` (it writes through a pointer), positional
 * arguments (`%1$d`), `long double`, wide strings, or more arguments than
 * `room`. A `*` width or precision consumes an int. */
static __inline__ int mosaic_format_kinds(const char *fmt, char *kinds, size_t room) {
  size_t n = 0;
  const char *p = fmt;
  while (*p) {
    int longs = 0, wide = 0;
    char kind;
    if (*p++ != '%') continue;
    if (*p == '%') {
      ++p;
      continue;
    }
    while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0' || *p == '\'') ++p;
    if (*p == '*') {
      if (n >= room) return -1;
      kinds[n++] = MOSAIC_VARARG_INT;
      ++p;
    }
    while (*p >= '0' && *p <= '9') ++p;
    if (*p == '$') return -1;
    if (*p == '.') {
      ++p;
      if (*p == '*') {
        if (n >= room) return -1;
        kinds[n++] = MOSAIC_VARARG_INT;
        ++p;
      }
      while (*p >= '0' && *p <= '9') ++p;
    }
    for (;; ++p) {
      if (*p == 'l' || *p == 'j' || *p == 'z' || *p == 't' || *p == 'q') ++longs;
      else if (*p == 'h') continue;
      else if (*p == 'L') wide = 1;
      else break;
    }
    switch (*p) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
      kind = longs ? MOSAIC_VARARG_LONG : MOSAIC_VARARG_INT;
      break;
    case 'c':
      if (longs) return -1; /* wint_t */
      kind = MOSAIC_VARARG_INT;
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      if (wide) return -1; /* long double */
      kind = MOSAIC_VARARG_DOUBLE;
      break;
    case 's':
      if (longs) return -1; /* wchar_t * */
      kind = MOSAIC_VARARG_STRING;
      break;
    case 'p': kind = MOSAIC_VARARG_POINTER; break;
    default: return -1; /* %n, and what no printf knows */
    }
    ++p;
    if (n >= room) return -1;
    kinds[n++] = kind;
  }
  if (n < room) kinds[n] = '\0';
  return (int)n;
}

/* Whether extra arguments of kinds `given` (`count` letters) fit the
 * printf-style format `fmt`: each argument the format consumes is of its
 * kind (a char pointer also serves `%p`); more arguments than it consumes
 * are allowed, as in C. A null format fits (the call shows what the callee
 * does with one). */
static __inline__ int mosaic_format_fits(const char *fmt, const char *given, size_t count) {
  char wanted[16 + 1];
  int n, i;
  if (!fmt) return 1;
  n = mosaic_format_kinds(fmt, wanted, 16);
  if (n < 0 || (size_t)n > count) return 0;
  for (i = 0; i < n; ++i)
    if (wanted[i] != given[i] && !(wanted[i] == MOSAIC_VARARG_POINTER && given[i] == MOSAIC_VARARG_STRING)) return 0;
  return 1;
}

#ifdef __cplusplus
}
#endif

#endif

/* The binary encoding of a test case, as the host sends it and the harness
 * reads it: the one definition for both sides. Plain C; all integers are
 * little-endian and unaligned.
 *
 *   u16 magic, u8 version, u8 reserved, u32 statement count, statements...
 *
 * A statement is a u8 op, then by op:
 *   PRIMITIVE            u32 type, u64 bits (integer, or the bits of a double)
 *   CSTRING, STD_STRING,
 *   BUFFER               u32 type, u32 length, bytes
 *   NULL_VALUE           u32 type
 *   AGGREGATE, ARRAY     u32 type, u32 n, u32 ref * n
 *   ADDRESS_OF           u32 type, u32 ref
 *   CONSTRUCT, CALL,
 *   METHOD_CALL          u32 callable, u32 n, u32 ref * n (receiver first)
 *   FIELD_SET            u32 type (the record), u32 field, u32 receiver, u32 value
 *   CALLBACK             u32 type, u32 ref (of the value to return, or MOSAIC_NO_REF)
 *   END_OF               u32 type, u32 ref (a pointer to bytes), u32 offset in bytes
 *   SUBCLASS             u32 type (an abstract class), u32 n, u32 ref * n (the results its stub returns)
 *
 * Statement i defines variable i; a ref names an earlier statement. Types
 * and callables are ids of the unit's program model. */
#ifndef MOSAIC_ABI_TEST_WIRE_H
#define MOSAIC_ABI_TEST_WIRE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MOSAIC_WIRE_MAGIC 0x544du /* "MT" read as u16 */
#define MOSAIC_WIRE_VERSION 1u
#define MOSAIC_NO_REF 0xffffffffu
#define MOSAIC_WIRE_MAX_REFS 64u /* arguments, fields or elements of one statement */
/* Extra arguments of a call of a variadic function (ours: printf-likes in
 * tests take a few; the harness sizes its libffi arrays by it). */
#define MOSAIC_MAX_VARARGS 4u
/* A descriptor MOSAIC_OP_FILE makes is the lowest free one from here; a
 * written test's helper asks for the same, so that a descriptor the unit
 * keeps (and a test observes) is the same number there (ours: far above
 * what a test runner holds open). */
#define MOSAIC_TEMP_FD_BASE 100

enum mosaic_op {
  MOSAIC_OP_PRIMITIVE = 1,   /* bool, char, integer, floating, enum */
  MOSAIC_OP_CSTRING = 2,     /* char * to a NUL-terminated heap copy of the bytes */
  MOSAIC_OP_STD_STRING = 3,  /* std::string / std::string_view */
  MOSAIC_OP_BUFFER = 4,      /* T * to a heap copy of exactly the bytes */
  MOSAIC_OP_NULL_VALUE = 5,  /* null pointer, empty smart pointer or optional */
  MOSAIC_OP_AGGREGATE = 6,   /* struct or union from field values */
  MOSAIC_OP_ADDRESS_OF = 7,  /* pointer to a variable (or its void *) */
  MOSAIC_OP_ARRAY = 8,       /* T[n] (array type) or T * to a heap T[n] (pointer type) */
  MOSAIC_OP_CONSTRUCT = 9,   /* a constructor */
  MOSAIC_OP_CALL = 10,       /* a free function or static method */
  MOSAIC_OP_METHOD_CALL = 11,/* a method on a receiver */
  MOSAIC_OP_FIELD_SET = 12,  /* receiver.field = value */
  MOSAIC_OP_CALLBACK = 13,   /* a callback stub that returns a value */
  MOSAIC_OP_END_OF = 14,     /* the pointer ref plus offset bytes: the end of a (begin, end) pair */
  MOSAIC_OP_SUBCLASS = 15,   /* an object of a stub subclass of an abstract class: pure virtuals return the values */
  MOSAIC_OP_FILE = 16        /* a FILE * or a descriptor (int) of a temporary file holding the bytes, at its start */
};

#ifdef __cplusplus
}
#endif

#endif

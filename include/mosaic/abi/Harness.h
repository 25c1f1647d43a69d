/* The interface between a generated harness (lib/harness writes it) and
 * the runtime it is linked with. Plain C, usable from C and C++.
 *
 * The runtime decodes a test case (TestWire.h) and calls
 * __mosaic_unit_exec for each statement; the generated code performs it on
 * the variables of the test, defines the statement's variable, and records
 * observations. */
#ifndef MOSAIC_ABI_HARNESS_H
#define MOSAIC_ABI_HARNESS_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "mosaic/abi/Trace.h"
#include "mosaic/abi/Symbolic.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mosaic_stmt {
  uint8_t op;            /* enum mosaic_op */
  uint32_t type;         /* model type id (most ops) */
  uint32_t callable;     /* model callable id (calls) */
  uint32_t field;        /* FIELD_SET */
  uint32_t nrefs;
  uint32_t refs[64];     /* MOSAIC_WIRE_MAX_REFS */
  uint64_t bits;         /* PRIMITIVE; END_OF: the offset */
  const uint8_t *bytes;  /* CSTRING, STD_STRING, BUFFER */
  uint32_t len;
} mosaic_stmt;

typedef struct mosaic_ctx mosaic_ctx;

/* Implemented by the generated harness: performs statement `index`.
 * Returns a mosaic_stmt_status. */
int __mosaic_unit_exec(mosaic_ctx *ctx, const mosaic_stmt *s, uint32_t index);

/* Variables. A variable is storage owned by the runtime (freed, after its
 * destructor when it has one, at the end of the test, in reverse order). */

/* The storage of variable `ref` if its model type is `type`, else NULL. */
void *__mosaic_var(mosaic_ctx *ctx, uint32_t ref, uint32_t type);
/* The model type of variable `ref`, or MOSAIC_NO_TYPE when it has none. */
uint32_t __mosaic_var_type(mosaic_ctx *ctx, uint32_t ref);
#define MOSAIC_NO_TYPE 0xffffffffu
/* Defines the current statement's variable: `size` zeroed bytes of storage
 * (C), returned for the caller to fill. */
void *__mosaic_define(mosaic_ctx *ctx, uint32_t type, size_t size);
/* Defines it from an object the caller allocated (C++ `new`): the runtime
 * calls `destroy` on it at the end of the test. */
void __mosaic_adopt(mosaic_ctx *ctx, uint32_t type, void *object, void (*destroy)(void *));
/* A destroy function that does nothing: objects that cannot be deleted
 * (a private destructor) are left to the process's end. */
void __mosaic_leak(void *object);

/* What a function the unit declares and nothing the build compiles defines
 * does when a test reaches it (the harness's weak stubs alias it): the test
 * ends as a harness error, not as the unit's failure. */
void __mosaic_undefined_function(void) __attribute__((noreturn));
/* An extra allocation freed with the variable (a string's bytes). */
void *__mosaic_alloc(mosaic_ctx *ctx, size_t size);

/* A FILE * (as void *: this header does not need <stdio.h>) open for
 * reading and writing on a temporary file that holds the `len` bytes, at
 * its start (MOSAIC_OP_FILE), over a descriptor as __mosaic_temp_fd's;
 * NULL when none can be made. The file has no name (made in the working
 * directory, the sandbox's scratch folder, and unlinked at once). The
 * stream is never closed by the harness: the unit may have closed it (a
 * function that takes the stream over); a fork server's child flushes
 * every stream after a test and closes its descriptors before the next. */
void *__mosaic_temp_file(const uint8_t *bytes, uint32_t len);
/* The same file as a descriptor, the lowest free one from
 * MOSAIC_TEMP_FD_BASE (TestWire.h); -1 when none. */
int __mosaic_temp_fd(const uint8_t *bytes, uint32_t len);

/* Observations of the statement being performed (Trace.h). */
void __mosaic_obs_int(mosaic_ctx *ctx, unsigned target, int field, int64_t value);
void __mosaic_obs_uint(mosaic_ctx *ctx, unsigned target, int field, uint64_t value);
void __mosaic_obs_float(mosaic_ctx *ctx, unsigned target, int field, double value);
void __mosaic_obs_bool(mosaic_ctx *ctx, unsigned target, int field, int value);
void __mosaic_obs_null(mosaic_ctx *ctx, unsigned target, int field, const void *pointer);
void __mosaic_obs_string(mosaic_ctx *ctx, unsigned target, int field, const char *s);
void __mosaic_obs_bytes(mosaic_ctx *ctx, unsigned target, int field, const void *bytes, size_t len);
void __mosaic_obs_exception(mosaic_ctx *ctx, const char *type, const char *what);

/* Reading a value may fault (a dangling pointer the unit returned): reads
 * happen between MOSAIC_OBSERVE_BEGIN, which is true the first time and
 * false after a fault was caught, and __mosaic_observe_end. ISO setjmp, not
 * sigsetjmp: the harness compiles under strict -std=c89/c11 too; the fault
 * handler runs with SA_NODEFER, so no signal mask needs restoring. */
jmp_buf *__mosaic_observe_jmp(mosaic_ctx *ctx);
void __mosaic_observe_end(mosaic_ctx *ctx);
#define MOSAIC_OBSERVE_BEGIN(ctx) (setjmp(*__mosaic_observe_jmp(ctx)) == 0)

/* An accessor found a null pointer where it had to dereference one. */
void __mosaic_null_object(mosaic_ctx *ctx);
/* What a statement that cannot be performed returns: MOSAIC_STMT_NULL after
 * __mosaic_null_object, else MOSAIC_STMT_INVALID. */
int __mosaic_unperformed(mosaic_ctx *ctx);

/* The context of the running test (callback stubs have no other way to it). */
mosaic_ctx *__mosaic_context(void);

/* Concolic execution's harness (compiled with -DMOSAIC_SYMBOLIC;
 * abi/Symbolic.h): the `bytes` bytes of the value at `address`, which the
 * statement being performed defines, become input bytes of that statement
 * (kind MOSAIC_SYM_IN_PRIMITIVE or MOSAIC_SYM_IN_BYTES). Compiled out of
 * every other harness. */
void __mosaic_sym_input(mosaic_ctx *ctx, const void *address, uint32_t bytes, uint32_t kind);
/* MOSAIC_CSTRING_SLACK: zero bytes a C string's builder allocates past its
 * terminator, input bytes too in a symbolic harness
 * (MOSAIC_SYM_CSTRING_SLACK); none elsewhere. */
#ifdef MOSAIC_SYMBOLIC
#define MOSAIC_SYM_INPUT(ctx, p, n, kind) __mosaic_sym_input((ctx), (p), (uint32_t)(n), (kind))
#define MOSAIC_CSTRING_SLACK MOSAIC_SYM_CSTRING_SLACK
#else
#define MOSAIC_SYM_INPUT(ctx, p, n, kind) ((void)0)
#define MOSAIC_CSTRING_SLACK 0u
#endif

/* Callback stubs: the value a stub of `type` returns, as set by the test's
 * CALLBACK statement (a variable), or NULL for a zero value. */
void *__mosaic_callback_value(mosaic_ctx *ctx, uint32_t type);
void __mosaic_set_callback_value(mosaic_ctx *ctx, uint32_t type, uint32_t ref);
void __mosaic_callback_called(mosaic_ctx *ctx, uint32_t type);

/* A C++ exception reached the harness; returns MOSAIC_STMT_THREW. The
 * test stops; std::bad_alloc ends it as out of memory. */
int __mosaic_threw(mosaic_ctx *ctx, const char *type, const char *what);

#ifdef __cplusplus
}
#endif

#endif

/* The shared-memory trace: the one definition of what an instrumented
 * harness reports to mosaic about one test. Plain C, included by the
 * runtime (C), the LLVM pass (only the hook names) and the host (C++).
 *
 * Layout: a header, then areas at the offsets the header gives. The host
 * creates the memory (a memfd), writes the header, and before each test
 * clears the per-test fields and the block and side areas; the runtime in
 * the harness only writes. Bump MOSAIC_TRACE_VERSION on any change. */
#ifndef MOSAIC_ABI_TRACE_H
#define MOSAIC_ABI_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MOSAIC_TRACE_MAGIC 0x4d4f5341u /* "MOSA" */
#define MOSAIC_TRACE_VERSION 7u /* 2: mosaic_stmt_record.nanos; 3: server_id; 4: stack; 5: mutants; 6: direct calls, active_mutant;
                                   7: a block's byte counts its calls that returned */

/* Sizes of the bounded areas (entries or bytes). Chosen to stay well under a
 * megabyte in all: enough for small units' tests, and what overflows is
 * counted, never written out of bounds. */
#define MOSAIC_CMP_CAPACITY 1024u   /* integer comparison operand pairs */
#define MOSAIC_STR_CAPACITY 256u    /* string comparison operand pairs */
#define MOSAIC_STR_BYTES 64u        /* bytes kept of each compared string */
#define MOSAIC_STMT_CAPACITY 256u   /* statements of one test */
#define MOSAIC_OBS_BYTES 65536u     /* observation records */
#define MOSAIC_INPUT_BYTES 1048576u /* the encoded test case */
#define MOSAIC_OUTPUT_BYTES 65536u  /* captured stdout and stderr */
#define MOSAIC_STACK_CAPACITY 32u   /* frames kept of the stack at a failure */

/* A frame outside the harness executable (a shared library): the raw
 * address, with this bit set. Frames inside it are addresses as its file
 * names them (the load bias taken off), for a symboliser. */
#define MOSAIC_STACK_EXTERNAL (1ull << 63)

/* No mutant: the original code (mosaic_trace_header.active_mutant). */
#define MOSAIC_NO_MUTANT 0xffffffffu

/* What the direct area holds at a function's entry block (Hooks.h:
 * __mosaic_enter). */
#define MOSAIC_DIRECT_ENTERED 1u  /* the test called the function itself */
#define MOSAIC_DIRECT_RETURNED 2u /* ... and such a call returned to it normally */

/* Outcome of one statement, in mosaic_stmt_record.status. */
enum mosaic_stmt_status {
  MOSAIC_STMT_NOT_RUN = 0,
  MOSAIC_STMT_OK = 1,
  MOSAIC_STMT_THREW = 2,   /* a C++ exception escaped it; the test stopped */
  MOSAIC_STMT_INVALID = 3, /* the harness could not perform it (ill-typed input) */
  MOSAIC_STMT_NULL = 4,    /* it needed an object through a pointer that was null at run time
                              (a method on a null result): not performed; the test stopped */
};

typedef struct mosaic_stmt_record {
  uint32_t status;    /* enum mosaic_stmt_status */
  uint32_t obs_begin; /* its observations: bytes [obs_begin, obs_end) */
  uint32_t obs_end;
  uint32_t nanos;     /* wall time the statement took (CLOCK_MONOTONIC), saturated at
                         UINT32_MAX (4.29 s); 0 when it did not finish */
} mosaic_stmt_record;

/* One integer (or pointer, or float as bits) comparison the unit made. */
typedef struct mosaic_cmp_entry {
  uint64_t a, b;
  uint32_t site;  /* side id of the comparison's true side */
  uint32_t flags; /* MOSAIC_CMP_* */
} mosaic_cmp_entry;

#define MOSAIC_CMP_SIGNED 1u
#define MOSAIC_CMP_FLOAT 2u
#define MOSAIC_CMP_WIDTH_SHIFT 8u /* bits 8..15: operand width in bits */

/* One string or memory comparison (strcmp family, memcmp). */
typedef struct mosaic_str_entry {
  uint32_t len_a, len_b; /* lengths compared (may exceed MOSAIC_STR_BYTES) */
  char a[MOSAIC_STR_BYTES];
  char b[MOSAIC_STR_BYTES];
} mosaic_str_entry;

typedef struct mosaic_trace_header {
  uint32_t magic;
  uint32_t version;
  uint64_t total_size;

  /* Capacities, set by the host. */
  uint32_t block_capacity;
  uint32_t side_capacity;
  uint32_t mutant_capacity;
  uint32_t mutants_reserved;

  /* Offsets of the areas from the start of the trace. */
  uint32_t blocks_off; /* uint8_t[block_capacity]: 0 when the block never ran, else 1 + the calls
                          its last run made that returned to it (saturated at 255) */
  uint32_t sides_off;  /* double[side_capacity]: 0 = never evaluated, else 1 + min distance */
  uint32_t mutants_off; /* double[mutant_capacity]: 0 = never reached, else 1 + min infection distance */
  uint32_t direct_off;  /* uint8_t[block_capacity]: at a function's entry block, MOSAIC_DIRECT_* */
  uint32_t direct_sides_off; /* double[side_capacity]: as sides, in calls the test made directly */
  uint32_t cmps_off;   /* mosaic_cmp_entry[MOSAIC_CMP_CAPACITY] */
  uint32_t strs_off;   /* mosaic_str_entry[MOSAIC_STR_CAPACITY] */
  uint32_t stmts_off;  /* mosaic_stmt_record[MOSAIC_STMT_CAPACITY] */
  uint32_t obs_off;    /* uint8_t[MOSAIC_OBS_BYTES] */
  uint32_t input_off;  /* uint8_t[MOSAIC_INPUT_BYTES] */
  uint32_t output_off; /* uint8_t[MOSAIC_OUTPUT_BYTES] */

  /* Written by the harness at start-up (the pass's counts for the unit). */
  uint32_t unit_blocks;
  uint32_t unit_sides;
  uint32_t unit_mutants; /* mutants the pass listed (Description.h); probed only in a weak-mutation build */

  /* Per test: the host sets input_len and clears the rest. */
  uint32_t input_len;
  uint32_t cmp_count;    /* comparisons seen; entries kept: min(count, capacity) */
  uint32_t str_count;
  uint32_t stmt_count;   /* statements started */
  uint32_t obs_len;
  uint32_t obs_dropped;  /* observation records that did not fit */
  int32_t current_stmt;  /* the statement executing now; -1 before the first */
  uint32_t finished;     /* 1 once the test ran to its end (written last) */
  uint32_t output_len;   /* written by the fork server */
  uint32_t output_dropped;
  /* Per test, set by the host after the reset: the mutant a harness built
   * with mutant schemata runs (Hooks.h: __mosaic_active_mutant);
   * MOSAIC_NO_MUTANT for the original code. */
  uint32_t active_mutant;
  uint32_t active_reserved;

  /* Written by the host before it starts the server: the server's name
   * among the host's (abi/Protocol.h says what it
   * is for). Here rather than in the environment, whose size would move
   * the stack of every test with the host's PID. NUL-terminated. */
  char server_id[32];

  /* Per test, written by the harness when the unit crashes, aborts or
   * traps: the stack at that moment, innermost first (the interrupted
   * instruction, then return addresses). */
  uint32_t stack_count;
  uint32_t stack_reserved;
  uint64_t stack[MOSAIC_STACK_CAPACITY];
} mosaic_trace_header;

/* Observation records, appended to the obs area: a header and a payload.
 * `target` says what was observed: MOSAIC_OBS_RESULT, MOSAIC_OBS_RECEIVER or
 * MOSAIC_OBS_ARG0 + i (through a pointer or reference: its pointee). `field`
 * is -1 for the value itself or the index of a field of a record. */
enum mosaic_obs_kind {
  MOSAIC_OBS_INT = 1,       /* payload: int64 */
  MOSAIC_OBS_UINT = 2,      /* payload: uint64 */
  MOSAIC_OBS_FLOAT = 3,     /* payload: double */
  MOSAIC_OBS_BOOL = 4,      /* payload: int64 0 or 1 */
  MOSAIC_OBS_NULL = 5,      /* payload: int64 1 if null, 0 if not */
  MOSAIC_OBS_STRING = 6,    /* payload: the bytes (len) */
  MOSAIC_OBS_EXCEPTION = 7, /* payload: type name, NUL, what() */
  MOSAIC_OBS_UNREADABLE = 8 /* reading the value faulted; no payload */
};

#define MOSAIC_OBS_RESULT 0u
#define MOSAIC_OBS_RECEIVER 1u
#define MOSAIC_OBS_ARG0 2u

typedef struct mosaic_obs_header {
  uint16_t stmt;
  uint8_t kind;   /* enum mosaic_obs_kind */
  uint8_t target;
  int16_t field;
  uint16_t len;   /* payload bytes */
} mosaic_obs_header;

#define MOSAIC_OBS_MAX_STRING 256u /* bytes kept of an observed string */

/* The layout, computed the same way on both sides. (__inline__: the
 * generated harness includes this under -std=c89 too.) */
static __inline__ size_t mosaic_trace_align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

/* Bytes a trace for a unit of `blocks` blocks, `sides` branch sides and
 * `mutants` mutants needs. */
static __inline__ size_t mosaic_trace_size(uint32_t blocks, uint32_t sides, uint32_t mutants) {
  return mosaic_trace_align8(sizeof(mosaic_trace_header)) + 2 * mosaic_trace_align8(blocks) +
         2 * mosaic_trace_align8((size_t)sides * sizeof(double)) +
         mosaic_trace_align8((size_t)mutants * sizeof(double)) +
         mosaic_trace_align8(MOSAIC_CMP_CAPACITY * sizeof(mosaic_cmp_entry)) +
         mosaic_trace_align8(MOSAIC_STR_CAPACITY * sizeof(mosaic_str_entry)) +
         mosaic_trace_align8(MOSAIC_STMT_CAPACITY * sizeof(mosaic_stmt_record)) + MOSAIC_OBS_BYTES +
         MOSAIC_INPUT_BYTES + MOSAIC_OUTPUT_BYTES;
}

/* The per-test counters of the header: what mosaic_trace_reset does
 * besides clearing the areas (enough for a slot cleared since its last
 * test). */
static __inline__ void mosaic_trace_reset_counters(mosaic_trace_header *t) {
  t->cmp_count = t->str_count = t->stmt_count = t->obs_len = t->obs_dropped = 0;
  t->current_stmt = -1;
  t->finished = 0;
  t->output_len = t->output_dropped = 0;
  t->active_mutant = MOSAIC_NO_MUTANT;
  t->stack_count = 0;
}

/* Clears what one test writes, before the next (the host in server mode,
 * the runtime in plain execution). */
static __inline__ void mosaic_trace_reset(mosaic_trace_header *t) {
  memset((char *)t + t->blocks_off, 0, t->block_capacity);
  memset((char *)t + t->sides_off, 0, (size_t)t->side_capacity * sizeof(double));
  memset((char *)t + t->mutants_off, 0, (size_t)t->mutant_capacity * sizeof(double));
  memset((char *)t + t->direct_off, 0, t->block_capacity);
  memset((char *)t + t->direct_sides_off, 0, (size_t)t->side_capacity * sizeof(double));
  memset((char *)t + t->stmts_off, 0, MOSAIC_STMT_CAPACITY * sizeof(mosaic_stmt_record));
  mosaic_trace_reset_counters(t);
}

/* Writes the header of a zeroed trace of mosaic_trace_size(blocks, sides,
 * mutants) bytes. */
static __inline__ void mosaic_trace_layout(mosaic_trace_header *t, uint32_t blocks, uint32_t sides, uint32_t mutants) {
  size_t off = mosaic_trace_align8(sizeof(mosaic_trace_header));
  t->magic = MOSAIC_TRACE_MAGIC;
  t->version = MOSAIC_TRACE_VERSION;
  t->total_size = mosaic_trace_size(blocks, sides, mutants);
  t->block_capacity = blocks;
  t->side_capacity = sides;
  t->mutant_capacity = mutants;
  t->blocks_off = (uint32_t)off;
  off += mosaic_trace_align8(blocks);
  t->sides_off = (uint32_t)off;
  off += mosaic_trace_align8((size_t)sides * sizeof(double));
  t->mutants_off = (uint32_t)off;
  off += mosaic_trace_align8((size_t)mutants * sizeof(double));
  t->direct_off = (uint32_t)off;
  off += mosaic_trace_align8(blocks);
  t->direct_sides_off = (uint32_t)off;
  off += mosaic_trace_align8((size_t)sides * sizeof(double));
  t->cmps_off = (uint32_t)off;
  off += mosaic_trace_align8(MOSAIC_CMP_CAPACITY * sizeof(mosaic_cmp_entry));
  t->strs_off = (uint32_t)off;
  off += mosaic_trace_align8(MOSAIC_STR_CAPACITY * sizeof(mosaic_str_entry));
  t->stmts_off = (uint32_t)off;
  off += mosaic_trace_align8(MOSAIC_STMT_CAPACITY * sizeof(mosaic_stmt_record));
  t->obs_off = (uint32_t)off;
  off += MOSAIC_OBS_BYTES;
  t->input_off = (uint32_t)off;
  off += MOSAIC_INPUT_BYTES;
  t->output_off = (uint32_t)off;
  t->current_stmt = -1;
  t->active_mutant = MOSAIC_NO_MUTANT;
}

#ifdef __cplusplus
}
#endif

#endif

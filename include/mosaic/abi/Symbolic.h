/* The symbolic trace (issue 22): what a harness built for concolic
 * execution reports about one test besides its concrete run. Every value
 * derived from the test's inputs carries an expression; the expressions
 * form a DAG of nodes, and each conditional branch on a symbolic value
 * records a constraint: the node of its condition and the side taken.
 * Plain C, written by the runtime (which does not link Z3) and read by
 * lib/solver.
 *
 * Layout: a header, then the node, constraint and input arrays at the
 * offsets the header gives, each with the capacity it gives. The host
 * creates the memory and writes the header; the runtime appends. What
 * does not fit is counted (`dropped_*`), never written out of bounds: a
 * constraint whose node was dropped is not recorded. Bump
 * MOSAIC_SYM_VERSION on any change. */
#ifndef MOSAIC_ABI_SYMBOLIC_H
#define MOSAIC_ABI_SYMBOLIC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MOSAIC_SYM_MAGIC 0x4d53594du /* "MSYM" */
#define MOSAIC_SYM_VERSION 1u

/* Capacities. Ours: SymCC's traces of small parsers' runs hold tens of
 * thousands of expressions; a node is 24 bytes, so 2^18 nodes are 6 MiB. */
#define MOSAIC_SYM_NODE_CAPACITY (1u << 18)
#define MOSAIC_SYM_CONSTRAINT_CAPACITY (1u << 14)
#define MOSAIC_SYM_INPUT_CAPACITY (1u << 16)

/* Node 0 is no node: an operand slot that is unused, or a value that is
 * concrete. Nodes refer only to nodes written before them (a DAG in
 * topological order). */
#define MOSAIC_SYM_NONE 0u

/* Operations. Widths are in bits, 1 to 64; a boolean is width 1.
 * Operands a, b, c are node indices; `value` is as each says. */
enum mosaic_sym_op {
  MOSAIC_SYM_CONST = 1, /* value: the constant, zero-extended */
  MOSAIC_SYM_INPUT = 2, /* value: the input byte's index (mosaic_sym_input); width 8 */
  /* Arithmetic, a op b, both of the node's width (LLVM's semantics; a
   * division by zero is the solver's, as SMT-LIB defines it). */
  MOSAIC_SYM_ADD = 10,
  MOSAIC_SYM_SUB,
  MOSAIC_SYM_MUL,
  MOSAIC_SYM_UDIV,
  MOSAIC_SYM_SDIV,
  MOSAIC_SYM_UREM,
  MOSAIC_SYM_SREM,
  MOSAIC_SYM_SHL,
  MOSAIC_SYM_LSHR,
  MOSAIC_SYM_ASHR,
  MOSAIC_SYM_AND, /* bitwise; on width 1 the logical and */
  MOSAIC_SYM_OR,
  MOSAIC_SYM_XOR,
  MOSAIC_SYM_NOT, /* ~a (on width 1: !a) */
  MOSAIC_SYM_NEG, /* -a */
  /* Comparisons of a and b (of one width); the node is width 1. */
  MOSAIC_SYM_EQ = 30,
  MOSAIC_SYM_NE,
  MOSAIC_SYM_ULT,
  MOSAIC_SYM_ULE,
  MOSAIC_SYM_UGT,
  MOSAIC_SYM_UGE,
  MOSAIC_SYM_SLT,
  MOSAIC_SYM_SLE,
  MOSAIC_SYM_SGT,
  MOSAIC_SYM_SGE,
  /* Width changes. */
  MOSAIC_SYM_ZEXT = 50, /* a zero-extended to the node's width */
  MOSAIC_SYM_SEXT,      /* a sign-extended to the node's width */
  MOSAIC_SYM_EXTRACT,   /* bits [value, value + width) of a */
  MOSAIC_SYM_CONCAT,    /* a the high part, b the low part */
  MOSAIC_SYM_ITE,       /* a (width 1) ? b : c */
};

typedef struct mosaic_sym_node {
  uint8_t op;    /* enum mosaic_sym_op */
  uint8_t width; /* bits of the result */
  uint16_t reserved;
  uint32_t a, b, c;
  uint64_t value;
} mosaic_sym_node;

/* A conditional branch's condition (a width-1 node) and whether it held.
 * `side` is the branch side (Trace.h's side area) the run goes to when the
 * condition holds: a two-way branch's true side (its false side is the
 * next id); MOSAIC_SYM_NO_SIDE for a branch outside the unit (the harness
 * around it, header code), which has no side but is part of the path.
 * A switch on a symbolic value is recorded as one equality per case, with
 * that case's side: the cases not taken first (taken = 0), then the one
 * taken (taken = 1; none for the default), so that flipping a case's
 * record asks for that case with no contradiction before it. */
#define MOSAIC_SYM_NO_SIDE 0xffffffffu

typedef struct mosaic_sym_constraint {
  uint32_t node;
  uint32_t side;
  uint8_t taken;
  uint8_t reserved[7];
} mosaic_sym_constraint;

/* Where an input byte comes from in the test case: byte `offset` of the
 * value that statement `statement` defines (a primitive's bytes, little
 * endian; a string's or buffer's bytes). */
enum mosaic_sym_input_kind {
  MOSAIC_SYM_IN_PRIMITIVE = 1,
  MOSAIC_SYM_IN_BYTES = 2, /* a string's or a buffer's bytes */
  /* A call's integer result that is a constant of the run (not derived
   * from the test's inputs): a test that flips a branch through it uses a
   * literal of the value the model gives instead (concolic::applyAnswer). */
  MOSAIC_SYM_IN_RESULT = 3,
};

/* A C string's input bytes run past its terminator in a symbolic harness:
 * offsets [len, len + MOSAIC_SYM_CSTRING_SLACK) of a string of len bytes
 * are zero in the run (the first of them its terminator), and a concrete
 * zero follows them. strlen's model reads through them, so a model may
 * make the string longer, up to this many bytes more, where a length must
 * match what a test wrote (words.c's length field). Ours: 16, room for a
 * length field's digit and a keyword or two at little cost in nodes. */
#define MOSAIC_SYM_CSTRING_SLACK 16u

typedef struct mosaic_sym_input {
  uint32_t statement;
  uint32_t offset;
  uint8_t kind; /* enum mosaic_sym_input_kind */
  uint8_t concrete; /* the byte's value in this run */
  uint8_t reserved[6];
} mosaic_sym_input;

typedef struct mosaic_sym_header {
  uint32_t magic, version;
  uint32_t node_capacity, constraint_capacity, input_capacity;
  uint32_t node_offset, constraint_offset, input_offset; /* from the header's start */
  /* Written by the runtime. */
  uint32_t nodes; /* nodes written, node 0 (no node) included: at least 1 */
  uint32_t constraints;
  uint32_t inputs;
  uint32_t dropped_nodes, dropped_constraints, dropped_inputs;
  /* Operations on symbolic values that the runtime made concrete (floats,
   * calls out of the instrumented code, unmodelled library functions). */
  uint32_t concretized;
  uint32_t reserved;
} mosaic_sym_header;

/* The hooks the pass's symbolic mode calls (MOSAIC_PASS_SYMBOLIC=1,
 * instrument/Symbolic.cpp), defined by runtime/symbolic.c. Node 0 is a
 * concrete value throughout; `ca`, `cb`, `cc` are operands' concrete values
 * (zero-extended), which become constant nodes when the other operand is
 * symbolic. Widths are bits. */
uint32_t __mosaic_sym_binary(uint32_t op, uint32_t a, uint32_t b, uint64_t ca, uint64_t cb, uint32_t width);
uint32_t __mosaic_sym_cast(uint32_t op, uint32_t a, uint32_t to_width); /* ZEXT, SEXT, or EXTRACT from bit 0 */
uint32_t __mosaic_sym_select(uint32_t c, uint32_t a, uint32_t b, uint64_t cc, uint64_t ca, uint64_t cb, uint32_t width);
uint32_t __mosaic_sym_load(const void *address, uint32_t bytes);
void __mosaic_sym_store(void *address, uint32_t bytes, uint32_t value);
void __mosaic_sym_memcpy(void *to, const void *from, uint64_t bytes); /* after the copy (memmove too) */
void __mosaic_sym_memset(void *to, uint32_t byte, uint64_t bytes);
void __mosaic_sym_branch(uint32_t condition, uint32_t taken, uint32_t side);
void __mosaic_sym_switch(uint32_t value, uint64_t concrete, uint32_t width, uint32_t n, const uint64_t *cases,
                         uint32_t first_side);
/* Calls: the caller sets each integer argument's expression and names the
 * callee; an instrumented callee takes them only when it is the one named
 * (a call through uninstrumented code leaves its arguments concrete), and
 * hands its result's expression back the same way. */
void __mosaic_sym_set_arg(uint32_t index, uint32_t value);
void __mosaic_sym_call(const void *callee);
void __mosaic_sym_enter(const void *self);
uint32_t __mosaic_sym_arg(uint32_t index);
void __mosaic_sym_set_ret(const void *self, uint32_t value);
uint32_t __mosaic_sym_ret(const void *callee);
/* An operation on a symbolic value the runtime cannot follow (a float, a
 * pointer made from an integer): its result is concrete, and counted. */
void __mosaic_sym_concretize(uint32_t value);
/* Models of the C library (runtime/symmodels.c), called just after the real
 * call with its arguments and concrete result; each returns the result's
 * expression of `width` bits (0: concrete). `__mosaic_sym_compare`'s kind:
 * 0 strcmp, 1 strncmp, 2 memcmp (and bcmp); `__mosaic_sym_ctype`'s kind:
 * 0 the class bits of glibc's table in `mask`, 1 tolower, 2 toupper. */
uint32_t __mosaic_sym_strlen(const char *s, uint64_t length, uint32_t width);
uint32_t __mosaic_sym_compare(const void *a, const void *b, uint64_t n, uint32_t kind, uint32_t width);
uint32_t __mosaic_sym_strtol(const char *s, uint32_t base, uint32_t width);
uint32_t __mosaic_sym_ctype(uint32_t kind, uint32_t c, uint32_t mask, uint32_t width);
/* Where a byte is: `c` is the byte's expression (0: concrete) and
 * `c_value` its value; kind 0 strchr(s, c), 1 memchr(s, c, n), 2
 * libstdc++'s std::string::find(c, start) over the string's n bytes at s.
 * The result of kinds 0 and 1 is the returned pointer as a 64-bit integer,
 * 0 for null, which the pass gives to comparisons of that pointer and to
 * ptrtoint; kind 2's is the index, npos when none. */
uint32_t __mosaic_sym_find(const void *s, uint64_t start, uint64_t n, uint32_t c, uint32_t c_value, uint32_t kind);
/* libstdc++'s std::string::compare: the string of `an` bytes at `a`
 * against the `bn` bytes at `b` (UINT64_MAX: a C string, its strlen):
 * memcmp over the shorter length, else the lengths' difference clamped to
 * an int (bits/basic_string.h, _S_compare). */
uint32_t __mosaic_sym_string_compare(const char *a, uint64_t an, const char *b, uint64_t bn, uint32_t width);
/* Input bytes: `bytes` bytes at `address` become inputs, byte `k` the
 * `k`-th byte of the value statement `statement` defines; for kind
 * MOSAIC_SYM_IN_RESULT only when every byte is concrete. */
void __mosaic_sym_mark(const void *address, uint32_t bytes, uint32_t statement, uint32_t kind);
/* Points the runtime at a region laid out as above (its header written):
 * the host's shared memory (MOSAIC_ENV_SYM_FD), or a test's own. */
void __mosaic_sym_attach(void *region, size_t size);
#define MOSAIC_ENV_SYM_FD "MOSAIC_SYM_FD"
/* Plain execution (`harness TEST-FILE`): the region of the run, default
 * capacities, written to this file at the end. */
#define MOSAIC_ENV_SYM_OUT "MOSAIC_SYM_OUT"
#define MOSAIC_ENV_PASS_SYMBOLIC "MOSAIC_PASS_SYMBOLIC"

/* (__inline__, as Trace.h: harnesses of C89 units include this.) */
static __inline__ size_t mosaic_sym_size(uint32_t nodes, uint32_t constraints, uint32_t inputs) {
  return sizeof(mosaic_sym_header) + (size_t)nodes * sizeof(mosaic_sym_node) +
         (size_t)constraints * sizeof(mosaic_sym_constraint) + (size_t)inputs * sizeof(mosaic_sym_input);
}

/* Writes a fresh header for a region of `size` bytes with these capacities
 * (the arrays follow it in order); the runtime appends from there. */
static __inline__ void mosaic_sym_layout(mosaic_sym_header *h, uint32_t nodes, uint32_t constraints, uint32_t inputs) {
  memset(h, 0, sizeof *h);
  h->magic = MOSAIC_SYM_MAGIC;
  h->version = MOSAIC_SYM_VERSION;
  h->node_capacity = nodes;
  h->constraint_capacity = constraints;
  h->input_capacity = inputs;
  h->node_offset = (uint32_t)sizeof *h;
  h->constraint_offset = h->node_offset + nodes * (uint32_t)sizeof(mosaic_sym_node);
  h->input_offset = h->constraint_offset + constraints * (uint32_t)sizeof(mosaic_sym_constraint);
  h->nodes = 1;
}

#ifdef __cplusplus
}
#endif

#endif

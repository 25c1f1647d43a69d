/* Concolic execution's runtime (issue 22; abi/Symbolic.h): the expressions
 * values derived from the test's inputs carry, built as the pass's
 * symbolic mode calls in, appended to the host's region as a DAG, with a
 * constraint at each branch on a symbolic condition. Memory carries
 * expressions byte by byte in a shadow of its own. Nothing here links Z3:
 * the host solves. Without a region attached every hook returns at once,
 * and every value is concrete (node 0). */
#include "internal.h"

#include "mosaic/abi/Symbolic.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static mosaic_sym_header *region;
static mosaic_sym_node *nodes;
static mosaic_sym_constraint *constraints;
static mosaic_sym_input *inputs;

void __mosaic_sym_attach(void *memory, size_t size) {
  mosaic_sym_header *h = (mosaic_sym_header *)memory;
  region = NULL;
  if (!h || size < sizeof *h || h->magic != MOSAIC_SYM_MAGIC || h->version != MOSAIC_SYM_VERSION) return;
  if (mosaic_sym_size(h->node_capacity, h->constraint_capacity, h->input_capacity) > size) return;
  if (h->node_capacity == 0) return;
  nodes = (mosaic_sym_node *)((char *)h + h->node_offset);
  constraints = (mosaic_sym_constraint *)((char *)h + h->constraint_offset);
  inputs = (mosaic_sym_input *)((char *)h + h->input_offset);
  if (h->nodes == 0) h->nodes = 1; /* node 0: no node */
  region = h;
}

/* ---- nodes ------------------------------------------------------------- */

/* Appends a node; 0 (the value stays concrete) when the region is full. */
static uint32_t node(uint8_t op, uint32_t width, uint32_t a, uint32_t b, uint32_t c, uint64_t value) {
  mosaic_sym_node *n;
  if (!region) return 0;
  if (region->nodes >= region->node_capacity) {
    region->dropped_nodes++;
    return 0;
  }
  n = &nodes[region->nodes];
  n->op = op;
  n->width = (uint8_t)width;
  n->reserved = 0;
  n->a = a;
  n->b = b;
  n->c = c;
  n->value = value;
  return region->nodes++;
}

static uint32_t width_of(uint32_t e) { return nodes[e].width; }

int mosaic_rt_sym_on(void) { return region != NULL; }
uint32_t mosaic_rt_sym_node(uint8_t op, uint32_t width, uint32_t a, uint32_t b, uint32_t c, uint64_t value) {
  return node(op, width, a, b, c, value);
}
uint32_t mosaic_rt_sym_width(uint32_t e) { return region && e ? width_of(e) : 0; }
void mosaic_rt_sym_count_concretized(void) {
  if (region) region->concretized++;
}

/* `e`, or a constant node of `concrete` when `e` is concrete. */
static uint32_t operand(uint32_t e, uint64_t concrete, uint32_t width) {
  return e ? e : node(MOSAIC_SYM_CONST, width, 0, 0, 0, mosaic_rt_mask(concrete, width));
}

static int is_comparison(uint32_t op) { return op >= MOSAIC_SYM_EQ && op <= MOSAIC_SYM_SGE; }

uint32_t __mosaic_sym_binary(uint32_t op, uint32_t a, uint32_t b, uint64_t ca, uint64_t cb, uint32_t width) {
  if (!region || (!a && !b) || width == 0 || width > 64) return 0;
  a = operand(a, ca, width);
  b = operand(b, cb, width);
  if (!a || !b) return 0;
  return node((uint8_t)op, is_comparison(op) ? 1 : width, a, b, 0, 0);
}

uint32_t __mosaic_sym_cast(uint32_t op, uint32_t a, uint32_t to_width) {
  uint32_t from;
  if (!region || !a || to_width == 0 || to_width > 64) return 0;
  from = width_of(a);
  if (from == to_width) return a;
  if (op == MOSAIC_SYM_EXTRACT) return to_width < from ? node(MOSAIC_SYM_EXTRACT, to_width, a, 0, 0, 0) : 0;
  return to_width > from ? node((uint8_t)op, to_width, a, 0, 0, 0) : 0;
}

uint32_t __mosaic_sym_select(uint32_t c, uint32_t a, uint32_t b, uint64_t cc, uint64_t ca, uint64_t cb, uint32_t width) {
  if (!region || width == 0 || width > 64) return 0;
  if (!c) return (cc & 1) ? a : b; /* the condition is concrete: the value chosen */
  a = operand(a, ca, width);
  b = operand(b, cb, width);
  if (!a || !b) return 0;
  return node(MOSAIC_SYM_ITE, width, c, a, b, 0);
}

void __mosaic_sym_concretize(uint32_t value) {
  if (region && value) region->concretized++;
}

/* ---- shadow memory ------------------------------------------------------ */

/* A node per byte of memory, in 4 KiB pages found through an open-addressed
 * table of page numbers. Ours: 2^16 pages (256 MiB of symbolic data)
 * before bytes stay concrete. */
#define PAGE_BITS 12u
#define PAGE_BYTES (1u << PAGE_BITS)
#define TABLE_SLOTS (1u << 16)

typedef struct shadow_slot {
  uintptr_t page; /* page number + 1; 0: empty */
  uint32_t *bytes;
} shadow_slot;

static shadow_slot *table;

static uint32_t *shadow_page(uintptr_t address, int create) {
  const uintptr_t page = (address >> PAGE_BITS) + 1;
  uint32_t i, probe;
  if (!table) {
    if (!create) return NULL;
    table = (shadow_slot *)mmap(NULL, TABLE_SLOTS * sizeof *table, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (table == MAP_FAILED) {
      table = NULL;
      return NULL;
    }
  }
  i = (uint32_t)((page * 0x9e3779b97f4a7c15ull) >> 48) & (TABLE_SLOTS - 1);
  for (probe = 0; probe < TABLE_SLOTS; ++probe, i = (i + 1) & (TABLE_SLOTS - 1)) {
    if (table[i].page == page) return table[i].bytes;
    if (table[i].page == 0) {
      void *bytes;
      if (!create) return NULL;
      bytes = mmap(NULL, PAGE_BYTES * sizeof(uint32_t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (bytes == MAP_FAILED) return NULL;
      table[i].page = page;
      table[i].bytes = (uint32_t *)bytes;
      return table[i].bytes;
    }
  }
  return NULL;
}

static uint32_t shadow_get(uintptr_t address) {
  const uint32_t *p = shadow_page(address, 0);
  return p ? p[address & (PAGE_BYTES - 1)] : 0;
}

static void shadow_set(uintptr_t address, uint32_t e) {
  uint32_t *p = shadow_page(address, e != 0);
  if (p) p[address & (PAGE_BYTES - 1)] = e;
}

uint32_t __mosaic_sym_load(const void *address, uint32_t bytes) {
  const uintptr_t at = (uintptr_t)address;
  uint32_t k, any = 0, whole = 0, e;
  if (!region || bytes == 0 || bytes > 8) return 0;
  for (k = 0; k < bytes; ++k) any |= shadow_get(at + k);
  if (!any) return 0;
  /* The bytes of one stored value, in order: that value. */
  e = shadow_get(at);
  if (e && nodes[e].op == MOSAIC_SYM_EXTRACT && nodes[e].value == 0 && width_of(nodes[e].a) == bytes * 8) {
    whole = nodes[e].a;
    for (k = 1; k < bytes && whole; ++k) {
      const uint32_t b = shadow_get(at + k);
      if (!b || nodes[b].op != MOSAIC_SYM_EXTRACT || nodes[b].a != whole || nodes[b].value != 8u * k) whole = 0;
    }
    if (whole) return whole;
  }
  if (bytes == 1 && e && width_of(e) == 8) return e;
  /* Little endian: the last byte is the most significant. */
  e = 0;
  for (k = bytes; k-- > 0;) {
    uint32_t b = shadow_get(at + k);
    if (!b) b = node(MOSAIC_SYM_CONST, 8, 0, 0, 0, ((const uint8_t *)address)[k]);
    if (!b) return 0;
    e = e ? node(MOSAIC_SYM_CONCAT, width_of(e) + 8, e, b, 0, 0) : b;
    if (!e) return 0;
  }
  return e;
}

void __mosaic_sym_store(void *address, uint32_t bytes, uint32_t value) {
  const uintptr_t at = (uintptr_t)address;
  uint32_t k;
  if (!table && !value) return; /* nothing symbolic anywhere yet */
  if (!region || bytes == 0) return;
  if (value && bytes <= 8 && width_of(value) < bytes * 8) value = node(MOSAIC_SYM_ZEXT, bytes * 8, value, 0, 0, 0);
  if (!value || bytes > 8 || width_of(value) != bytes * 8) {
    for (k = 0; k < bytes; ++k) shadow_set(at + k, 0);
    return;
  }
  if (bytes == 1) {
    shadow_set(at, value);
    return;
  }
  for (k = 0; k < bytes; ++k) shadow_set(at + k, node(MOSAIC_SYM_EXTRACT, 8, value, 0, 0, 8u * k));
}

/* Bytes from `at` up to the end of its shadow page. */
static uint64_t page_rest(uintptr_t at) { return PAGE_BYTES - (at & (PAGE_BYTES - 1)); }

/* Clears the shadow of [to, to + bytes): page by page, pages with no
 * shadow skipped (a large memset or copy of concrete bytes costs a lookup
 * per page, not per byte). */
static void shadow_clear(uintptr_t to, uint64_t bytes) {
  while (bytes > 0) {
    const uint64_t n = bytes < page_rest(to) ? bytes : page_rest(to);
    uint32_t *p = shadow_page(to, 0);
    if (p) memset(p + (to & (PAGE_BYTES - 1)), 0, n * sizeof *p);
    to += n;
    bytes -= n;
  }
}

/* Ours: a copy or fill longer than the shadow can hold (2^16 pages of
 * 4 KiB) is not followed: its bytes stay as they were, counted as made
 * concrete. A length past memory (a negative size the unit computed, whose
 * real call the runtime's guard refused) must not make the hook run for
 * ever. */
#define MAX_FOLLOWED ((uint64_t)TABLE_SLOTS * PAGE_BYTES)

void __mosaic_sym_memcpy(void *to, const void *from, uint64_t bytes) {
  const uintptr_t t = (uintptr_t)to, f = (uintptr_t)from;
  uint64_t k;
  if (!table || !region || bytes == 0) return;
  if (bytes > MAX_FOLLOWED) {
    region->concretized++;
    return;
  }
  if (t > f && t < f + bytes) { /* overlapping, the destination higher: back to front, byte by byte */
    for (k = bytes; k-- > 0;) shadow_set(t + k, shadow_get(f + k));
    return;
  }
  /* Front to back, in runs that stay within one page of each side. */
  for (k = 0; k < bytes;) {
    uint64_t n = bytes - k, i;
    if (n > page_rest(f + k)) n = page_rest(f + k);
    if (n > page_rest(t + k)) n = page_rest(t + k);
    if (!shadow_page(f + k, 0)) shadow_clear(t + k, n); /* a concrete source */
    else
      for (i = 0; i < n; ++i) shadow_set(t + k + i, shadow_get(f + k + i));
    k += n;
  }
}

void __mosaic_sym_memset(void *to, uint32_t byte, uint64_t bytes) {
  uint64_t k;
  if (!region || (!table && !byte)) return;
  if (bytes > MAX_FOLLOWED) {
    region->concretized++;
    return;
  }
  if (!byte) {
    shadow_clear((uintptr_t)to, bytes);
    return;
  }
  if (width_of(byte) != 8) byte = __mosaic_sym_cast(width_of(byte) < 8 ? MOSAIC_SYM_ZEXT : MOSAIC_SYM_EXTRACT, byte, 8);
  for (k = 0; k < bytes; ++k) shadow_set((uintptr_t)to + k, byte);
}

void __mosaic_sym_mark(const void *address, uint32_t bytes, uint32_t statement, uint32_t kind) {
  uint32_t k;
  if (!region) return;
  if (kind == MOSAIC_SYM_IN_RESULT)
    for (k = 0; k < bytes; ++k)
      if (shadow_get((uintptr_t)address + k)) return; /* derived from the inputs: keep what it is */
  for (k = 0; k < bytes; ++k) {
    mosaic_sym_input *in;
    uint32_t e;
    if (region->inputs >= region->input_capacity) {
      region->dropped_inputs += bytes - k;
      return;
    }
    in = &inputs[region->inputs];
    memset(in, 0, sizeof *in);
    in->statement = statement;
    in->offset = k;
    in->kind = (uint8_t)kind;
    in->concrete = ((const uint8_t *)address)[k];
    e = node(MOSAIC_SYM_INPUT, 8, 0, 0, 0, region->inputs);
    if (!e) return;
    region->inputs++;
    shadow_set((uintptr_t)address + k, e);
  }
}

uint32_t mosaic_rt_sym_byte(uintptr_t address) { return region ? shadow_get(address) : 0; }

/* ---- branches ------------------------------------------------------------ */

static void constrain(uint32_t condition, uint32_t taken, uint32_t side) {
  mosaic_sym_constraint *c;
  if (region->constraints >= region->constraint_capacity) {
    region->dropped_constraints++;
    return;
  }
  c = &constraints[region->constraints++];
  memset(c, 0, sizeof *c);
  c->node = condition;
  c->side = side;
  c->taken = taken != 0;
}

void mosaic_rt_sym_constrain(uint32_t condition, uint32_t taken, uint32_t side) {
  if (region && condition && width_of(condition) == 1) constrain(condition, taken, side);
}

void __mosaic_sym_branch(uint32_t condition, uint32_t taken, uint32_t side) {
  if (!region || !condition) return;
  if (width_of(condition) != 1) condition = __mosaic_sym_binary(MOSAIC_SYM_NE, condition, 0, 0, 0, width_of(condition));
  if (condition) constrain(condition, taken, side);
}

void __mosaic_sym_switch(uint32_t value, uint64_t concrete, uint32_t width, uint32_t n, const uint64_t *cases,
                         uint32_t first_side) {
  uint32_t i, hit = n;
  if (!region || !value) return;
  for (i = 0; i < n; ++i) {
    uint32_t eq;
    if (mosaic_rt_mask(cases[i], width) == mosaic_rt_mask(concrete, width)) {
      hit = i;
      continue;
    }
    eq = __mosaic_sym_binary(MOSAIC_SYM_EQ, value, 0, 0, cases[i], width);
    if (eq) constrain(eq, 0, first_side == MOSAIC_SYM_NO_SIDE ? first_side : first_side + i);
  }
  if (hit < n) {
    const uint32_t eq = __mosaic_sym_binary(MOSAIC_SYM_EQ, value, 0, 0, cases[hit], width);
    if (eq) constrain(eq, 1, first_side == MOSAIC_SYM_NO_SIDE ? first_side : first_side + hit);
  }
}

/* ---- calls --------------------------------------------------------------- */

/* Ours: arguments past the 64th stay concrete. */
#define MAX_ARGS 64u
static uint32_t args[MAX_ARGS];
static const void *pending_callee; /* named by the caller, not yet entered */
static int args_valid;             /* the function entered last was the one named */
static uint32_t ret_value;
static const void *ret_from;

void __mosaic_sym_set_arg(uint32_t index, uint32_t value) {
  if (index < MAX_ARGS) args[index] = value;
}

void __mosaic_sym_call(const void *callee) {
  pending_callee = callee;
  ret_from = NULL;
}

void __mosaic_sym_enter(const void *self) {
  args_valid = region && pending_callee == self;
  pending_callee = NULL;
}

uint32_t __mosaic_sym_arg(uint32_t index) { return args_valid && index < MAX_ARGS ? args[index] : 0; }

void __mosaic_sym_set_ret(const void *self, uint32_t value) {
  ret_from = self;
  ret_value = value;
}

uint32_t __mosaic_sym_ret(const void *callee) {
  const uint32_t v = region && ret_from == callee ? ret_value : 0;
  ret_from = NULL;
  return v;
}

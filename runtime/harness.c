/* Running one test: decoding statements, the variables they define, the
 * observations they make. */
#define _GNU_SOURCE
#include "internal.h"

#include "mosaic/abi/Harness.h"
#include "mosaic/abi/Protocol.h"
#include "mosaic/abi/TestWire.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

typedef struct mosaic_var_slot {
  void *storage;
  uint32_t type;
  void (*destroy)(void *); /* C++ objects: delete; NULL: storage is the arena's or malloc'd (heap) */
  int heap;                /* storage came from calloc (the arena was full) */
  void *extra;             /* an extra allocation (string bytes) */
} mosaic_var_slot;

/* Variables live in an arena, as a generated test's locals live on its
 * stack: a unit that frees a pointer to one fails in free() at the
 * statement that did it (as the written test would), and the end of the
 * test frees nothing twice. 16 MiB reserved, touched as used; ours. */
#define ARENA_BYTES (16u << 20)
static char *arena;
static size_t arena_used;

/* AddressSanitizer's interface: defined only in a sanitized harness (the
 * runtime itself is not instrumented; weak, so null elsewhere). */
extern void __asan_poison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));
extern void __asan_unpoison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));

/* In a sanitized harness each variable is followed by poisoned bytes, as
 * ASan puts a redzone after each local of the written test: a unit that
 * writes past one (lz4's LZ4_compress_HC_extStateHC_fastReset given the
 * address of an 8-byte variable as its 256 KiB `void *state`) is reported
 * there, not only when the written suite crashes. 32 bytes: ASan's
 * smallest redzone is 16, its shadow granule 8 (ours: two granules more). */
#define ARENA_REDZONE 32u

static void *arena_alloc(size_t size) {
  size_t at;
  const size_t redzone = __asan_poison_memory_region ? ARENA_REDZONE : 0;
  if (!arena) {
    arena = (char *)mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (arena == MAP_FAILED) arena = NULL;
  }
  at = (arena_used + 15u) & ~(size_t)15u;
  if (!arena || at + size + redzone > ARENA_BYTES) return NULL;
  arena_used = at + size + redzone;
  /* What an earlier test's redzones poisoned here is a variable now. */
  if (redzone) __asan_unpoison_memory_region(arena + at, size);
  memset(arena + at, 0, size);
  if (redzone) __asan_poison_memory_region(arena + at + size, redzone);
  return arena + at;
}

typedef struct callback_value {
  uint32_t type, ref;
} callback_value;

struct mosaic_ctx {
  mosaic_var_slot vars[MOSAIC_STMT_CAPACITY];
  uint32_t count;   /* variables defined so far (= statements started) */
  uint32_t current; /* the statement being performed */
  callback_value callbacks[32];
  uint32_t ncallbacks;
  jmp_buf observe_jmp;
  volatile sig_atomic_t observing;
  int null_object; /* set by an accessor that met a null pointer */
};

static mosaic_ctx context;

/* ---- variables ------------------------------------------------------- */

void *__mosaic_var(mosaic_ctx *ctx, uint32_t ref, uint32_t type) {
  if (ref >= ctx->current || ctx->vars[ref].type != type) return NULL;
  return ctx->vars[ref].storage;
}

uint32_t __mosaic_var_type(mosaic_ctx *ctx, uint32_t ref) {
  if (ref >= ctx->current) return MOSAIC_NO_TYPE;
  return ctx->vars[ref].type;
}

void *__mosaic_define(mosaic_ctx *ctx, uint32_t type, size_t size) {
  mosaic_var_slot *v = &ctx->vars[ctx->current];
  v->storage = arena_alloc(size ? size : 1);
  v->heap = v->storage == NULL;
  if (v->heap) v->storage = calloc(1, size ? size : 1);
  v->type = type;
  v->destroy = NULL;
  return v->storage;
}

void __mosaic_adopt(mosaic_ctx *ctx, uint32_t type, void *object, void (*destroy)(void *)) {
  mosaic_var_slot *v = &ctx->vars[ctx->current];
  v->storage = object;
  v->type = type;
  v->destroy = destroy;
  v->heap = 0;
}

void __mosaic_leak(void *object) { (void)object; }

void __mosaic_null_object(mosaic_ctx *ctx) { ctx->null_object = 1; }

void __mosaic_undefined_function(void) {
  fflush(NULL);
  _exit(MOSAIC_EXIT_HARNESS_ERROR);
}

int __mosaic_unperformed(mosaic_ctx *ctx) { return ctx->null_object ? MOSAIC_STMT_NULL : MOSAIC_STMT_INVALID; }

mosaic_ctx *__mosaic_context(void) { return &context; }

void __mosaic_sym_input(mosaic_ctx *ctx, const void *address, uint32_t bytes, uint32_t kind) {
  __mosaic_sym_mark(address, bytes, ctx->current, kind);
}

/* An unlinked file in the working directory holding the bytes, open for
 * reading and writing at its start; -1 when none. */
static int temp_fd(const uint8_t *bytes, uint32_t len) {
  char name[] = "mosaic-file-XXXXXX";
  uint32_t done = 0;
  const int fd = mkstemp(name);
  if (fd < 0) return -1;
  unlink(name);
  while (done < len) {
    const ssize_t n = write(fd, bytes + done, len - done);
    if (n <= 0) {
      close(fd);
      return -1;
    }
    done += (uint32_t)n;
  }
  if (lseek(fd, 0, SEEK_SET) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

void *__mosaic_temp_file(const uint8_t *bytes, uint32_t len) {
  FILE *f;
  const int fd = __mosaic_temp_fd(bytes, len);
  if (fd < 0) return NULL;
  if (!(f = fdopen(fd, "w+"))) {
    close(fd);
    return NULL;
  }
  return f;
}

int __mosaic_temp_fd(const uint8_t *bytes, uint32_t len) {
  const int fd = temp_fd(bytes, len), high = fd < 0 ? -1 : fcntl(fd, F_DUPFD, MOSAIC_TEMP_FD_BASE);
  if (fd >= 0) close(fd);
  return high;
}

void *__mosaic_alloc(mosaic_ctx *ctx, size_t size) {
  mosaic_var_slot *v = &ctx->vars[ctx->current];
  free(v->extra);
  /* Zeroed, as the written test declares what it does not set ({}): under
   * ASan malloc fills with 0xbe, which a test could not reproduce. */
  v->extra = calloc(1, size ? size : 1);
  return v->extra;
}

static void destroy_vars(mosaic_ctx *ctx) {
  uint32_t i = ctx->count;
  while (i-- > 0) {
    mosaic_var_slot *v = &ctx->vars[i];
    if (v->destroy) v->destroy(v->storage);
    else if (v->heap) free(v->storage);
    free(v->extra);
    memset(v, 0, sizeof *v);
  }
  arena_used = 0;
  ctx->count = ctx->current = 0;
  ctx->ncallbacks = 0;
}

void mosaic_rt_abandon_test(void) {
  memset(context.vars, 0, sizeof context.vars[0] * context.count);
  arena_used = 0;
  context.count = context.current = 0;
  context.ncallbacks = 0;
  context.observing = 0;
  context.null_object = 0;
}

/* ---- observations ---------------------------------------------------- */

/* AddressSanitizer's public interface (sanitizer/asan_interface.h): defined
 * when the harness is the sanitized one, null otherwise. */
extern int __asan_address_is_poisoned(void const volatile *addr) __attribute__((weak));

/* How many of the `len` bytes at `p`, up to a NUL when `string`, an
 * observation may read. Under ASan it stops at the first byte the program
 * may not read: a char * field can point into a buffer with no NUL
 * (expat's parser buffer), and ASan would report mosaic's own read of it
 * as the library's heap-buffer-overflow. By hand, through volatile reads:
 * strnlen and memcpy are intercepted, and the compiler may make a plain
 * loop into them. */
static size_t observable_len(const void *p, size_t len, int string) {
  const volatile unsigned char *b = (const volatile unsigned char *)p;
  size_t n = 0;
  while (n < len) {
    if (__asan_address_is_poisoned && __asan_address_is_poisoned(b + n)) break;
    if (string && b[n] == 0) break;
    ++n;
  }
  return n;
}

static void append(mosaic_ctx *ctx, unsigned kind, unsigned target, int field, const void *payload, size_t len) {
  mosaic_trace_header *t = mosaic_rt_trace;
  mosaic_obs_header h;
  uint8_t *area;
  (void)ctx;
  if (!t) return;
  if (t->obs_len + sizeof h + len > MOSAIC_OBS_BYTES) {
    t->obs_dropped++;
    return;
  }
  h.stmt = (uint16_t)ctx->current;
  h.kind = (uint8_t)kind;
  h.target = (uint8_t)target;
  h.field = (int16_t)field;
  h.len = (uint16_t)len;
  area = (uint8_t *)t + t->obs_off + t->obs_len;
  memcpy(area, &h, sizeof h);
  for (size_t i = 0; i < len; ++i) area[sizeof h + i] = ((const volatile uint8_t *)payload)[i];
  t->obs_len += (uint32_t)(sizeof h + len);
}

void __mosaic_obs_int(mosaic_ctx *ctx, unsigned target, int field, int64_t value) {
  append(ctx, MOSAIC_OBS_INT, target, field, &value, sizeof value);
}
void __mosaic_obs_uint(mosaic_ctx *ctx, unsigned target, int field, uint64_t value) {
  append(ctx, MOSAIC_OBS_UINT, target, field, &value, sizeof value);
}
void __mosaic_obs_float(mosaic_ctx *ctx, unsigned target, int field, double value) {
  append(ctx, MOSAIC_OBS_FLOAT, target, field, &value, sizeof value);
}
void __mosaic_obs_bool(mosaic_ctx *ctx, unsigned target, int field, int value) {
  int64_t v = value != 0;
  append(ctx, MOSAIC_OBS_BOOL, target, field, &v, sizeof v);
}
void __mosaic_obs_null(mosaic_ctx *ctx, unsigned target, int field, const void *pointer) {
  int64_t v = pointer == NULL;
  append(ctx, MOSAIC_OBS_NULL, target, field, &v, sizeof v);
}
void __mosaic_obs_bytes(mosaic_ctx *ctx, unsigned target, int field, const void *bytes, size_t len) {
  if (len > MOSAIC_OBS_MAX_STRING) len = MOSAIC_OBS_MAX_STRING;
  append(ctx, MOSAIC_OBS_STRING, target, field, bytes, observable_len(bytes, len, 0));
}
void __mosaic_obs_string(mosaic_ctx *ctx, unsigned target, int field, const char *s) {
  if (!s) {
    __mosaic_obs_null(ctx, target, field, s);
    return;
  }
  append(ctx, MOSAIC_OBS_STRING, target, field, s, observable_len(s, MOSAIC_OBS_MAX_STRING, 1));
}
void __mosaic_obs_exception(mosaic_ctx *ctx, const char *type, const char *what) {
  char buf[512];
  size_t lt = strnlen(type, 200), lw = strnlen(what, sizeof buf - lt - 1);
  memcpy(buf, type, lt);
  buf[lt] = '\0';
  memcpy(buf + lt + 1, what, lw);
  append(ctx, MOSAIC_OBS_EXCEPTION, MOSAIC_OBS_RESULT, -1, buf, lt + 1 + lw);
}

int __mosaic_threw(mosaic_ctx *ctx, const char *type, const char *what) {
  mosaic_rt_stack_keep_throw();
  __mosaic_obs_exception(ctx, type, what);
  if (strcmp(type, "std::bad_alloc") == 0) {
    fflush(NULL);
    _exit(MOSAIC_EXIT_OUT_OF_MEMORY);
  }
  return MOSAIC_STMT_THREW;
}

/* Faults while reading an observed value jump back to the observation. */
static struct sigaction previous_segv, previous_bus;

static void observe_fault(int sig, siginfo_t *info, void *uctx) {
  if (context.observing) {
    context.observing = 0;
    longjmp(context.observe_jmp, 1);
  }
  /* Not ours: the unit's fault, or a signal it raised. Its stack is
   * recorded, then what was there takes over, as if we had never been in
   * the way. */
  mosaic_rt_stack_chain(sig, info, uctx);
}

void mosaic_rt_install_observe_guard(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = observe_fault;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &previous_segv);
  sigaction(SIGBUS, &sa, &previous_bus);
  mosaic_rt_stack_install(&previous_segv, &previous_bus);
}

jmp_buf *__mosaic_observe_jmp(mosaic_ctx *ctx) {
  ctx->observing = 1;
  return &ctx->observe_jmp;
}

void __mosaic_observe_end(mosaic_ctx *ctx) {
  if (!ctx->observing) append(ctx, MOSAIC_OBS_UNREADABLE, MOSAIC_OBS_RESULT, -1, NULL, 0);
  ctx->observing = 0;
}

/* ---- callbacks ------------------------------------------------------- */

void __mosaic_set_callback_value(mosaic_ctx *ctx, uint32_t type, uint32_t ref) {
  uint32_t i;
  for (i = 0; i < ctx->ncallbacks; ++i)
    if (ctx->callbacks[i].type == type) {
      ctx->callbacks[i].ref = ref;
      return;
    }
  if (ctx->ncallbacks < sizeof ctx->callbacks / sizeof ctx->callbacks[0]) {
    ctx->callbacks[ctx->ncallbacks].type = type;
    ctx->callbacks[ctx->ncallbacks++].ref = ref;
  }
}

void *__mosaic_callback_value(mosaic_ctx *ctx, uint32_t type) {
  uint32_t i;
  for (i = 0; i < ctx->ncallbacks; ++i)
    if (ctx->callbacks[i].type == type && ctx->callbacks[i].ref < ctx->count)
      return ctx->vars[ctx->callbacks[i].ref].storage;
  return NULL;
}

void __mosaic_callback_called(mosaic_ctx *ctx, uint32_t type) { (void)ctx, (void)type; }

/* ---- decoding -------------------------------------------------------- */

typedef struct reader {
  const uint8_t *p, *end;
  int bad;
} reader;

static uint32_t rd32(reader *r) {
  uint32_t v = 0;
  if (r->end - r->p < 4) {
    r->bad = 1;
    return 0;
  }
  v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 | (uint32_t)r->p[3] << 24;
  r->p += 4;
  return v;
}

static uint64_t rd64(reader *r) {
  uint64_t lo = rd32(r);
  return lo | (uint64_t)rd32(r) << 32;
}

static void rd_refs(reader *r, mosaic_stmt *s) {
  uint32_t i;
  s->nrefs = rd32(r);
  if (s->nrefs > MOSAIC_WIRE_MAX_REFS) {
    r->bad = 1;
    return;
  }
  for (i = 0; i < s->nrefs; ++i) s->refs[i] = rd32(r);
}

static int decode(reader *r, mosaic_stmt *s) {
  memset(s, 0, offsetof(mosaic_stmt, refs));
  s->nrefs = 0;
  s->bytes = NULL;
  s->len = 0;
  s->bits = 0;
  if (r->p >= r->end) return 0;
  s->op = *r->p++;
  switch (s->op) {
  case MOSAIC_OP_PRIMITIVE:
    s->type = rd32(r);
    s->bits = rd64(r);
    break;
  case MOSAIC_OP_CSTRING:
  case MOSAIC_OP_STD_STRING:
  case MOSAIC_OP_BUFFER:
  case MOSAIC_OP_FILE:
    s->type = rd32(r);
    s->len = rd32(r);
    if ((size_t)(r->end - r->p) < s->len) return 0;
    s->bytes = r->p;
    r->p += s->len;
    break;
  case MOSAIC_OP_NULL_VALUE:
    s->type = rd32(r);
    break;
  case MOSAIC_OP_AGGREGATE:
  case MOSAIC_OP_ARRAY:
  case MOSAIC_OP_SUBCLASS:
    s->type = rd32(r);
    rd_refs(r, s);
    break;
  case MOSAIC_OP_ADDRESS_OF:
    s->type = rd32(r);
    s->nrefs = 1;
    s->refs[0] = rd32(r);
    break;
  case MOSAIC_OP_CONSTRUCT:
  case MOSAIC_OP_CALL:
  case MOSAIC_OP_METHOD_CALL:
    s->callable = rd32(r);
    rd_refs(r, s);
    break;
  case MOSAIC_OP_FIELD_SET:
    s->type = rd32(r);
    s->field = rd32(r);
    s->nrefs = 2;
    s->refs[0] = rd32(r);
    s->refs[1] = rd32(r);
    break;
  case MOSAIC_OP_CALLBACK:
    s->type = rd32(r);
    s->nrefs = 1;
    s->refs[0] = rd32(r);
    break;
  case MOSAIC_OP_END_OF:
    s->type = rd32(r);
    s->nrefs = 1;
    s->refs[0] = rd32(r);
    s->bits = rd32(r);
    break;
  default:
    return 0;
  }
  return !r->bad;
}

/* Nanoseconds since `start`, saturated to what mosaic_stmt_record.nanos holds. */
static uint32_t elapsed_nanos(const struct timespec *start) {
  struct timespec now;
  int64_t ns;
  clock_gettime(CLOCK_MONOTONIC, &now);
  ns = (int64_t)(now.tv_sec - start->tv_sec) * 1000000000 + (now.tv_nsec - start->tv_nsec);
  if (ns < 0) return 0;
  return ns > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
}

int mosaic_rt_run_test(const uint8_t *data, uint32_t len) {
  mosaic_trace_header *t = mosaic_rt_trace;
  struct timespec started;
  mosaic_stmt s;
  reader r;
  uint32_t count, i;
  int result = 0;
  r.p = data;
  r.end = data + len;
  r.bad = 0;
  if (len < 8 || (uint32_t)(data[0] | data[1] << 8) != MOSAIC_WIRE_MAGIC || data[2] != MOSAIC_WIRE_VERSION)
    return MOSAIC_EXIT_HARNESS_ERROR;
  r.p += 4;
  count = rd32(&r);
  if (count > MOSAIC_STMT_CAPACITY) return MOSAIC_EXIT_HARNESS_ERROR;
  for (i = 0; i < count; ++i) {
    mosaic_stmt_record *rec = (mosaic_stmt_record *)((char *)t + t->stmts_off) + i;
    int status;
    if (!decode(&r, &s)) {
      result = MOSAIC_EXIT_HARNESS_ERROR;
      break;
    }
    context.current = i;
    context.count = i + 1;
    /* No type until the statement defines its variable (void calls never do). */
    context.vars[i].type = MOSAIC_NO_TYPE;
    context.vars[i].storage = NULL;
    context.null_object = 0;
    mosaic_rt_reset_depth();
    t->current_stmt = (int32_t)i;
    t->stmt_count = i + 1;
    rec->obs_begin = t->obs_len;
    clock_gettime(CLOCK_MONOTONIC, &started);
    status = __mosaic_unit_exec(&context, &s, i);
    rec->nanos = elapsed_nanos(&started);
    rec->status = (uint32_t)status;
    rec->obs_end = t->obs_len;
    if (status != MOSAIC_STMT_OK) {
      if (status == MOSAIC_STMT_INVALID) result = MOSAIC_EXIT_HARNESS_ERROR;
      break;
    }
  }
  /* Destructors run as the end of a generated test's scope would run them;
   * a crash there is reported at statement -1. */
  t->current_stmt = -1;
  mosaic_rt_reset_depth();
  destroy_vars(&context);
  return result;
}

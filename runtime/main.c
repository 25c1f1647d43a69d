/* The harness's entry point: fork server under a host, plain execution of
 * one test file otherwise, or an in-process benchmark loop. */
#define _GNU_SOURCE
#include "internal.h"

#include "mosaic/abi/Protocol.h"

#include "mosaic/abi/Symbolic.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int env_fd(const char *name) {
  const char *v = getenv(name);
  return v && *v ? atoi(v) : -1;
}

static uint8_t *read_file(const char *path, uint32_t *len) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf;
  long n;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = (uint8_t *)malloc(n > 0 ? (size_t)n : 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (uint32_t)n;
  return buf;
}

/* Plain execution's report, one fact a line, for people and for tests:
 *   statement I STATUS, observation I KIND TARGET FIELD VALUE,
 *   blocks HIT TOTAL, side ID DISTANCE (evaluated sides only). */
static void report(const mosaic_trace_header *t) {
  static const char *status_names[] = {"not-run", "ok", "threw", "invalid", "null-object"};
  const mosaic_stmt_record *recs = (const mosaic_stmt_record *)((const char *)t + t->stmts_off);
  const uint8_t *blocks = (const uint8_t *)t + t->blocks_off;
  const double *sides = (const double *)((const char *)t + t->sides_off);
  const uint8_t *obs = (const uint8_t *)t + t->obs_off;
  uint32_t i, hit = 0, off = 0;
  for (i = 0; i < t->stmt_count; ++i)
    printf("statement %u %s\n", i, recs[i].status < 5 ? status_names[recs[i].status] : "?");
  while (off + sizeof(mosaic_obs_header) <= t->obs_len) {
    mosaic_obs_header h;
    int64_t v = 0;
    double d = 0;
    memcpy(&h, obs + off, sizeof h);
    printf("observation %u %u %u %d ", h.stmt, h.kind, h.target, h.field);
    if (h.kind == MOSAIC_OBS_FLOAT) {
      memcpy(&d, obs + off + sizeof h, sizeof d);
      printf("%.17g\n", d);
    } else if (h.kind == MOSAIC_OBS_STRING || h.kind == MOSAIC_OBS_EXCEPTION) {
      printf("%.*s\n", (int)h.len, (const char *)obs + off + sizeof h);
    } else if (h.len == sizeof v) {
      memcpy(&v, obs + off + sizeof h, sizeof v);
      printf("%lld\n", (long long)v);
    } else {
      printf("\n");
    }
    off += (uint32_t)sizeof h + h.len;
  }
  for (i = 0; i < t->block_capacity; ++i) hit += blocks[i] != 0;
  printf("blocks %u %u\n", hit, t->block_capacity);
  for (i = 0; i < t->side_capacity; ++i)
    if (sides[i] != 0.0) printf("side %u %.17g\n", i, sides[i] - 1.0);
}

/* The first process of a PID namespace (the fork server, MOSAIC_FEATURE_
 * PID_NAMESPACE) is spared the signals it has no handler for, its own
 * SIGABRT included: abort() in the unit's static initialisation would end
 * as the SIGSEGV of glibc's last resort. A handler, set before the unit's
 * initialisers run (priority 101: the first user priority), makes it exit
 * with 128 + SIGABRT, which the host reads as the abort it was. The server
 * puts SIGABRT back to its default before any test. */
static void init_aborted(int sig) { _exit(128 + sig); }

__attribute__((constructor(101))) static void mosaic_rt_early(void) {
  if (getpid() == 1) signal(SIGABRT, init_aborted);
}

static const char *usage = "usage: harness TEST-FILE            run one encoded test in-process\n"
                           "       harness --bench N TEST-FILE  run it N times in-process, print tests/second\n"
                           "(under mosaic the harness is a fork server and takes no arguments)\n";

/* Concolic execution (abi/Symbolic.h): the host's region, shared with
 * every child of the server; or, in plain execution with MOSAIC_SYM_OUT, a
 * private one of the default capacities, written out at the end. */
static void *symbolic_region;
static size_t symbolic_size;

static void attach_symbolic(int plain) {
  const int fd = env_fd(MOSAIC_ENV_SYM_FD);
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m != MAP_FAILED) __mosaic_sym_attach(m, (size_t)st.st_size);
    return;
  }
  if (!plain || !getenv(MOSAIC_ENV_SYM_OUT)) return;
  symbolic_size = mosaic_sym_size(MOSAIC_SYM_NODE_CAPACITY, MOSAIC_SYM_CONSTRAINT_CAPACITY, MOSAIC_SYM_INPUT_CAPACITY);
  symbolic_region = calloc(1, symbolic_size);
  if (!symbolic_region) return;
  mosaic_sym_layout((mosaic_sym_header *)symbolic_region, MOSAIC_SYM_NODE_CAPACITY, MOSAIC_SYM_CONSTRAINT_CAPACITY,
                    MOSAIC_SYM_INPUT_CAPACITY);
  __mosaic_sym_attach(symbolic_region, symbolic_size);
}

static void write_symbolic(void) {
  FILE *f;
  if (!symbolic_region || !(f = fopen(getenv(MOSAIC_ENV_SYM_OUT), "wb"))) return;
  fwrite(symbolic_region, 1, symbolic_size, f);
  fclose(f);
}

int main(int argc, char **argv) {
  const int shm = env_fd(MOSAIC_ENV_SHM_FD), ctl = env_fd(MOSAIC_ENV_CTL_FD), status = env_fd(MOSAIC_ENV_STATUS_FD);
  uint32_t len = 0, i, n = 1;
  uint8_t *input;
  mosaic_trace_header *trace;
  const char *file;
  int rc = 0;
  attach_symbolic(!(shm >= 0 && ctl >= 0 && status >= 0));
  if (shm >= 0 && ctl >= 0 && status >= 0) return mosaic_rt_serve(shm, ctl, status);

  /* Plain execution: a private trace, the test in this process. */
  if (argc == 4 && strcmp(argv[1], "--bench") == 0) {
    n = (uint32_t)strtoul(argv[2], NULL, 10);
    file = argv[3];
  } else if (argc == 2 && argv[1][0] != '-') {
    file = argv[1];
  } else {
    fputs(usage, stderr);
    return MOSAIC_EXIT_HARNESS_ERROR;
  }
  input = read_file(file, &len);
  if (!input) {
    fprintf(stderr, "harness: cannot read %s\n", file);
    return MOSAIC_EXIT_HARNESS_ERROR;
  }
  trace = (mosaic_trace_header *)calloc(
      1, mosaic_trace_size(mosaic_rt_unit_blocks(), mosaic_rt_unit_sides(), mosaic_rt_unit_mutants()));
  mosaic_trace_layout(trace, mosaic_rt_unit_blocks(), mosaic_rt_unit_sides(), mosaic_rt_unit_mutants());
  mosaic_rt_use_trace(trace);
  {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (i = 0; i < n && rc == 0; ++i) {
      mosaic_trace_reset(trace);
      rc = mosaic_rt_run_test(input, len);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (n > 1)
      printf("%u tests in %.3f s: %.0f tests/s\n", i, (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9,
             i / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9));
  }
  if (rc == 0) trace->finished = 1;
  if (n == 1) report(trace);
  write_symbolic();
  fflush(NULL);
  return rc;
}

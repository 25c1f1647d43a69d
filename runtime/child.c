/* The fork server's children (server.h): forking one, the child's side
 * (the sandbox, then one test, or test after test for a persistent child),
 * ending one, and the work traces a persistent child runs its tests in. */
#define _GNU_SOURCE
#include "internal.h"
#include "server.h"

#include "mosaic/abi/Harness.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

static work_state *work_at(const server *s, uint32_t serial) {
  return (work_state *)(s->work + (size_t)(serial % WORK_TRACES) * (MOSAIC_SLOT_ALIGN + s->stride));
}

static mosaic_trace_header *work_trace(work_state *w) {
  return (mosaic_trace_header *)((char *)w + MOSAIC_SLOT_ALIGN);
}

static long futex_(uint32_t *word, int op, uint32_t val) {
  return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

/* A part of a trace that a test writes: `len` bytes at `off`. */
typedef struct trace_part {
  size_t off, len;
} trace_part;

static uint32_t at_most(uint32_t n, uint32_t cap) { return n < cap ? n : cap; }

/* The parts of trace `t` (of the server's layout) a test wrote, the
 * header's per-test fields last (they hold `finished`): the areas of
 * blocks, sides, mutants and direct calls whole (the host cleared them
 * before the test), of the bounded areas what the counters say (clamped:
 * a test can write over them), and the header but for its layout, the
 * server's output counters and the host's mutant and server name. Returns
 * how many (at most 7). */
static int written_parts(const server *s, const mosaic_trace_header *t, trace_part *parts) {
  const mosaic_trace_header *l = &s->layout;
  int n = 0;
  parts[n].off = l->blocks_off, parts[n++].len = l->cmps_off - l->blocks_off;
  parts[n].off = l->cmps_off, parts[n++].len = at_most(t->cmp_count, MOSAIC_CMP_CAPACITY) * sizeof(mosaic_cmp_entry);
  parts[n].off = l->strs_off, parts[n++].len = at_most(t->str_count, MOSAIC_STR_CAPACITY) * sizeof(mosaic_str_entry);
  parts[n].off = l->stmts_off,
  parts[n++].len = at_most(t->stmt_count, MOSAIC_STMT_CAPACITY) * sizeof(mosaic_stmt_record);
  parts[n].off = l->obs_off, parts[n++].len = at_most(t->obs_len, MOSAIC_OBS_BYTES);
  parts[n].off = offsetof(mosaic_trace_header, stack_count);
  parts[n++].len = sizeof(mosaic_trace_header) - offsetof(mosaic_trace_header, stack_count);
  parts[n].off = offsetof(mosaic_trace_header, unit_blocks);
  parts[n++].len = offsetof(mosaic_trace_header, output_len) - offsetof(mosaic_trace_header, unit_blocks);
  return n;
}

/* In a persistent child: readies the work trace of test `serial`, that
 * of slot i, from the slot's header and input (read, not mapped here:
 * CHILD_SHM_FD), once the server has taken the test there before. NULL
 * when it cannot (a test closed the memfd): the test then runs in its
 * slot. */
static mosaic_trace_header *work_begin(server *s, uint32_t i, uint32_t serial) {
  work_state *state = work_at(s, serial);
  mosaic_trace_header *w = work_trace(state), h;
  const off_t at = (off_t)i * (off_t)s->stride;
  uint32_t v;
  while ((v = __atomic_load_n(&state->pending, __ATOMIC_ACQUIRE)) != 0) {
    if (v == 1 && !__atomic_compare_exchange_n(&state->pending, &v, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) continue;
    futex_(&state->pending, FUTEX_WAIT, 2);
  }
  state->serial = 0;
  if (pread(CHILD_SHM_FD, &h, sizeof h, at) != (ssize_t)sizeof h || h.input_len > MOSAIC_INPUT_BYTES) return NULL;
  memcpy(w, &s->layout, offsetof(mosaic_trace_header, unit_blocks));
  mosaic_trace_reset(w);
  w->input_len = h.input_len;
  w->active_mutant = h.active_mutant;
  if (h.input_len > 0 && pread(CHILD_SHM_FD, (char *)w + w->input_off, h.input_len, at + w->input_off) !=
                             (ssize_t)h.input_len)
    return NULL;
  state->serial = serial;
  return w;
}

/* In a persistent child, at the end of test `serial` in its work trace:
 * the server may take it (before the child says so on `done`). */
static void work_end(server *s, uint32_t serial) {
  __atomic_store_n(&work_at(s, serial)->pending, 1, __ATOMIC_RELEASE);
}

/* In the server, when the child has said the test of slot k (serial
 * `serial`) ended or is gone: what the test wrote in its work trace, into
 * the slot, when the child ran it there; then the work trace is free. */
void mosaic_rt_work_collect(server *s, uint32_t k, uint32_t serial) {
  trace_part parts[8];
  work_state *state;
  const mosaic_trace_header *w;
  int n, i;
  if (!s->work) return;
  state = work_at(s, serial);
  w = work_trace(state);
  if (state->serial == serial) {
    n = written_parts(s, w, parts);
    for (i = 0; i < n; ++i) memcpy((char *)mosaic_rt_slot_at(s, k) + parts[i].off, (const char *)w + parts[i].off, parts[i].len);
    state->serial = 0;
  }
  if (__atomic_exchange_n(&state->pending, 0, __ATOMIC_ACQ_REL) == 2) futex_(&state->pending, FUTEX_WAKE, 1);
}

/* In the child: the sandbox, then the test of slot `first`, or
 * (persistent) the tests of each run_command the server sends. Never
 * returns. */
static void child(server *s, const mosaic_request *req, int out, int cmd, int done, uint32_t first) {
  mosaic_trace_header *t = mosaic_rt_slot_at(s, first);
  int rc;
  setpgid(0, 0);
  dup2(s->devnull, 0);
  dup2(out, 1);
  dup2(out, 2);
  if (cmd >= 0) {
    /* Keep the two pipes to the server at fixed numbers past stdio, and
     * copies of stdout and stdin to put back before each test, and the
     * slots' memfd (moved out of their way first). */
    const int shm = s->work ? fcntl(s->shm, F_DUPFD, 64) : -1;
    dup2(cmd, 3);
    dup2(done, 4);
    dup2(out, 5);
    dup2(s->devnull, 6);
    if (shm >= 0) dup2(shm, CHILD_SHM_FD);
    else s->work = NULL;
    cmd = 3, done = 4;
  }
  syscall(SYS_close_range, cmd >= 0 ? CHILD_SHM_FD + 1u : 3u, ~0u, 0u);
  if (mosaic_rt_sandbox_enter(&s->box, req) != 0) _exit(MOSAIC_EXIT_HARNESS_ERROR);
  if (cmd >= 0) mosaic_rt_child_state_save(5, 6, CHILD_SHM_FD + 1);
  signal(SIGPIPE, SIG_DFL);
  signal(SIGXFSZ, SIG_DFL);
  setvbuf(stdout, NULL, _IONBF, 0);
  mosaic_rt_install_observe_guard();
  if (cmd < 0) {
    mosaic_rt_use_trace(t);
    mosaic_rt_select_mutant(t);
    rc = mosaic_rt_run_test((const uint8_t *)t + t->input_off, t->input_len);
    fflush(NULL);
    if (rc == 0) t->finished = 1;
    _exit(rc);
  }
  for (;;) {
    static sigjmp_buf recover_at;
    run_command rc_cmd;
    uint32_t i;
    if (mosaic_rt_read_all(cmd, &rc_cmd, sizeof rc_cmd) != 0) _exit(0);
    for (i = rc_cmd.first; i - rc_cmd.first < rc_cmd.count && i < s->slots; ++i) {
      int sig, pending = 0;
      const uint32_t serial = rc_cmd.serial + (i - rc_cmd.first);
      mosaic_trace_header *w = s->work ? work_begin(s, i, serial) : NULL;
      t = w ? w : mosaic_rt_slot_at(s, i);
      mosaic_rt_use_trace(t);
      /* The server cleaned the scratch folder before it sent the command;
       * between the tests of one command the child does. */
      if (i > rc_cmd.first) mosaic_rt_sandbox_clean_scratch(&s->box);
      mosaic_rt_snapshot_restore();
      mosaic_rt_child_state_restore(&s->box);
      mosaic_rt_reset_scopes();
      mosaic_rt_reset_depth();
      mosaic_rt_select_mutant(t);
      errno = 0;
      /* A clean fault ends the test, not the child (mosaic_rt_recover_arm):
       * the next test needs no fork. What the unit left buffered is not
       * flushed, as a process killed by the fault would not have. */
      if ((sig = sigsetjmp(recover_at, 0)) == 0) {
        mosaic_rt_recover_arm(&recover_at);
        rc = mosaic_rt_run_test((const uint8_t *)t + t->input_off, t->input_len);
        mosaic_rt_recover_arm(NULL);
        fflush(NULL);
        if (rc == 0) t->finished = 1;
      } else {
        mosaic_rt_abandon_test();
        rc = DONE_RECOVERED | sig;
      }
      if (w) work_end(s, serial);
      /* Bytes in the output pipe (its copy at 5) that the server has not
       * read; unknown counts as some. */
      if (ioctl(5, FIONREAD, &pending) != 0 || pending > 0) rc |= DONE_WAIT;
      {
        done_record d;
        struct timespec ts;
        memset(&d, 0, sizeof d);
        d.rc = rc;
        d.check = s->child.token;
        d.cpu_us = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0
                       ? (int64_t)ts.tv_sec * 1000000 + (int64_t)ts.tv_nsec / 1000
                       : -1;
        if (write(done, &d, sizeof d) != (ssize_t)sizeof d) _exit(rc & ~DONE_WAIT);
      }
      if (rc & DONE_WAIT) break;
    }
  }
}

/* A child's token (child_proc.token), one no test guesses by chance: the
 * clock and a count of children, mixed by splitmix64's finaliser (Steele,
 * Lea and Flood's constants). */
static uint32_t new_token(void) {
  static uint64_t children;
  uint64_t z = mosaic_rt_now_us() ^ (++children * 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)(z ^ (z >> 31));
}

/* Present only in a sanitized harness (the runtime itself is never built
 * with a sanitizer). */
extern void __asan_init(void) __attribute__((weak));

/* Whether this process runs one thread (its status in /proc). */
static int one_thread(void) {
  FILE *f = fopen("/proc/self/status", "re");
  char line[128];
  int threads = 0;
  if (!f) return 0;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "Threads:", 8) == 0) threads = atoi(line + 8);
  fclose(f);
  return threads == 1;
}

/* Whether the server's children are made without the fork handlers
 * (glibc's _Fork): in a harness built with AddressSanitizer, whose server
 * runs one thread. ASan's pthread_atfork handlers lock its allocator and
 * stack depot before a fork and, in the child, read all 2^20 buckets of the
 * depot (StackDepotUnlockAfterFork, compiler-rt 19), 4 MB mostly never
 * touched: ~1,000 page faults and a pass over the table in every child,
 * which bounded a sanitized search on cJSON.c to 72 tests a second. The
 * locks guard against another thread holding them across the fork; the
 * server has none. The program's own fork handlers are skipped too, in the
 * sanitized harness only: a library registers them to hold its locks
 * across a fork or to renew per-process state in the child (a random
 * generator's seed, say); with one thread no lock is held, and without
 * them every child still starts from the same server state, so a test's
 * outcome is the same in every child (HostileSanitized runs the hostile
 * fixtures both ways and checks the same outcomes).
 * Decided once, when the server starts (mosaic_rt_choose_fork), and kept as
 * MOSAIC_FEATURE_FORK_NO_HANDLERS in the server's features. */
static pid_t fork_child(const server *s) {
  return (s->features & MOSAIC_FEATURE_FORK_NO_HANDLERS) ? _Fork() : fork();
}

/* Decides fork_child's way, before the file systems turn read-only and
 * the tests' environment is fixed; MOSAIC_FEATURE_FORK_NO_HANDLERS or 0. */
uint32_t mosaic_rt_choose_fork(void) {
  const char *with = getenv(MOSAIC_ENV_FORK_HANDLERS);
  int without = !(with && strcmp(with, "1") == 0) && __asan_init != NULL && one_thread();
  if (with) unsetenv(MOSAIC_ENV_FORK_HANDLERS); /* the tests' environment is the same either way */
  return without ? MOSAIC_FEATURE_FORK_NO_HANDLERS : 0;
}

/* Starts a child (persistent, or for the test of slot `first`). */
int mosaic_rt_start_child(server *s, const mosaic_request *req, int persistent, uint32_t first) {
  child_proc *c = &s->child;
  int out[2], cmd[2] = {-1, -1}, done[2] = {-1, -1};
  if (pipe2(out, O_CLOEXEC) != 0) return -1;
  if (persistent && (pipe2(cmd, O_CLOEXEC) != 0 || pipe2(done, O_CLOEXEC) != 0)) {
    close(out[0]);
    close(out[1]);
    return -1;
  }
  c->token = new_token();
  if (s->work) /* what an earlier child left is not this one's */
    for (uint32_t i = 0; i < WORK_TRACES; ++i) memset(work_at(s, i), 0, sizeof(work_state));
  c->pid = fork_child(s);
  if (c->pid == 0) child(s, req, out[1], cmd[0], done[1], first);
  close(out[1]);
  if (persistent) {
    close(cmd[0]);
    close(done[1]);
  }
  if (c->pid < 0) {
    close(out[0]);
    if (persistent) close(cmd[1]), close(done[0]);
    return -1;
  }
  c->out = out[0];
  fcntl(c->out, F_SETFL, O_NONBLOCK);
  c->cmd = persistent ? cmd[1] : -1;
  c->done = persistent ? done[0] : -1;
  c->pidfd = (s->features & MOSAIC_FEATURE_PIDFD) ? mosaic_rt_pidfd_open(c->pid) : -1;
  c->tests = 0;
  c->queued_end = 0;
  c->last_cpu_us = -1;
  c->persistent = persistent;
  c->has_clock = clock_getcpuclockid(c->pid, &c->clock) == 0;
  return 0;
}

/* Kills the child and everything it started; reaps them. */
void mosaic_rt_end_child(server *s, int *status) {
  child_proc *c = &s->child;
  if (c->pid <= 0) return;
  kill(-c->pid, SIGKILL);
  kill(c->pid, SIGKILL);
  while (waitpid(c->pid, status, 0) < 0 && errno == EINTR) {
  }
  mosaic_rt_sandbox_kill_strays(&s->box, c->pid);
  mosaic_rt_sandbox_reap_strays(&s->box);
  mosaic_rt_pump_output(s, c->out, 0);
  close(c->out);
  if (c->cmd >= 0) close(c->cmd);
  if (c->done >= 0) close(c->done);
  if (c->pidfd >= 0) close(c->pidfd);
  memset(c, 0, sizeof *c);
  c->pid = -1;
  c->cmd = c->done = c->pidfd = c->out = -1;
}

/* Ends a persistent child between tests: it exits when its command pipe closes. */
void mosaic_rt_retire_child(server *s) {
  int status;
  child_proc *c = &s->child;
  if (c->pid <= 0) return;
  close(c->cmd);
  c->cmd = -1;
  mosaic_rt_end_child(s, &status);
}

/* The fork server's protocol: the hello, then per request a batch of tests
 * run in order in a child (fresh for each, or a persistent one that runs
 * test after test), each watched for its CPU time, its output captured,
 * and a closed outcome per test as the reply. The children's sandbox is set
 * up in sandbox.c. */
#define _GNU_SOURCE
#include "internal.h"
#include "sandbox.h"

#include "mosaic/abi/Harness.h"
#include "mosaic/abi/Protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct server;

typedef struct child_proc {
  pid_t pid; /* <= 0: none */
  int pidfd, out, cmd, done;
  uint32_t tests; /* tests run by this persistent child */
  /* What its done records carry (done_record.check), new for each child:
   * a record without it is bytes the test wrote into the pipe, not the
   * child's word (the pipe is a descriptor the unit can reach). */
  uint32_t token;
  int persistent;
  int64_t last_cpu_us; /* its CPU clock at the end of its last test (done_record); -1: unknown */
  /* Persistent: the slot past the last one it was told to run; it runs
   * every test before that without a word from the server (and waits for
   * a command once it has run them, or has said DONE_WAIT). */
  uint32_t queued_end;
  /* Its CPU clock, asked once per child (clock_getcpuclockid is a
   * clock_getres call each time); has_clock 0 when it could not be. */
  clockid_t clock;
  int has_clock;
} child_proc;

/* The first page of a work trace (server.work): whose trace it holds and
 * whether the server has taken it. */
typedef struct work_state {
  /* The serial of the test whose trace it holds (run_command.serial),
   * written by the child when it begins the test there; 0: none. */
  volatile uint32_t serial;
  /* 0: free; 1: the child ended a test here and the server has not copied
   * it into the slot yet; 2: that, and the child waits for it (a futex
   * word, shared between the two processes). */
  uint32_t pending;
} work_state;

/* Work traces: a persistent child runs test n in work trace n % 2, so the
 * server copies one while the child runs the next test in the other. */
#define WORK_TRACES 2u

/* The slots' memfd in a persistent child (past stdio and the pipes 3-6). */
#define CHILD_SHM_FD 7

typedef struct server {
  mosaic_trace_header *trace; /* slot 0 */
  int shm;                    /* the slots' memfd */
  /* Slot 0's header at start: the offsets and capacities every slot and
   * the work trace share (the host lays each out alike: exec/ForkServer),
   * kept where no test writes. */
  mosaic_trace_header layout;
  /* The work traces of persistent children (WORK_TRACES of them, each a
   * state page, work_state, then a trace of the slots' layout, `stride`
   * bytes), or NULL: then they write into the slots. A child runs each
   * test in a work trace and the server copies what the test wrote into
   * the test's slot when the child reports the test's end or is gone. Why:
   * fork copies no page-table entry of shared memory, so a child's first
   * touch of each page of a slot faults (11 us on a paravirtualised VM,
   * bench/machine/costs.c), the host rotates tests over up to 64 slots,
   * and a child lives tens of tests: most tests wrote cold slots. The work
   * traces stay mapped in the child from test to test; the server's
   * mapping of everything is warm. (The child cannot pwrite into the
   * slots: the test's RLIMIT_FSIZE counts the memfd's offsets.) */
  char *work;
  uint32_t batch_serial; /* serial of the current request's slot 0: test k's is batch_serial + k */
  size_t stride;              /* bytes from one slot to the next (abi/Protocol.h) */
  uint32_t slots;             /* slots the memory holds, at most MOSAIC_MAX_SLOTS */
  mosaic_trace_header *cur;   /* the slot of the test the server waits for: its output goes there */
  /* Each slot's header as the host wrote it for this request: a slot is
   * put back from it when a test must run again in a new child after the
   * old one had begun it (runtime stray processes). */
  mosaic_trace_header sent[MOSAIC_MAX_SLOTS];
  int cut;       /* the host sent MOSAIC_CMD_CUT (or is gone) during this request */
  int host_gone; /* the control pipe closed or said something else than a cut: quit after the request */
  int ctl, status, devnull;
  uint32_t features;
  mosaic_sandbox box;
  child_proc child;
} server;

static int write_all(int fd, const void *buf, size_t len) {
  const char *p = (const char *)buf;
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    p += n, len -= (size_t)n;
  }
  return 0;
}

static int read_all(int fd, void *buf, size_t len) {
  char *p = (char *)buf;
  while (len > 0) {
    ssize_t n = read(fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    p += n, len -= (size_t)n;
  }
  return 0;
}

static mosaic_trace_header *slot_at(const server *s, uint32_t i) {
  return (mosaic_trace_header *)((char *)s->trace + (size_t)i * s->stride);
}

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* CPU time a process has used, in microseconds; -1 when it cannot be read
 * (the process is gone). */
static int64_t cpu_us(const child_proc *c) {
  struct timespec ts;
  if (c->pid <= 0 || !c->has_clock || clock_gettime(c->clock, &ts) != 0) return -1;
  return (int64_t)ts.tv_sec * 1000000 + (int64_t)ts.tv_nsec / 1000;
}

/* What a persistent child reports on `done` after a test: 0, the harness's
 * error code, or DONE_RECOVERED | the signal of a fault it went on past;
 * with DONE_WAIT when what the test printed was not all read yet: the
 * child then waits for a command before the next test, so that the output
 * of one test never lands in the slot of the one before. */
#define DONE_RECOVERED 0x10000
#define DONE_WAIT 0x20000

/* What a persistent child writes on `done` after each test: the code
 * above, and its CPU clock then (CLOCK_PROCESS_CPUTIME_ID, microseconds):
 * the end of this test and the start of the next one it runs on its own.
 * The server may read it late (the child runs on, on the same CPU), so the
 * child's clock, not the server's reading, says what each test used. */
typedef struct done_record {
  int32_t rc;
  uint32_t check; /* child_proc.token */
  int64_t cpu_us;
} done_record;

/* A persistent child's command: run the tests of slots [first, first + count). */
typedef struct run_command {
  uint32_t first, count;
  uint32_t serial; /* of the test of slot `first`; the next ones count up */
} run_command;

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
static void work_collect(server *s, uint32_t k, uint32_t serial) {
  trace_part parts[8];
  work_state *state;
  const mosaic_trace_header *w;
  int n, i;
  if (!s->work) return;
  state = work_at(s, serial);
  w = work_trace(state);
  if (state->serial == serial) {
    n = written_parts(s, w, parts);
    for (i = 0; i < n; ++i) memcpy((char *)slot_at(s, k) + parts[i].off, (const char *)w + parts[i].off, parts[i].len);
    state->serial = 0;
  }
  if (__atomic_exchange_n(&state->pending, 0, __ATOMIC_ACQ_REL) == 2) futex_(&state->pending, FUTEX_WAKE, 1);
}

/* In the child: the sandbox, then the test of slot `first`, or
 * (persistent) the tests of each run_command the server sends. Never
 * returns. */
static void child(server *s, const mosaic_request *req, int out, int cmd, int done, uint32_t first) {
  mosaic_trace_header *t = slot_at(s, first);
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
    if (read_all(cmd, &rc_cmd, sizeof rc_cmd) != 0) _exit(0);
    for (i = rc_cmd.first; i - rc_cmd.first < rc_cmd.count && i < s->slots; ++i) {
      int sig, pending = 0;
      const uint32_t serial = rc_cmd.serial + (i - rc_cmd.first);
      mosaic_trace_header *w = s->work ? work_begin(s, i, serial) : NULL;
      t = w ? w : slot_at(s, i);
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

/* Appends what the child printed to the output area of the current slot
 * (bounded): all there is, or (`once`) what one read returns. */
static int pump_output(server *s, int fd, int once) {
  mosaic_trace_header *t = s->cur;
  char sink[4096]; /* past the area's end, read and dropped a page at a time (ours) */
  for (;;) {
    ssize_t n;
    const uint32_t room = MOSAIC_OUTPUT_BYTES - t->output_len;
    if (room > 0) n = read(fd, (char *)t + t->output_off + t->output_len, room);
    else n = read(fd, sink, sizeof sink);
    if (n > 0) {
      if (room > 0) t->output_len += (uint32_t)n;
      else t->output_dropped += (uint32_t)n;
      if (once) return 1;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n == 0 ? 0 : (errno == EAGAIN ? 1 : 0); /* 0: closed, 1: more may come */
  }
}

/* A child's token (child_proc.token), one no test guesses by chance: the
 * clock and a count of children, mixed by splitmix64's finaliser (Steele,
 * Lea and Flood's constants). */
static uint32_t new_token(void) {
  static uint64_t children;
  uint64_t z = now_us() ^ (++children * 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)(z ^ (z >> 31));
}

static int pidfd_open_(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

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
 * Decided once, when the server starts (choose_fork), and kept as
 * MOSAIC_FEATURE_FORK_NO_HANDLERS in the server's features. */
static pid_t fork_child(const server *s) {
  return (s->features & MOSAIC_FEATURE_FORK_NO_HANDLERS) ? _Fork() : fork();
}

/* Decides fork_child's way, before the file systems turn read-only and
 * the tests' environment is fixed; MOSAIC_FEATURE_FORK_NO_HANDLERS or 0. */
static uint32_t choose_fork(void) {
  const char *with = getenv(MOSAIC_ENV_FORK_HANDLERS);
  int without = !(with && strcmp(with, "1") == 0) && __asan_init != NULL && one_thread();
  if (with) unsetenv(MOSAIC_ENV_FORK_HANDLERS); /* the tests' environment is the same either way */
  return without ? MOSAIC_FEATURE_FORK_NO_HANDLERS : 0;
}

/* Starts a child (persistent, or for the test of slot `first`). */
static int start_child(server *s, const mosaic_request *req, int persistent, uint32_t first) {
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
  c->pidfd = (s->features & MOSAIC_FEATURE_PIDFD) ? pidfd_open_(c->pid) : -1;
  c->tests = 0;
  c->queued_end = 0;
  c->last_cpu_us = -1;
  c->persistent = persistent;
  c->has_clock = clock_getcpuclockid(c->pid, &c->clock) == 0;
  return 0;
}

/* Kills the child and everything it started; reaps them. */
static void end_child(server *s, int *status) {
  child_proc *c = &s->child;
  if (c->pid <= 0) return;
  kill(-c->pid, SIGKILL);
  kill(c->pid, SIGKILL);
  while (waitpid(c->pid, status, 0) < 0 && errno == EINTR) {
  }
  mosaic_rt_sandbox_kill_strays(&s->box, c->pid);
  mosaic_rt_sandbox_reap_strays(&s->box);
  pump_output(s, c->out, 0);
  close(c->out);
  if (c->cmd >= 0) close(c->cmd);
  if (c->done >= 0) close(c->done);
  if (c->pidfd >= 0) close(c->pidfd);
  memset(c, 0, sizeof *c);
  c->pid = -1;
  c->cmd = c->done = c->pidfd = c->out = -1;
}

/* Ends a persistent child between tests: it exits when its command pipe closes. */
static void retire_child(server *s) {
  int status;
  child_proc *c = &s->child;
  if (c->pid <= 0) return;
  close(c->cmd);
  c->cmd = -1;
  end_child(s, &status);
}

static void classify(server *s, int status, int timed_out, mosaic_reply *reply) {
  mosaic_trace_header *t = s->cur;
  if (timed_out) {
    reply->outcome = MOSAIC_OUTCOME_TIMEOUT;
  } else if (WIFSIGNALED(status)) {
    reply->signal = WTERMSIG(status);
    reply->outcome = reply->signal == SIGABRT ? MOSAIC_OUTCOME_ABORT : MOSAIC_OUTCOME_CRASH;
  } else if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    reply->exit_code = code;
    if (code == MOSAIC_EXIT_FINISHED && t->finished) reply->outcome = MOSAIC_OUTCOME_OK;
    else if (code == MOSAIC_EXIT_HARNESS_ERROR && !t->finished) reply->outcome = MOSAIC_OUTCOME_HARNESS_ERROR;
    else if (code == MOSAIC_EXIT_OUT_OF_MEMORY) reply->outcome = MOSAIC_OUTCOME_OUT_OF_MEMORY;
    else if (code == MOSAIC_EXIT_SANITIZER && memmem((char *)t + t->output_off, t->output_len, "Sanitizer", 9 /* its length */) != NULL)
      reply->outcome = MOSAIC_OUTCOME_SANITIZER;
    else reply->outcome = MOSAIC_OUTCOME_EXIT;
  }
}

/* Makes sure a child runs the test of slot k of a request whose slots end
 * before `end`: a persistent one that is not on its way to it already is
 * told to run the tests from k on (as many as it may still run; replaced
 * when it died between tests), otherwise one is forked. -1 when none could
 * be started; *fresh is set when the child is new. */
static int ready_child(server *s, const mosaic_request *req, int persistent, uint32_t k, uint32_t end, uint32_t *fresh) {
  child_proc *c = &s->child;
  int status = 0;
  if (c->pid > 0 && (!persistent || c->persistent != persistent)) retire_child(s);
  if (c->pid <= 0) {
    if (start_child(s, req, persistent, k) != 0) return -1;
    *fresh = 1;
  }
  if (persistent && c->queued_end <= k) {
    run_command go;
    go.first = k;
    go.count = end - k;
    go.serial = s->batch_serial + k;
    if (go.count > MOSAIC_PERSISTENT_TESTS - c->tests) go.count = MOSAIC_PERSISTENT_TESTS - c->tests;
    if (write_all(c->cmd, &go, sizeof go) != 0) { /* it died between tests: a fresh one */
      end_child(s, &status);
      if (start_child(s, req, 1, k) != 0 || write_all(c->cmd, &go, sizeof go) != 0) return -1;
      *fresh = 1;
    }
    c->queued_end = k + go.count;
  }
  return 0;
}

/* /proc/PID/NAME into `buf` (NUL-terminated, at most `size` - 1 bytes);
 * 0 when it cannot be read. */
static int read_proc(pid_t pid, const char *name, char *buf, size_t size) {
  char path[64];
  ssize_t n;
  int fd;
  snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
  if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) return 0;
  n = read(fd, buf, size - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  return 1;
}

/* Whether process `pid` can never run again by itself: its only thread
 * waits on a private futex with no timeout (glibc's malloc lock after the
 * test corrupted the heap, a mutex locked twice). No other thread can wake
 * it, and a private futex is not shared with another process, so waiting
 * out the wall-clock limit would only cost time: it counts as hung now.
 * Read from /proc (the server's PID namespace mounts its own); 0 when
 * anything is unreadable, or on an architecture named below by none. */
static int stuck(pid_t pid) {
#if defined(__x86_64__)
  const long futex_nr = 202; /* asm/unistd_64.h */
#elif defined(__aarch64__)
  const long futex_nr = 98; /* asm-generic/unistd.h */
#else
  const long futex_nr = -1;
#endif
  char buf[512];
  long nr = -1;
  unsigned long long uaddr = 0, op = 0, val = 0, timeout = 1;
  int field, threads = 0;
  const char *p;
  if (futex_nr < 0 || !read_proc(pid, "syscall", buf, sizeof buf)) return 0;
  if (sscanf(buf, "%ld %llx %llx %llx %llx", &nr, &uaddr, &op, &val, &timeout) != 5 || nr != futex_nr ||
      timeout != 0 || !(op & 128u /* FUTEX_PRIVATE_FLAG */))
    return 0;
  op &= 127u;
  if (op != 0u /* FUTEX_WAIT */ && op != 9u /* FUTEX_WAIT_BITSET */) return 0;
  /* num_threads: the 20th field of stat, the 18th past the command's ')'
   * (proc(5)). */
  if (!read_proc(pid, "stat", buf, sizeof buf) || !(p = strrchr(buf, ')'))) return 0;
  for (field = 2; field < 20 && p; ++field) p = strchr(p + 1, ' ');
  if (!p || sscanf(p + 1, "%d", &threads) != 1) return 0;
  return threads == 1;
}

/* How often a test that outlives its first look is looked at again for
 * stuck() (ours: a fiftieth of a second, far below the one-second wall
 * limit it saves, and a /proc read per look). */
#define STUCK_LOOK_US 20000u

/* Waits until the child finishes the test (a persistent one reports on
 * `done`: *done_rc), ends (*status, or c->pid negated when reaped here), or
 * uses up its CPU time (`cpu_limit` microseconds from `cpu_start`) or its
 * wall-clock time (until `wall_end`), pumping its output meanwhile. Returns
 * 1 when it timed out, 2 when it was stuck() (a timeout too), 3 when a
 * done record came without the child's token (the test wrote into the
 * pipe: the child is killed), else 0. */
static int wait_child(server *s, uint64_t start, int64_t cpu_start, int64_t cpu_limit, uint64_t wall_end, int *status,
                      done_record *done_rc) {
  child_proc *c = &s->child;
  int open_out = 1, open_done = 1;
  uint64_t deadline = start + ((uint64_t)cpu_limit < STUCK_LOOK_US ? (uint64_t)cpu_limit : STUCK_LOOK_US);
  for (;;) {
    struct pollfd fds[4];
    int nfds = 0, wait_ms, i_done = -1, i_pid = -1, i_out = -1, i_ctl = -1;
    const uint64_t now = now_us();
    if (now >= deadline) {
      const int64_t cpu = cpu_us(c);
      const int64_t used = cpu - cpu_start;
      if (cpu < 0 || cpu_start < 0 || used >= cpu_limit || now >= wall_end) return 1;
      if (stuck(c->pid)) return 2;
      /* Look again when the rest of its CPU time could have been used, or
       * sooner for stuck(). */
      deadline = now + ((uint64_t)(cpu_limit - used) < STUCK_LOOK_US ? (uint64_t)(cpu_limit - used) : STUCK_LOOK_US);
      if (deadline > wall_end) deadline = wall_end;
    }
    wait_ms = (int)((deadline - now + 999u) / 1000u); /* microseconds, rounded up to milliseconds */
    if (c->pidfd >= 0) {
      i_pid = nfds;
      fds[nfds].fd = c->pidfd, fds[nfds].events = POLLIN, fds[nfds].revents = 0, ++nfds;
    } else if (waitpid(c->pid, status, WNOHANG) == c->pid) {
      c->pid = -c->pid; /* reaped */
      return 0;
    } else if (wait_ms > 1) {
      wait_ms = 1; /* no pidfd: look at the child every millisecond (ours) */
    }
    if (c->done >= 0 && open_done) {
      i_done = nfds;
      fds[nfds].fd = c->done, fds[nfds].events = POLLIN, fds[nfds].revents = 0, ++nfds;
    }
    if (open_out) {
      i_out = nfds;
      fds[nfds].fd = c->out, fds[nfds].events = POLLIN, fds[nfds].revents = 0, ++nfds;
    }
    if (!s->cut) {
      i_ctl = nfds;
      fds[nfds].fd = s->ctl, fds[nfds].events = POLLIN, fds[nfds].revents = 0, ++nfds;
    }
    if (poll(fds, (nfds_t)nfds, wait_ms) < 0 && errno != EINTR) return 0;
    /* The end of the test before its output: a persistent child may go on
     * to print the next test's (DONE_WAIT says when this one's is not all
     * read), and one read at a time, so that no read takes in bytes
     * written after a `done` not looked at yet. */
    if (i_done >= 0 && (fds[i_done].revents & (POLLIN | POLLHUP))) {
      if (read_all(c->done, done_rc, sizeof *done_rc) == 0) {
        if (done_rc->check == c->token) return 0;
        done_rc->rc = -1;
        kill(c->pid, SIGKILL);
        return 3;
      }
      /* The pipe closed: the child is exiting; its status tells. Looked at
       * no more: a closed pipe polls ready at once, and spinning on it kept
       * the exiting child, on the same CPU, from finishing (4 ms, a
       * scheduler tick, per crash). */
      done_rc->rc = -1;
      open_done = 0;
    }
    if (i_out >= 0 && (fds[i_out].revents & (POLLIN | POLLHUP))) open_out = pump_output(s, c->out, 1);
    if (i_ctl >= 0 && (fds[i_ctl].revents & (POLLIN | POLLHUP))) {
      /* Only a cut comes while a request runs; anything else, or the pipe
       * closing, ends the request too (the main loop sees the rest). */
      mosaic_request cut;
      s->cut = 1;
      if (read_all(s->ctl, &cut, sizeof cut) != 0 || cut.magic != MOSAIC_PROTOCOL_MAGIC || cut.command != MOSAIC_CMD_CUT)
        s->host_gone = 1;
    }
    if (i_pid >= 0 && (fds[i_pid].revents & POLLIN)) return 0;
  }
}

/* A reply that says nothing yet: outcome OK, no statement. */
static mosaic_reply blank_reply(void) {
  mosaic_reply r;
  memset(&r, 0, sizeof r);
  r.magic = MOSAIC_PROTOCOL_MAGIC;
  r.statement = -1;
  return r;
}

/* Runs the test of slot k of a request whose slots end before `end`. */
static mosaic_reply run_one(server *s, const mosaic_request *req, uint32_t k, uint32_t end) {
  mosaic_trace_header *t = slot_at(s, k);
  child_proc *c = &s->child;
  mosaic_reply reply = blank_reply();
  int status = 0, timed_out = 0, done_rc = -1;
  done_record done;
  const int persistent = (req->flags & MOSAIC_REQ_PERSISTENT) && !(req->flags & MOSAIC_REQ_ISOLATE) &&
                         (s->features & MOSAIC_FEATURE_PERSISTENT);
  const uint32_t serial = s->batch_serial + k; /* the test's, in the child's command (work_collect) */
  uint64_t start;
  int64_t cpu_start = 0;
  /* 1 s when the host sends none, as exec::Limits::timeoutMs (ours). */
  const uint32_t timeout_ms = req->timeout_ms ? req->timeout_ms : 1000u;
  /* A persistent child told to run this test already: its CPU time
   * counts from the end of the one before, by its own clock. */
  const int ahead = c->pid > 0 && c->persistent && persistent && c->queued_end > k && c->last_cpu_us >= 0;
  s->cur = t;
  t->output_len = t->output_dropped = 0;
  start = now_us();
  done.rc = -1;
  if (ready_child(s, req, persistent, k, end, &reply.fresh) != 0) {
    reply.outcome = MOSAIC_OUTCOME_HARNESS_ERROR;
    return reply;
  }
  /* A child that was already running counts its CPU time from here; a
   * fresh one from its fork. The first look is when the limit has passed
   * in wall-clock time (it cannot have passed in CPU time before), or
   * sooner to see whether it is stuck(). */
  if (!reply.fresh) cpu_start = ahead ? c->last_cpu_us : cpu_us(c);
  timed_out = wait_child(s, start, cpu_start, (int64_t)timeout_ms * 1000, start + MOSAIC_WALL_LIMIT_MS(timeout_ms) * 1000u,
                         &status, &done);
  /* The test wrote into the child's pipe to the server: killed, reaped as
   * a timed-out child is, and no outcome of the unit's (a harness error). */
  const int interfered = timed_out == 3;
  if (interfered) timed_out = 1;
  done_rc = done.rc;
  reply.stuck = timed_out == 2;
  {
    /* Read before the child is reaped (a zombie still has its clock); a
     * test that ended well, from the child's own reading. */
    const int64_t cpu = done_rc >= 0 && done.cpu_us >= 0 ? done.cpu_us : cpu_us(c);
    if (cpu >= cpu_start && cpu_start >= 0) reply.cpu_us = (uint32_t)(cpu - cpu_start);
    c->last_cpu_us = done_rc >= 0 ? done.cpu_us : -1;
  }

  if (done_rc >= 0) {
    /* A persistent child finished the test, and is on to the next of its
     * command, or (DONE_WAIT, or none left) waits for one. */
    work_collect(s, k, serial);
    if (done_rc & DONE_WAIT) {
      pump_output(s, c->out, 0);
      c->queued_end = k + 1;
      done_rc &= ~DONE_WAIT;
    }
    if (done_rc & DONE_RECOVERED) {
      reply.signal = done_rc & ~DONE_RECOVERED;
      reply.outcome = reply.signal == SIGABRT ? MOSAIC_OUTCOME_ABORT : MOSAIC_OUTCOME_CRASH;
      reply.recovered = 1;
    } else {
      reply.outcome = done_rc == 0 ? MOSAIC_OUTCOME_OK : MOSAIC_OUTCOME_HARNESS_ERROR;
    }
    reply.duration_us = (uint32_t)(now_us() - start);
    if (++c->tests >= MOSAIC_PERSISTENT_TESTS || mosaic_rt_sandbox_has_strays(&s->box)) {
      /* It may have begun the next test: that one runs again, in the
       * next child, from its slot as the host wrote it. */
      const int ahead = c->queued_end > k + 1;
      if (ahead) s->cur = slot_at(s, k + 1); /* what it printed there is dropped with the slot */
      retire_child(s);
      if (ahead) {
        memcpy(slot_at(s, k + 1), &s->sent[k + 1], sizeof s->sent[k + 1]);
        mosaic_trace_reset(slot_at(s, k + 1));
      }
    }
  } else {
    if (c->pid < 0) c->pid = -c->pid; /* reaped above: end_child must not wait again */
    else if (!timed_out) waitpid(c->pid, &status, 0);
    reply.duration_us = (uint32_t)(now_us() - start);
    {
      int ignored;
      pid_t pid = c->pid;
      /* Its process group, and the cgroup, are killed with it. */
      kill(-pid, SIGKILL);
      if (timed_out) kill(pid, SIGKILL);
      end_child(s, timed_out ? &status : &ignored);
    }
    work_collect(s, k, serial);
    classify(s, status, timed_out, &reply);
    if (interfered) {
      reply.outcome = MOSAIC_OUTCOME_HARNESS_ERROR;
      reply.signal = 0;
    }
  }
  reply.statement = t->current_stmt;
  /* Unless a test of the child's runs now (it cleans between them itself). */
  if (c->pid <= 0 || c->queued_end <= k + 1) mosaic_rt_sandbox_clean_scratch(&s->box);
  return reply;
}

/* Runs the request's tests, slots [first, end), in order into `replies`
 * (one per slot, from replies[0]), until it is cut. */
static void run_batch(server *s, const mosaic_request *req, uint32_t first, uint32_t end, mosaic_reply *replies) {
  const uint64_t start = now_us();
  uint32_t k;
  for (k = first; k < end; ++k) memcpy(&s->sent[k], slot_at(s, k), sizeof s->sent[k]);
  s->batch_serial += MOSAIC_MAX_SLOTS;
  if (s->batch_serial == 0) s->batch_serial = MOSAIC_MAX_SLOTS; /* 0 is no test's (work_state) */
  mosaic_rt_sandbox_set_pids_limit(&s->box, req->max_processes);
  s->cut = 0;
  for (k = first; k < end; ++k) {
    if (k > first && (s->cut || (req->deadline_ms && now_us() - start >= (uint64_t)req->deadline_ms * 1000u))) {
      /* Cut: a child told to run on is stopped before it starts another. */
      if (s->child.queued_end > k) {
        s->cur = slot_at(s, k); /* what it printed of a test not run is not kept */
        retire_child(s);
      }
      for (; k < end; ++k) {
        replies[k - first] = blank_reply();
        replies[k - first].outcome = MOSAIC_OUTCOME_HARNESS_ERROR;
        replies[k - first].not_run = 1;
      }
      break;
    }
    replies[k - first] = run_one(s, req, k, end);
    if (req->slow_ms && replies[k - first].duration_us >= (uint64_t)req->slow_ms * 1000u) s->cut = 1;
  }
  s->child.queued_end = 0; /* it ran what it was told: the next request's first slot needs a command */
}

int mosaic_rt_serve(int shm_fd, int ctl_fd, int status_fd) {
  server s;
  struct stat st;
  mosaic_hello hello;
  mosaic_request req;
  void *mem;
  /* Exit code 2: the server cannot start (no trace it can use, no scratch
   * directory, the host gone before the hello); ours. */
  memset(&s, 0, sizeof s);
  if (getenv(MOSAIC_ENV_BIND_NOW)) { /* the dynamic linker has read it: the tests need not */
    unsetenv("LD_BIND_NOW");
    unsetenv(MOSAIC_ENV_BIND_NOW);
  }
  mosaic_rt_sandbox_init(&s.box);
  s.ctl = ctl_fd;
  s.status = status_fd;
  if (fstat(shm_fd, &st) != 0 || (size_t)st.st_size < sizeof(mosaic_trace_header)) return 2;
  mem = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
  if (mem == MAP_FAILED) return 2;
  s.trace = (mosaic_trace_header *)mem;
  if (s.trace->magic != MOSAIC_TRACE_MAGIC || s.trace->version != MOSAIC_TRACE_VERSION ||
      s.trace->total_size > (uint64_t)st.st_size)
    return 2;
  /* Read once, before any test could write over the header. */
  s.stride = (size_t)MOSAIC_SLOT_STRIDE(s.trace->total_size);
  s.slots = (uint32_t)((uint64_t)st.st_size / s.stride > MOSAIC_MAX_SLOTS ? MOSAIC_MAX_SLOTS : (uint64_t)st.st_size / s.stride);
  if (s.slots == 0) s.slots = 1; /* total_size fits: one slot, however the memory ends */
  s.cur = s.trace;
  s.shm = shm_fd;
  memcpy(&s.layout, s.trace, sizeof s.layout);
  mosaic_rt_use_trace(s.trace);

  signal(SIGPIPE, SIG_IGN);
  signal(SIGABRT, SIG_DFL); /* main.c's guard of static initialisation ends here */
  mosaic_rt_stack_init();
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  /* The server ends with mosaic, whatever ends mosaic (SIGKILL included),
   * and as the first process of its PID namespace takes every test's
   * processes with it. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  s.features |= mosaic_rt_sandbox_unshare_network();
  {
    int fd = pidfd_open_(getpid());
    if (fd >= 0) {
      s.features |= MOSAIC_FEATURE_PIDFD;
      close(fd);
    }
  }
  s.trace->server_id[sizeof s.trace->server_id - 1] = '\0';
  s.features |= mosaic_rt_sandbox_join_cgroup(&s.box, s.trace->server_id);
  s.child.pid = -1;
  s.child.pidfd = s.child.out = s.child.cmd = s.child.done = -1;
  /* A persistent child needs globals it can put back: none per thread, and
   * none holding heap memory after the C++ constructors ran (a constructor
   * that allocates nothing, pugixml's empty node set, is no obstacle). */
  if (!(mosaic_rt_unit_flags() & MOSAIC_UNIT_THREAD_LOCAL) &&
      (!(mosaic_rt_unit_flags() & MOSAIC_UNIT_DYNAMIC_INIT) || !mosaic_rt_globals_hold_heap())) {
    mosaic_rt_snapshot_take();
    s.features |= MOSAIC_FEATURE_PERSISTENT;
  }
  s.devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (getpid() == 1) s.features |= MOSAIC_FEATURE_PID_NAMESPACE;
  /* Work traces only where no test can end the server (its own PID
   * namespace): the host reads what a test that did wrote, in its slot. */
  const char *no_work = getenv(MOSAIC_ENV_NO_WORK_TRACES);
  if ((s.features & MOSAIC_FEATURE_PID_NAMESPACE) && !(no_work && strcmp(no_work, "1") == 0)) {
    void *w = mmap(NULL, WORK_TRACES * (MOSAIC_SLOT_ALIGN + s.stride), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (w != MAP_FAILED) s.work = (char *)w;
  }
  if (no_work) unsetenv(MOSAIC_ENV_NO_WORK_TRACES); /* the tests' environment is the same either way */
  s.features |= choose_fork();
  /* Last: what the server opens for itself is open before the file systems
   * turn read-only. */
  {
    const char *off = getenv(MOSAIC_ENV_NO_FS_SANDBOX);
    if (!off || strcmp(off, "1") != 0) s.features |= mosaic_rt_sandbox_unshare_files();
  }
  {
    /* In the private /tmp the scratch directory has the same name in every
     * run (nothing of a random name reaches a test). */
    const char *dir = getenv(MOSAIC_ENV_SCRATCH);
    if ((!dir || !*dir) && (s.features & MOSAIC_FEATURE_FS_SANDBOX)) dir = "/tmp/mosaic-scratch";
    if (mosaic_rt_sandbox_make_scratch(&s.box, dir, s.trace->server_id) != 0) return 2;
  }

  memset(&hello, 0, sizeof hello);
  hello.magic = MOSAIC_PROTOCOL_MAGIC;
  hello.version = MOSAIC_PROTOCOL_VERSION;
  hello.trace_version = MOSAIC_TRACE_VERSION;
  hello.features = s.features;
  hello.unit_blocks = mosaic_rt_unit_blocks();
  hello.unit_sides = mosaic_rt_unit_sides();
  hello.unit_mutants = mosaic_rt_unit_mutants();
  hello.pid = (int32_t)getpid();
  if (write_all(status_fd, &hello, sizeof hello) != 0) return 2;

  while (!s.host_gone && read_all(ctl_fd, &req, sizeof req) == 0 && req.magic == MOSAIC_PROTOCOL_MAGIC &&
         (req.command == MOSAIC_CMD_RUN || req.command == MOSAIC_CMD_CUT)) {
    static mosaic_reply replies[MOSAIC_MAX_SLOTS];
    const uint32_t n = req.tests ? req.tests : 1;
    if (req.command == MOSAIC_CMD_CUT) continue; /* it came after the replies of the request it meant */
    if (n > MOSAIC_MAX_SLOTS || req.first_slot >= s.slots || n > s.slots - req.first_slot) {
      /* past the memory's slots: the host's mistake, said per test */
      uint32_t k;
      replies[0] = blank_reply();
      replies[0].outcome = MOSAIC_OUTCOME_HARNESS_ERROR;
      for (k = 0; k < n; ++k)
        if (write_all(status_fd, &replies[0], sizeof replies[0]) != 0) break;
      continue;
    }
    run_batch(&s, &req, req.first_slot, req.first_slot + n, replies);
    if (write_all(status_fd, replies, n * sizeof replies[0]) != 0) break;
  }
  retire_child(&s);
  mosaic_rt_sandbox_close(&s.box);
  return 0;
}

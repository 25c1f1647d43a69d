/* The fork server's protocol: the hello, then per request a batch of tests
 * run in order in a child (fresh for each, or a persistent one that runs
 * test after test), each watched for its CPU time, its output captured,
 * and a closed outcome per test as the reply. The children themselves are
 * child.c's, the watch over a running test watch.c's (server.h); their
 * sandbox is set up in sandbox.c. */
#define _GNU_SOURCE
#include "internal.h"
#include "server.h"

#include "mosaic/abi/Harness.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

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
  if (c->pid > 0 && (!persistent || c->persistent != persistent)) mosaic_rt_retire_child(s);
  if (c->pid <= 0) {
    if (mosaic_rt_start_child(s, req, persistent, k) != 0) return -1;
    *fresh = 1;
  }
  if (persistent && c->queued_end <= k) {
    run_command go;
    go.first = k;
    go.count = end - k;
    go.serial = s->batch_serial + k;
    if (go.count > MOSAIC_PERSISTENT_TESTS - c->tests) go.count = MOSAIC_PERSISTENT_TESTS - c->tests;
    if (mosaic_rt_write_all(c->cmd, &go, sizeof go) != 0) { /* it died between tests: a fresh one */
      mosaic_rt_end_child(s, &status);
      if (mosaic_rt_start_child(s, req, 1, k) != 0 || mosaic_rt_write_all(c->cmd, &go, sizeof go) != 0) return -1;
      *fresh = 1;
    }
    c->queued_end = k + go.count;
  }
  return 0;
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
  mosaic_trace_header *t = mosaic_rt_slot_at(s, k);
  child_proc *c = &s->child;
  mosaic_reply reply = blank_reply();
  int status = 0, timed_out = 0, done_rc = -1;
  done_record done;
  const int persistent = (req->flags & MOSAIC_REQ_PERSISTENT) && !(req->flags & MOSAIC_REQ_ISOLATE) &&
                         (s->features & MOSAIC_FEATURE_PERSISTENT);
  const uint32_t serial = s->batch_serial + k; /* the test's, in the child's command (mosaic_rt_work_collect) */
  uint64_t start;
  int64_t cpu_start = 0;
  /* 1 s when the host sends none, as exec::Limits::timeoutMs (ours). */
  const uint32_t timeout_ms = req->timeout_ms ? req->timeout_ms : 1000u;
  /* A persistent child told to run this test already: its CPU time
   * counts from the end of the one before, by its own clock. */
  const int ahead = c->pid > 0 && c->persistent && persistent && c->queued_end > k && c->last_cpu_us >= 0;
  s->cur = t;
  t->output_len = t->output_dropped = 0;
  start = mosaic_rt_now_us();
  done.rc = -1;
  if (ready_child(s, req, persistent, k, end, &reply.fresh) != 0) {
    reply.outcome = MOSAIC_OUTCOME_HARNESS_ERROR;
    return reply;
  }
  /* A child that was already running counts its CPU time from here; a
   * fresh one from its fork. The first look is when the limit has passed
   * in wall-clock time (it cannot have passed in CPU time before), or
   * sooner to see whether it is stuck(). */
  if (!reply.fresh) cpu_start = ahead ? c->last_cpu_us : mosaic_rt_cpu_us(c);
  timed_out = mosaic_rt_wait_child(s, start, cpu_start, (int64_t)timeout_ms * 1000, start + MOSAIC_WALL_LIMIT_MS(timeout_ms) * 1000u,
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
    const int64_t cpu = done_rc >= 0 && done.cpu_us >= 0 ? done.cpu_us : mosaic_rt_cpu_us(c);
    if (cpu >= cpu_start && cpu_start >= 0) reply.cpu_us = (uint32_t)(cpu - cpu_start);
    c->last_cpu_us = done_rc >= 0 ? done.cpu_us : -1;
  }

  if (done_rc >= 0) {
    /* A persistent child finished the test, and is on to the next of its
     * command, or (DONE_WAIT, or none left) waits for one. */
    mosaic_rt_work_collect(s, k, serial);
    if (done_rc & DONE_WAIT) {
      mosaic_rt_pump_output(s, c->out, 0);
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
    reply.duration_us = (uint32_t)(mosaic_rt_now_us() - start);
    if (++c->tests >= MOSAIC_PERSISTENT_TESTS || mosaic_rt_sandbox_has_strays(&s->box)) {
      /* It may have begun the next test: that one runs again, in the
       * next child, from its slot as the host wrote it. */
      const int ahead = c->queued_end > k + 1;
      if (ahead) s->cur = mosaic_rt_slot_at(s, k + 1); /* what it printed there is dropped with the slot */
      mosaic_rt_retire_child(s);
      if (ahead) {
        memcpy(mosaic_rt_slot_at(s, k + 1), &s->sent[k + 1], sizeof s->sent[k + 1]);
        mosaic_trace_reset(mosaic_rt_slot_at(s, k + 1));
      }
    }
  } else {
    if (c->pid < 0) c->pid = -c->pid; /* reaped above: end_child must not wait again */
    else if (!timed_out) waitpid(c->pid, &status, 0);
    reply.duration_us = (uint32_t)(mosaic_rt_now_us() - start);
    {
      int ignored;
      pid_t pid = c->pid;
      /* Its process group, and the cgroup, are killed with it. */
      kill(-pid, SIGKILL);
      if (timed_out) kill(pid, SIGKILL);
      mosaic_rt_end_child(s, timed_out ? &status : &ignored);
    }
    mosaic_rt_work_collect(s, k, serial);
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
  const uint64_t start = mosaic_rt_now_us();
  uint32_t k;
  for (k = first; k < end; ++k) memcpy(&s->sent[k], mosaic_rt_slot_at(s, k), sizeof s->sent[k]);
  s->batch_serial += MOSAIC_MAX_SLOTS;
  if (s->batch_serial == 0) s->batch_serial = MOSAIC_MAX_SLOTS; /* 0 is no test's (work_state) */
  mosaic_rt_sandbox_set_pids_limit(&s->box, req->max_processes);
  s->cut = 0;
  for (k = first; k < end; ++k) {
    if (k > first && (s->cut || (req->deadline_ms && mosaic_rt_now_us() - start >= (uint64_t)req->deadline_ms * 1000u))) {
      /* Cut: a child told to run on is stopped before it starts another. */
      if (s->child.queued_end > k) {
        s->cur = mosaic_rt_slot_at(s, k); /* what it printed of a test not run is not kept */
        mosaic_rt_retire_child(s);
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
    int fd = mosaic_rt_pidfd_open(getpid());
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
  s.features |= mosaic_rt_choose_fork();
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
  if (mosaic_rt_write_all(status_fd, &hello, sizeof hello) != 0) return 2;

  while (!s.host_gone && mosaic_rt_read_all(ctl_fd, &req, sizeof req) == 0 && req.magic == MOSAIC_PROTOCOL_MAGIC &&
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
        if (mosaic_rt_write_all(status_fd, &replies[0], sizeof replies[0]) != 0) break;
      continue;
    }
    run_batch(&s, &req, req.first_slot, req.first_slot + n, replies);
    if (mosaic_rt_write_all(status_fd, replies, n * sizeof replies[0]) != 0) break;
  }
  mosaic_rt_retire_child(&s);
  mosaic_rt_sandbox_close(&s.box);
  return 0;
}


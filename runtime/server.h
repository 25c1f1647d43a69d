/* The fork server's own declarations (private to the runtime): the
 * server's state, the records a persistent child and the server exchange,
 * and the functions of its three files: server.c (the protocol: requests,
 * tests, replies), child.c (the children: forking, the child's loop, the
 * work traces), watch.c (a running test watched: its time, its output,
 * whether it is stuck). Every symbol is prefixed mosaic_rt_: the runtime is
 * linked into the unit's own harness. */
#ifndef MOSAIC_RUNTIME_SERVER_H
#define MOSAIC_RUNTIME_SERVER_H

#include "sandbox.h"

#include "mosaic/abi/Protocol.h"
#include "mosaic/abi/Trace.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
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

/* Reads or writes all `len` bytes, across EINTR; -1 when the pipe closed
 * or failed first. */
static inline int mosaic_rt_write_all(int fd, const void *buf, size_t len) {
  const char *p = (const char *)buf;
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    p += n, len -= (size_t)n;
  }
  return 0;
}

static inline int mosaic_rt_read_all(int fd, void *buf, size_t len) {
  char *p = (char *)buf;
  while (len > 0) {
    ssize_t n = read(fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    p += n, len -= (size_t)n;
  }
  return 0;
}

static inline mosaic_trace_header *mosaic_rt_slot_at(const server *s, uint32_t i) {
  return (mosaic_trace_header *)((char *)s->trace + (size_t)i * s->stride);
}

static inline uint64_t mosaic_rt_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static inline int mosaic_rt_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

/* --- child.c */

/* Decides how children are forked (fork or _Fork), once, before the file
 * systems turn read-only: MOSAIC_FEATURE_FORK_NO_HANDLERS or 0. */
uint32_t mosaic_rt_choose_fork(void);
/* Starts a child (persistent, or for the test of slot `first`); -1 when
 * it cannot. */
int mosaic_rt_start_child(server *s, const mosaic_request *req, int persistent, uint32_t first);
/* Kills the child and everything it started; reaps them. */
void mosaic_rt_end_child(server *s, int *status);
/* Ends a persistent child between tests. */
void mosaic_rt_retire_child(server *s);
/* In the server, once the test of slot k (serial `serial`) ended or its
 * child is gone: what it wrote in its work trace, into the slot. */
void mosaic_rt_work_collect(server *s, uint32_t k, uint32_t serial);

/* --- watch.c */

/* CPU time the child has used, in microseconds; -1 when it cannot be read. */
int64_t mosaic_rt_cpu_us(const child_proc *c);
/* Appends what the child printed to the current slot's output area
 * (bounded): all there is, or (`once`) what one read returns. 0 when the
 * pipe closed, 1 when more may come. */
int mosaic_rt_pump_output(server *s, int fd, int once);
/* Waits for the running test's end, the child's, or its time's (1: timed
 * out, 2: stuck, 3: the test wrote into the done pipe, 0: ended). */
int mosaic_rt_wait_child(server *s, uint64_t start, int64_t cpu_start, int64_t cpu_limit, uint64_t wall_end, int *status,
               done_record *done_rc);

#endif

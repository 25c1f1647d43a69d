/* The fork-server protocol between mosaic (the host) and a harness: the one
 * definition used by both sides. Plain C.
 *
 * The host starts the harness with three inherited descriptors named in the
 * environment: the trace memory (MOSAIC_SHM_FD), a control pipe the server
 * reads (MOSAIC_CTL_FD) and a status pipe it writes (MOSAIC_STATUS_FD).
 * Without them the harness runs the test in the file named by argv[1] once,
 * in-process, and exits: plain execution, for reproducing a test by hand.
 *
 * 1. The server writes a mosaic_hello.
 * 2. For each request the host writes the inputs of its `tests` tests
 *    into `tests` trace slots from `first_slot` on (MOSAIC_SLOT_STRIDE
 *    apart), then a mosaic_request; the server has a child run them in order (a fresh
 *    fork each, or a persistent child: see MOSAIC_REQ_PERSISTENT), waits
 *    for each (killing the child's processes at its timeout, and going on
 *    with a new child from the next test) and writes `tests` mosaic_reply
 *    records at once: one round trip for a batch of tests. It starts no
 *    test after the first once the request's deadline_ms have passed,
 *    after a test that took slow_ms or more, or
 *    once the host has sent MOSAIC_CMD_CUT (at any time: one that comes
 *    after the replies is ignored); the tests it did not start are
 *    replied with not_run.
 * 3. MOSAIC_CMD_QUIT, or the control pipe closing, ends the server. */
#ifndef MOSAIC_ABI_PROTOCOL_H
#define MOSAIC_ABI_PROTOCOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MOSAIC_PROTOCOL_MAGIC 0x4d4f5350u /* "MOSP" */
#define MOSAIC_PROTOCOL_VERSION 7u /* 2: the file-system sandbox, the server's PID namespace, server_id; 3: unit_mutants; 4: reply.stuck, cpu_us; 5: reply.recovered; 6: request.tests, trace slots; 7: request.first_slot */

#define MOSAIC_ENV_SHM_FD "MOSAIC_SHM_FD"
#define MOSAIC_ENV_CTL_FD "MOSAIC_CTL_FD"
#define MOSAIC_ENV_STATUS_FD "MOSAIC_STATUS_FD"
#define MOSAIC_ENV_SCRATCH "MOSAIC_SCRATCH" /* the children's working directory (created if missing) */
#define MOSAIC_ENV_NO_FS_SANDBOX "MOSAIC_NO_FS_SANDBOX" /* "1": no mount namespace, as where the machine refuses one */
/* "1": the host set LD_BIND_NOW for the server (every library's symbols
 * bound once as it starts, not again in each child it forks, where lazy
 * binding's page faults were 5% of pugixml.cpp's: perf); the server takes
 * both out of the environment its tests see. */
#define MOSAIC_ENV_BIND_NOW "MOSAIC_BIND_NOW"
/* "1": persistent children write their tests' traces straight into the
 * slots, as before the work traces (runtime/child.c); for measuring what
 * those save (bench/results/speed-2026-12-02), read from the environment
 * the host gives the server. */
#define MOSAIC_ENV_NO_WORK_TRACES "MOSAIC_NO_WORK_TRACES"
/* "1": a sanitized harness's server makes its children with fork(), its
 * fork handlers run, as before _Fork (runtime/child.c: fork_child); for
 * measuring what that saves (bench/results/speed-2026-12-02b), read from
 * the environment the host gives the server. */
#define MOSAIC_ENV_FORK_HANDLERS "MOSAIC_FORK_HANDLERS"
/* The server's name among the host's (the host's PID and a count) is in
 * the trace header (server_id): its pids cgroup is mosaic-<id>, which the
 * host removes once the server is gone, and at start-up when the host that
 * named it is dead (a mosaic killed with SIGKILL). */

/* Sandbox features the server could set up (mosaic_hello.features). */
/* The server is the first process of a PID namespace of its own (the host
 * started it there): a test cannot signal it (kill(getppid(), SIGTERM) is
 * ignored), what a test starts dies with it, and PIDs are the same in
 * every run. */
#define MOSAIC_FEATURE_PID_NAMESPACE 1u
#define MOSAIC_FEATURE_NET_NAMESPACE 2u /* no network: a fresh network namespace */
#define MOSAIC_FEATURE_PIDFD 4u         /* timeouts through pidfd polling */
#define MOSAIC_FEATURE_CGROUP_PIDS 8u   /* a cgroup pids limit contains the child's processes */
#define MOSAIC_FEATURE_PERSISTENT 16u   /* the unit's globals can be restored: a child may run many tests */
/* Every file system read-only to the tests but the scratch directory, which
 * lives in a private /tmp (tmpfs, with a private /dev/shm): a test writes
 * nothing outside it (a mount namespace of the server's own). */
#define MOSAIC_FEATURE_FS_SANDBOX 32u
/* A sanitized harness's children are made without the fork handlers
 * (glibc's _Fork; runtime/child.c: fork_child). */
#define MOSAIC_FEATURE_FORK_NO_HANDLERS 64u

typedef struct mosaic_hello {
  uint32_t magic;
  uint32_t version;
  uint32_t trace_version;
  uint32_t features;
  uint32_t unit_blocks; /* what the instrumented unit has */
  uint32_t unit_sides;
  int32_t pid;
  uint32_t unit_mutants;
} mosaic_hello;

/* A test ends as a timeout when its process has used timeout_ms of CPU
 * time, or when MOSAIC_WALL_LIMIT_MS(timeout_ms) of wall-clock time have
 * passed (it sleeps, blocks, or waits for a process it started). CPU time
 * keeps the outcome independent of how busy the machine is, so the same
 * seed gives the same suite under load; the wall-clock bound (ours: ten
 * times the limit, at least one second) leaves a test ten times the CPU
 * share it has on an idle machine before it is called hung. One that can
 * never wake (its only thread waits on a private futex with no timeout, as
 * after a heap corruption) is a timeout as soon as the server sees it
 * (runtime/watch.c: stuck). */
#define MOSAIC_WALL_LIMIT_MS(timeout_ms) \
  ((uint64_t)(timeout_ms) * 10u > 1000u ? (uint64_t)(timeout_ms) * 10u : (uint64_t)1000u)

enum mosaic_command {
  MOSAIC_CMD_RUN = 1,
  MOSAIC_CMD_QUIT = 2,
  MOSAIC_CMD_CUT = 3, /* start no more tests of the running request */
};

typedef struct mosaic_request {
  uint32_t magic;
  uint32_t command;        /* enum mosaic_command */
  uint32_t timeout_ms;     /* CPU-time limit of the test (MOSAIC_WALL_LIMIT_MS) */
  uint32_t memory_mb;      /* RLIMIT_AS of the child; 0 = none */
  uint32_t file_size_mb;   /* RLIMIT_FSIZE of the child; 0 = none */
  uint32_t max_processes;  /* processes the child may create (cgroup / rlimit) */
  uint32_t flags;          /* MOSAIC_REQ_* */
  uint32_t tests;          /* tests in slots first_slot .. first_slot + tests - 1 (0 is taken as 1), within the trace's slots */
  uint32_t deadline_ms;    /* wall-clock time from the request after which no test but the first starts; 0 = none */
  uint32_t slow_ms;        /* no test starts after one that took this much wall-clock time; 0 = none */
  uint32_t first_slot;     /* the slot of the first test: the host reads the last request's slots while this one runs in others */
  uint32_t reserved;
} mosaic_request;

/* The trace memory holds slots, one whole trace each (abi/Trace.h), at a
 * stride of its first header's total_size rounded up to MOSAIC_SLOT_ALIGN;
 * the host decides how many (the memory's size over the stride). A server
 * takes at most MOSAIC_MAX_SLOTS of them (ours: 64 tests of a few
 * microseconds each already make the round trip's cost negligible). */
#define MOSAIC_SLOT_ALIGN 4096u
#define MOSAIC_MAX_SLOTS 64u
#define MOSAIC_SLOT_STRIDE(total_size) \
  (((uint64_t)(total_size) + MOSAIC_SLOT_ALIGN - 1u) / MOSAIC_SLOT_ALIGN * MOSAIC_SLOT_ALIGN)

/* Request flags. A persistent child runs test after test, the unit's
 * globals restored before each (only when the server offers
 * MOSAIC_FEATURE_PERSISTENT); it is replaced when a test ends it, and
 * after MOSAIC_PERSISTENT_TESTS tests. Without the flag, or with ISOLATE,
 * the test runs in a fresh child of its own. */
#define MOSAIC_REQ_PERSISTENT 1u
#define MOSAIC_REQ_ISOLATE 2u
#define MOSAIC_PERSISTENT_TESTS 1000u /* bounds what leaks from test to test (memory, descriptors); ours */

/* The closed set of outcomes of one test. */
enum mosaic_outcome {
  MOSAIC_OUTCOME_OK = 0,         /* ran to its end (statements may have thrown: see the trace) */
  MOSAIC_OUTCOME_CRASH = 1,      /* killed by a signal (signal) */
  MOSAIC_OUTCOME_ABORT = 2,      /* abort() or SIGABRT */
  MOSAIC_OUTCOME_TIMEOUT = 3,    /* killed at the timeout */
  MOSAIC_OUTCOME_EXIT = 4,       /* the unit called exit() (exit_code) */
  MOSAIC_OUTCOME_SANITIZER = 5,  /* a sanitizer reported an error (report in the output) */
  MOSAIC_OUTCOME_OUT_OF_MEMORY = 6, /* std::bad_alloc, or killed at the memory limit */
  MOSAIC_OUTCOME_HARNESS_ERROR = 7  /* the harness could not run the input */
};

typedef struct mosaic_reply {
  uint32_t magic;
  uint32_t outcome;     /* enum mosaic_outcome */
  int32_t signal;       /* CRASH, ABORT: the signal */
  int32_t exit_code;    /* EXIT: the code */
  int32_t statement;    /* the statement running when it ended; -1 if none */
  uint32_t duration_us;
  uint32_t fresh;       /* 1 when the test ran in a newly forked child */
  uint32_t stuck;       /* TIMEOUT: 1 when the child could never wake (MOSAIC_WALL_LIMIT_MS) */
  uint32_t cpu_us;      /* CPU time the test's process used; 0 when it could not be read */
  uint32_t recovered;   /* CRASH: 1 when a persistent child went on past the fault (a null
                           pointer or a division by zero in the program's own code) */
  uint32_t not_run;     /* 1 when the test was not started: the request was cut (deadline_ms, MOSAIC_CMD_CUT) */
  uint32_t reserved;
} mosaic_reply;

/* Exit codes the harness child uses among themselves (never the unit's). */
#define MOSAIC_EXIT_FINISHED 0       /* with trace->finished = 1 */
#define MOSAIC_EXIT_SANITIZER 86     /* ASAN_OPTIONS / UBSAN_OPTIONS exitcode */
#define MOSAIC_EXIT_HARNESS_ERROR 87 /* bad input */
#define MOSAIC_EXIT_OUT_OF_MEMORY 88 /* std::bad_alloc escaped */

#ifdef __cplusplus
}
#endif

#endif

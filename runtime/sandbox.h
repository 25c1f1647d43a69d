/* The fork server's sandbox (private to the runtime; sandbox.c): a network
 * namespace, a mount namespace whose file systems are read-only but a
 * private /tmp, a pids cgroup, resource limits and a scratch directory for
 * the children; the snapshot of the unit's globals and of the process state
 * (working directory, environment, umask, descriptors, signal mask) a
 * persistent child puts back before each test. Every symbol is prefixed
 * mosaic_rt_: the runtime is linked into the unit's own harness. */
#ifndef MOSAIC_RUNTIME_SANDBOX_H
#define MOSAIC_RUNTIME_SANDBOX_H

#include "mosaic/abi/Protocol.h"

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

typedef struct mosaic_sandbox {
  char scratch[4096];            /* the children's working directory (PATH_MAX) */
  int scratch_made;              /* made here (mkdtemp): removed at the end */
  struct timespec scratch_mtime; /* its modification time after the last clean-up */
  char cgroup[256];              /* the pids cgroup directory, or "" (ours: room for
                                  * /sys/fs/cgroup/pids/mosaic-ID) */
  /* The cgroup's files, opened before the file systems became read-only:
   * the server writes and reads them through these (and never through
   * stdio, whose buffers would leave PIDs in the heap the children inherit,
   * for a test that reads past its own memory to meet). */
  int pids_max_fd, pids_current_fd, procs_fd;
  uint32_t pids_max;             /* the limit written there last */
} mosaic_sandbox;

/* --- In the server, once, in this order. */

/* Descriptors -1: call before anything else. */
void mosaic_rt_sandbox_init(mosaic_sandbox *box);

/* A network namespace of its own for the server and so its children (no
 * network): MOSAIC_FEATURE_NET_NAMESPACE, or 0 where it cannot have one. */
uint32_t mosaic_rt_sandbox_unshare_network(void);

/* A pids cgroup named mosaic-`id` (v1 `pids` hierarchy, or v2 when the
 * controller is enabled) the server joins, so that its children are born
 * inside: MOSAIC_FEATURE_CGROUP_PIDS, or 0 and box->cgroup "" where there is
 * none. `id` NULL or empty: the server's PID. */
uint32_t mosaic_rt_sandbox_join_cgroup(mosaic_sandbox *box, const char *id);

/* A mount namespace of the server's own (MOSAIC_FEATURE_FS_SANDBOX): every
 * file system read-only, a private tmpfs on /tmp and /dev/shm, TMPDIR=/tmp,
 * and /proc remounted when the server is the first process of its PID
 * namespace. 0, with nothing changed, where the machine refuses. */
uint32_t mosaic_rt_sandbox_unshare_files(void);

/* The children's working directory: `dir` when given (made if missing),
 * else TMPDIR/mosaic-scratch-<server_id>, the name the host cleans up
 * after a killed server. 0, or -1 when none could be made. */
int mosaic_rt_sandbox_make_scratch(mosaic_sandbox *box, const char *dir, const char *server_id);

/* Saves the unit's globals as they are now (after static initialisation). */
void mosaic_rt_snapshot_take(void);

/* Whether a global of the unit holds a pointer into the heap now (a word
 * whose value lies in a writable anonymous mapping outside every loaded
 * image): a C++ unit's dynamic initialiser allocated what the global owns,
 * and putting the global's bytes back in a persistent child would not put
 * back what a test freed or changed there. 1 also when it cannot tell. */
int mosaic_rt_globals_hold_heap(void);

/* After the last test (no child left): empties the scratch directory,
 * removes it if made here, kills what is left in the cgroup. (The host
 * removes the cgroup once the server is gone: it cannot remove itself.) */
void mosaic_rt_sandbox_close(mosaic_sandbox *box);

/* --- In the server, per test. */

/* Bounds the processes in the cgroup: `max_processes` a test may have (0:
 * the host's default), plus the server and a persistent child. */
void mosaic_rt_sandbox_set_pids_limit(mosaic_sandbox *box, uint32_t max_processes);

/* Kills every process in the cgroup but the server and `keep` (its
 * persistent child; -1: none): grandchildren that left the process group
 * with setsid. */
void mosaic_rt_sandbox_kill_strays(const mosaic_sandbox *box, pid_t keep);

/* Whether a test left processes behind in the cgroup (beyond the server
 * and its child). */
int mosaic_rt_sandbox_has_strays(const mosaic_sandbox *box);

/* Once the child is gone and its strays killed: reaps them (the server is
 * their subreaper) until the cgroup holds the server alone, for 100 ms at
 * most. A killed process is counted in the cgroup until it is reaped: left
 * to a later reaping, it made the next tests' children look as if they
 * had left processes behind, and they were replaced one after the other. */
void mosaic_rt_sandbox_reap_strays(const mosaic_sandbox *box);

/* Empties the scratch directory when a test wrote into it. */
void mosaic_rt_sandbox_clean_scratch(mosaic_sandbox *box);

/* --- In a child. */

/* Enters the scratch directory and sets the request's limits (no core
 * files; RLIMIT_AS, RLIMIT_FSIZE and RLIMIT_NPROC when given). 0, or -1
 * when the scratch directory cannot be entered. */
int mosaic_rt_sandbox_enter(const mosaic_sandbox *box, const mosaic_request *req);

/* Puts the unit's globals back as mosaic_rt_snapshot_take saved them. */
void mosaic_rt_snapshot_restore(void);

/* A persistent child's process state as it starts (working directory is
 * the scratch directory; the environment, umask and signal mask as
 * inherited; descriptors 0 to `keep_fds` - 1 open, and `saved_out` and
 * `saved_in` copies of its stdout and stdin), put back before each test:
 * a test that calls chdir("/"), setenv, umask, dup2 over stdout, opens
 * files or blocks signals leaves nothing to the next. */
void mosaic_rt_child_state_save(int saved_out, int saved_in, int keep_fds);
void mosaic_rt_child_state_restore(const mosaic_sandbox *box);

#endif

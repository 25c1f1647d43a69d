/* The fork server's sandbox: network and mount namespaces, a pids cgroup,
 * resource limits and a scratch directory for the children, and the
 * snapshots of the unit's globals and of the process state a persistent
 * child restores (sandbox.h). */
#define _GNU_SOURCE
#include "sandbox.h"

#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <link.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

uint32_t mosaic_rt_sandbox_unshare_network(void) {
  return unshare(CLONE_NEWNET) == 0 ? MOSAIC_FEATURE_NET_NAMESPACE : 0u;
}

void mosaic_rt_sandbox_init(mosaic_sandbox *box) {
  memset(box, 0, sizeof *box);
  box->pids_max_fd = box->pids_current_fd = box->procs_fd = -1;
}

/* Opens `name` in the cgroup directory. */
static int open_cgroup_file(const mosaic_sandbox *box, const char *name, int flags) {
  char path[512]; /* the cgroup's path (256) and a file name */
  snprintf(path, sizeof path, "%s/%s", box->cgroup, name);
  return open(path, flags | O_CLOEXEC);
}

/* Forks past the limit fail, and every process of a test can be found and
 * killed. Root is not bound by RLIMIT_NPROC, so this is what contains a
 * fork loop there. */
uint32_t mosaic_rt_sandbox_join_cgroup(mosaic_sandbox *box, const char *id) {
  static const char *roots[] = {"/sys/fs/cgroup/pids", "/sys/fs/cgroup"};
  char own[32]; /* a pid in decimal */
  size_t i;
  snprintf(own, sizeof own, "%d", (int)getpid());
  if (!id || !*id) id = own;
  for (i = 0; i < sizeof roots / sizeof roots[0]; ++i) {
    int procs;
    snprintf(box->cgroup, sizeof box->cgroup, "%s/mosaic-%s", roots[i], id);
    if (mkdir(box->cgroup, 0755) != 0 && errno != EEXIST) continue;
    box->pids_max_fd = open_cgroup_file(box, "pids.max", O_WRONLY);
    procs = open_cgroup_file(box, "cgroup.procs", O_WRONLY);
    if (box->pids_max_fd >= 0 && procs >= 0) {
      /* The server joins it: its children are born inside. "0": the writer. */
      if (write(procs, "0", 1) < 0) { /* best effort: then the limit still counts the children */
      }
      close(procs);
      box->pids_current_fd = open_cgroup_file(box, "pids.current", O_RDONLY);
      box->procs_fd = open_cgroup_file(box, "cgroup.procs", O_RDONLY);
      return MOSAIC_FEATURE_CGROUP_PIDS;
    }
    if (procs >= 0) close(procs);
    if (box->pids_max_fd >= 0) close(box->pids_max_fd);
    box->pids_max_fd = -1;
    rmdir(box->cgroup);
  }
  box->cgroup[0] = '\0';
  return 0u;
}

void mosaic_rt_sandbox_set_pids_limit(mosaic_sandbox *box, uint32_t max) {
  char value[32]; /* a count in decimal */
  int n;
  /* 64 by default, as exec::Limits::maxProcesses; the server and a
   * persistent child count too. */
  const uint32_t limit = (max ? max : 64u) + 2u;
  if (box->pids_max_fd < 0 || limit == box->pids_max) return;
  n = snprintf(value, sizeof value, "%u", limit);
  if (pwrite(box->pids_max_fd, value, (size_t)n, 0) == n) box->pids_max = limit;
}

/* The PIDs in the cgroup (as this process's PID namespace sees them) into
 * `pids`, at most `room`; how many. Read with read(2) into the stack. */
static size_t cgroup_pids(const mosaic_sandbox *box, pid_t *pids, size_t room) {
  char buf[8192]; /* enough for the 66 processes a test may have and more (ours) */
  ssize_t len;
  size_t n = 0;
  char *p, *end;
  if (box->procs_fd < 0) return 0;
  len = pread(box->procs_fd, buf, sizeof buf - 1, 0);
  if (len <= 0) return 0;
  buf[len] = '\0';
  for (p = buf; n < room; p = end) {
    const long pid = strtol(p, &end, 10);
    if (end == p) break;
    if (pid > 0) pids[n++] = (pid_t)pid;
  }
  return n;
}

void mosaic_rt_sandbox_kill_strays(const mosaic_sandbox *box, pid_t keep) {
  pid_t pids[1024]; /* ours: far more than the pids limit lets live */
  const size_t n = cgroup_pids(box, pids, sizeof pids / sizeof pids[0]);
  size_t i;
  for (i = 0; i < n; ++i)
    if (pids[i] != getpid() && pids[i] != keep) kill(pids[i], SIGKILL);
}

/* Processes in the cgroup; -1 when it cannot be read. */
static int cgroup_count(const mosaic_sandbox *box) {
  char buf[32]; /* a count in decimal */
  ssize_t n;
  if (box->pids_current_fd < 0) return -1;
  n = pread(box->pids_current_fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return -1;
  buf[n] = 0;
  return atoi(buf);
}

int mosaic_rt_sandbox_has_strays(const mosaic_sandbox *box) {
  return cgroup_count(box) > 2; /* the server and its child */
}

void mosaic_rt_sandbox_reap_strays(const mosaic_sandbox *box) {
  int i;
  /* 1,000 looks 100 us apart (ours: a killed process is gone in
   * microseconds; one in an uninterruptible sleep is left for later). */
  for (i = 0; i < 1000; ++i) {
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
    if (cgroup_count(box) <= 1) return;
    usleep(100);
  }
}

/* Makes every mount of this (new) namespace read-only, then mounts what
 * the tests may write: a tmpfs on /tmp and on /dev/shm (64 MiB of files
 * each at most: ours, many times the 1 MiB a file may have,
 * exec::Limits::fileSizeMb). */
uint32_t mosaic_rt_sandbox_unshare_files(void) {
  struct mount_attr readonly;
  if (unshare(CLONE_NEWNS) != 0) return 0u;
  /* From here on nothing mounted here reaches the host's namespace. */
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return 0u;
  memset(&readonly, 0, sizeof readonly);
  readonly.attr_set = MOUNT_ATTR_RDONLY;
  if (mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &readonly, sizeof readonly) != 0) return 0u;
  if (mount("mosaic-tmp", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=64m,mode=1777") != 0) return 0u;
  (void)mount("mosaic-shm", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=64m,mode=1777");
  /* A /proc of the server's PID namespace, so that /proc/self and getpid()
   * agree in a test. */
  if (getpid() == 1) (void)mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
  setenv("TMPDIR", "/tmp", 1);
  return MOSAIC_FEATURE_FS_SANDBOX;
}

int mosaic_rt_sandbox_make_scratch(mosaic_sandbox *box, const char *dir, const char *server_id) {
  if (dir && *dir) {
    snprintf(box->scratch, sizeof box->scratch, "%s", dir);
  } else {
    /* The name the host removes after the server, and the next host after
     * a dead one (support/Cgroup.h: mosaic-scratch-<server id>). */
    const char *tmp = getenv("TMPDIR");
    snprintf(box->scratch, sizeof box->scratch, "%s/mosaic-scratch-%s", tmp && *tmp ? tmp : "/tmp", server_id);
  }
  if (mkdir(box->scratch, 0700) == 0) box->scratch_made = 1;
  else if (errno != EEXIST) return -1;
  return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag;
  if (ftw->level == 0) return 0; /* keep the scratch directory itself */
  (void)remove(path);             /* what cannot go stays: the walk goes on */
  return 0;
}

void mosaic_rt_sandbox_clean_scratch(mosaic_sandbox *box) {
  DIR *d;
  struct dirent *e;
  struct stat st;
  int empty = 1;
  /* Untouched since the last look: nothing to do (one stat instead of a listing). */
  if (stat(box->scratch, &st) == 0 && st.st_mtim.tv_sec == box->scratch_mtime.tv_sec &&
      st.st_mtim.tv_nsec == box->scratch_mtime.tv_nsec)
    return;
  d = opendir(box->scratch);
  if (!d) return;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
      empty = 0;
      break;
    }
  closedir(d);
  if (!empty) {
    chmod(box->scratch, 0700);
    /* 16 directories open at once at most (ours; nftw's bound, not a depth limit). */
    nftw(box->scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  }
  if (stat(box->scratch, &st) == 0) box->scratch_mtime = st.st_mtim;
}

void mosaic_rt_sandbox_close(mosaic_sandbox *box) {
  box->scratch_mtime.tv_sec = -1; /* no stat matches: the directory is looked at */
  mosaic_rt_sandbox_clean_scratch(box);
  if (box->scratch_made) rmdir(box->scratch);
  if (box->cgroup[0]) mosaic_rt_sandbox_kill_strays(box, -1);
}

static void set_limit(int resource, uint64_t value) {
  struct rlimit r;
  r.rlim_cur = r.rlim_max = (rlim_t)value;
  setrlimit(resource, &r);
}

int mosaic_rt_sandbox_enter(const mosaic_sandbox *box, const mosaic_request *req) {
  if (chdir(box->scratch) != 0) return -1;
  set_limit(RLIMIT_CORE, 0);
  if (req->memory_mb) set_limit(RLIMIT_AS, (uint64_t)req->memory_mb << 20);          /* MiB */
  if (req->file_size_mb) set_limit(RLIMIT_FSIZE, (uint64_t)req->file_size_mb << 20); /* MiB */
  if (req->max_processes) set_limit(RLIMIT_NPROC, req->max_processes);
  return 0;
}

/* ---- globals that hold heap memory ---------------------------------- */

/* Writable anonymous mappings outside every loaded image (its .bss
 * included): the heap, malloc's own mappings. Ours: 512 ranges, more than a
 * server maps before its first test; past them the answer is "holds". */
#define HEAP_RANGES 512
static uintptr_t image_lo[HEAP_RANGES], image_hi[HEAP_RANGES];
static int images;

static int note_image(struct dl_phdr_info *info, size_t size, void *data) {
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  int i;
  (void)size, (void)data;
  for (i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD) continue;
    if (info->dlpi_addr + ph->p_vaddr < lo) lo = info->dlpi_addr + ph->p_vaddr;
    if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > hi) hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
  }
  if (lo < hi && images < HEAP_RANGES) image_lo[images] = lo, image_hi[images++] = hi;
  return 0;
}

/* Whether a mapping overlaps a loaded image: the anonymous part of its
 * .bss, page-rounded, does; the heap after it (adjacent when the layout is
 * not randomised) does not. */
static int in_image(uintptr_t lo, uintptr_t hi) {
  int i;
  for (i = 0; i < images; ++i)
    if (lo < image_hi[i] && hi > image_lo[i]) return 1;
  return 0;
}

int mosaic_rt_globals_hold_heap(void) {
  static char buf[1 << 16];
  static uintptr_t heap_lo[HEAP_RANGES], heap_hi[HEAP_RANGES];
  int heaps = 0, fd, overflow = 0;
  size_t have = 0;
  uint32_t n, i;
  const mosaic_global *g = mosaic_rt_unit_globals(&n);
  images = 0;
  dl_iterate_phdr(note_image, NULL);
  /* /proc/self/maps, a line at a time, without stdio (sandbox.h). */
  if ((fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)) < 0) return 1;
  for (;;) {
    ssize_t got = read(fd, buf + have, sizeof buf - 1 - have);
    char *line = buf, *end;
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    have += (size_t)got;
    buf[have] = '\0';
    while ((end = strchr(line, '\n')) != NULL) {
      unsigned long lo, hi;
      char perms[8] = "", path[64] = "";
      *end = '\0';
      /* "lo-hi perms offset dev inode [path]" (proc(5)) */
      if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %63s", &lo, &hi, perms, path) >= 3 && perms[0] == 'r' &&
          perms[1] == 'w' && (strcmp(path, "[heap]") == 0 || (path[0] == '\0' && !in_image(lo, hi)))) {
        if (heaps < HEAP_RANGES) heap_lo[heaps] = lo, heap_hi[heaps++] = hi;
        else overflow = 1;
      }
      line = end + 1;
    }
    have = (size_t)(buf + have - line);
    memmove(buf, line, have);
  }
  close(fd);
  if (overflow) return 1;
  for (i = 0; i < n; ++i) {
    const uintptr_t start = ((uintptr_t)g[i].address + 7u) & ~(uintptr_t)7u;
    uintptr_t at;
    for (at = start; at + sizeof(uintptr_t) <= (uintptr_t)g[i].address + g[i].size; at += sizeof(uintptr_t)) {
      const uintptr_t v = *(const uintptr_t *)at;
      int k;
      for (k = 0; k < heaps; ++k)
        if (v >= heap_lo[k] && v < heap_hi[k]) return 1;
    }
  }
  return 0;
}

/* The globals of the unit as they were after static initialisation. */
static void **snapshot_data;

void mosaic_rt_snapshot_take(void) {
  uint32_t n, i;
  const mosaic_global *g = mosaic_rt_unit_globals(&n);
  snapshot_data = (void **)calloc(n ? n : 1, sizeof(void *));
  for (i = 0; i < n; ++i) {
    snapshot_data[i] = malloc(g[i].size ? g[i].size : 1);
    memcpy(snapshot_data[i], g[i].address, g[i].size);
  }
}

void mosaic_rt_snapshot_restore(void) {
  uint32_t n, i;
  const mosaic_global *g = mosaic_rt_unit_globals(&n);
  for (i = 0; i < n; ++i) memcpy(g[i].address, snapshot_data[i], g[i].size);
}

/* A persistent child's process state as it started (sandbox.h). The
 * environment's strings as they were, one after another (env_pristine, of
 * env_bytes), copied before each test into env_work; env_ptrs, the environ
 * each test starts with (env_count entries and NULL), is copied from
 * env_ptrs_pristine, which points into env_work (set once: the strings
 * never move). A test that writes into a string getenv returned, or calls
 * setenv, putenv or unsetenv, changes only this test's copy. (clearenv and
 * a setenv per variable before each test, as this was, cost a fifth of
 * cJSON.c's test time: setenv searches and allocates.) */
static char *env_pristine, *env_work, **env_ptrs, **env_ptrs_pristine;
static size_t env_bytes, env_count;
static mode_t saved_umask;
static sigset_t saved_mask;
static int saved_out_fd = -1, saved_in_fd = -1, kept_fds = 3;

void mosaic_rt_child_state_save(int saved_out, int saved_in, int keep_fds) {
  size_t n = 0, bytes = 0, i;
  while (environ[n]) bytes += strlen(environ[n++]) + 1;
  env_pristine = (char *)malloc(bytes ? bytes : 1);
  env_work = (char *)malloc(bytes ? bytes : 1);
  env_ptrs = (char **)calloc(n + 1, sizeof(char *));
  env_ptrs_pristine = (char **)calloc(n + 1, sizeof(char *));
  if (env_pristine && env_work && env_ptrs && env_ptrs_pristine) {
    size_t at = 0;
    for (i = 0; i < n; ++i) {
      const size_t len = strlen(environ[i]) + 1;
      memcpy(env_pristine + at, environ[i], len);
      env_ptrs_pristine[i] = env_work + at;
      at += len;
    }
    env_bytes = bytes;
    env_count = n;
  } else {
    env_ptrs = NULL; /* the environment is left as the test leaves it */
  }
  saved_umask = umask(022);
  umask(saved_umask);
  sigprocmask(SIG_SETMASK, NULL, &saved_mask);
  saved_out_fd = saved_out;
  saved_in_fd = saved_in;
  kept_fds = keep_fds;
}

void mosaic_rt_child_state_restore(const mosaic_sandbox *box) {
  if (chdir(box->scratch) != 0) { /* the scratch directory is the server's: it is there */
  }
  umask(saved_umask);
  sigprocmask(SIG_SETMASK, &saved_mask, NULL);
  if (env_ptrs) {
    memcpy(env_work, env_pristine, env_bytes);
    memcpy(env_ptrs, env_ptrs_pristine, (env_count + 1) * sizeof *env_ptrs);
    environ = env_ptrs;
  }
  if (saved_in_fd >= 0) dup2(saved_in_fd, 0);
  if (saved_out_fd >= 0) {
    dup2(saved_out_fd, 1);
    dup2(saved_out_fd, 2);
  }
  syscall(SYS_close_range, (unsigned)kept_fds, ~0u, 0u);
}

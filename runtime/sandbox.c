/* The fork server's sandbox: a network namespace, a pids cgroup, resource
 * limits and a scratch directory for the children, and the snapshot of the
 * unit's globals a persistent child restores (sandbox.h). */
#define _GNU_SOURCE
#include "sandbox.h"

#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  if (write(fd, text, strlen(text)) < 0) { /* best effort */
  }
  close(fd);
}

uint32_t mosaic_rt_sandbox_unshare_network(void) {
  return unshare(CLONE_NEWNET) == 0 ? MOSAIC_FEATURE_NET_NAMESPACE : 0u;
}

/* Forks past the limit fail, and every process of a test can be found and
 * killed. Root is not bound by RLIMIT_NPROC, so this is what contains a
 * fork loop there. */
uint32_t mosaic_rt_sandbox_join_cgroup(mosaic_sandbox *box) {
  static const char *roots[] = {"/sys/fs/cgroup/pids", "/sys/fs/cgroup"};
  size_t i;
  for (i = 0; i < sizeof roots / sizeof roots[0]; ++i) {
    char probe[512]; /* the cgroup's path (256) and a file name */
    snprintf(box->cgroup, sizeof box->cgroup, "%s/mosaic-%d", roots[i], (int)getpid());
    if (mkdir(box->cgroup, 0755) != 0 && errno != EEXIST) continue;
    snprintf(probe, sizeof probe, "%s/pids.max", box->cgroup);
    if (access(probe, W_OK) == 0) {
      /* The server joins it: its children are born inside. */
      char me[32]; /* a pid in decimal */
      snprintf(probe, sizeof probe, "%s/cgroup.procs", box->cgroup);
      snprintf(me, sizeof me, "%d", (int)getpid());
      write_file(probe, me);
      return MOSAIC_FEATURE_CGROUP_PIDS;
    }
    rmdir(box->cgroup);
  }
  box->cgroup[0] = '\0';
  return 0u;
}

void mosaic_rt_sandbox_set_pids_limit(mosaic_sandbox *box, uint32_t max) {
  char path[512], value[32];
  /* 64 by default, as exec::Limits::maxProcesses; the server and a
   * persistent child count too. */
  const uint32_t limit = (max ? max : 64u) + 2u;
  if (!box->cgroup[0] || limit == box->pids_max) return;
  snprintf(path, sizeof path, "%s/pids.max", box->cgroup);
  snprintf(value, sizeof value, "%u", limit);
  write_file(path, value);
  box->pids_max = limit;
}

void mosaic_rt_sandbox_kill_strays(const mosaic_sandbox *box, pid_t keep) {
  char path[512];
  FILE *f;
  int pid;
  if (!box->cgroup[0]) return;
  snprintf(path, sizeof path, "%s/cgroup.procs", box->cgroup);
  f = fopen(path, "re");
  if (!f) return;
  while (fscanf(f, "%d", &pid) == 1)
    if (pid > 0 && pid != getpid() && pid != keep) kill(pid, SIGKILL);
  fclose(f);
}

int mosaic_rt_sandbox_has_strays(const mosaic_sandbox *box) {
  char path[512], buf[32];
  int fd;
  ssize_t n;
  if (!box->cgroup[0]) return 0;
  snprintf(path, sizeof path, "%s/pids.current", box->cgroup);
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = 0;
  return atoi(buf) > 2; /* the server and its child */
}

int mosaic_rt_sandbox_make_scratch(mosaic_sandbox *box, const char *dir) {
  if (dir && *dir) {
    snprintf(box->scratch, sizeof box->scratch, "%s", dir);
    mkdir(box->scratch, 0700);
    return 0;
  }
  snprintf(box->scratch, sizeof box->scratch, "%s/mosaic-scratch-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(box->scratch)) return -1;
  box->scratch_made = 1;
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
  if (box->cgroup[0]) {
    mosaic_rt_sandbox_kill_strays(box, -1);
    rmdir(box->cgroup);
  }
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

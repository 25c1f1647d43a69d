/* The fork server: one child per test, in a sandbox, with a closed outcome. */
#define _GNU_SOURCE
#include "internal.h"

#include "mosaic/abi/Harness.h"
#include "mosaic/abi/Protocol.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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
  int persistent;
} child_proc;

typedef struct server {
  mosaic_trace_header *trace;
  int ctl, status, devnull;
  uint32_t features;
  char scratch[4096];
  char cgroup[256];  /* the pids cgroup directory, or "" */
  uint32_t pids_max; /* the limit written there last */
  struct timespec scratch_mtime;
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

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* CPU time a process has used, in microseconds; -1 when it cannot be read
 * (the process is gone). */
static int64_t cpu_us(pid_t pid) {
  clockid_t clock;
  struct timespec ts;
  if (pid <= 0 || clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &ts) != 0) return -1;
  return (int64_t)ts.tv_sec * 1000000 + (int64_t)ts.tv_nsec / 1000;
}

static void write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  if (write(fd, text, strlen(text)) < 0) { /* best effort */
  }
  close(fd);
}

/* A pids cgroup for the children (v1 `pids` hierarchy, or v2 when the
 * controller is enabled): forks past the limit fail, and every process of
 * a test can be found and killed. Root is not bound by RLIMIT_NPROC, so
 * this is what contains a fork loop there. */
static void setup_cgroup(server *s) {
  static const char *roots[] = {"/sys/fs/cgroup/pids", "/sys/fs/cgroup"};
  size_t i;
  for (i = 0; i < sizeof roots / sizeof roots[0]; ++i) {
    char probe[512];
    snprintf(s->cgroup, sizeof s->cgroup, "%s/mosaic-%d", roots[i], (int)getpid());
    if (mkdir(s->cgroup, 0755) != 0 && errno != EEXIST) continue;
    snprintf(probe, sizeof probe, "%s/pids.max", s->cgroup);
    if (access(probe, W_OK) == 0) {
      /* The server joins it: its children are born inside. */
      char me[32];
      snprintf(probe, sizeof probe, "%s/cgroup.procs", s->cgroup);
      snprintf(me, sizeof me, "%d", (int)getpid());
      write_file(probe, me);
      s->features |= MOSAIC_FEATURE_CGROUP_PIDS;
      return;
    }
    rmdir(s->cgroup);
  }
  s->cgroup[0] = '\0';
}

static void cgroup_set_limit(server *s, uint32_t max) {
  char path[512], value[32];
  /* The server and a persistent child count too. */
  const uint32_t limit = (max ? max : 64u) + 2u;
  if (!s->cgroup[0] || limit == s->pids_max) return;
  snprintf(path, sizeof path, "%s/pids.max", s->cgroup);
  snprintf(value, sizeof value, "%u", limit);
  write_file(path, value);
  s->pids_max = limit;
}

/* Kills every process in the cgroup but the server and its persistent
 * child (grandchildren that left the process group with setsid). */
static void cgroup_kill_all(server *s) {
  char path[512];
  FILE *f;
  int pid;
  if (!s->cgroup[0]) return;
  snprintf(path, sizeof path, "%s/cgroup.procs", s->cgroup);
  f = fopen(path, "re");
  if (!f) return;
  while (fscanf(f, "%d", &pid) == 1)
    if (pid > 0 && pid != getpid() && pid != s->child.pid) kill(pid, SIGKILL);
  fclose(f);
}

/* Whether a test left processes behind in the cgroup (beyond server and child). */
static int cgroup_extra_processes(server *s) {
  char path[512], buf[32];
  int fd;
  ssize_t n;
  if (!s->cgroup[0]) return 0;
  snprintf(path, sizeof path, "%s/pids.current", s->cgroup);
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = 0;
  return atoi(buf) > 2;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag;
  if (ftw->level == 0) return 0; /* keep the scratch directory itself */
  (void)remove(path);             /* what cannot go stays: the walk goes on */
  return 0;
}

/* Empties the scratch directory when a test wrote into it. */
static void clean_scratch(server *s) {
  DIR *d;
  struct dirent *e;
  struct stat st;
  int empty = 1;
  /* Untouched since the last look: nothing to do (one stat instead of a listing). */
  if (stat(s->scratch, &st) == 0 && st.st_mtim.tv_sec == s->scratch_mtime.tv_sec &&
      st.st_mtim.tv_nsec == s->scratch_mtime.tv_nsec)
    return;
  d = opendir(s->scratch);
  if (!d) return;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
      empty = 0;
      break;
    }
  closedir(d);
  if (!empty) {
    chmod(s->scratch, 0700);
    nftw(s->scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  }
  if (stat(s->scratch, &st) == 0) s->scratch_mtime = st.st_mtim;
}

static void set_limit(int resource, uint64_t value) {
  struct rlimit r;
  r.rlim_cur = r.rlim_max = (rlim_t)value;
  setrlimit(resource, &r);
}

/* The globals of the unit as they were after static initialisation: a
 * persistent child puts them back before each test. */
static void **snapshot_data;

static void take_snapshot(void) {
  uint32_t n, i;
  const mosaic_global *g = mosaic_rt_unit_globals(&n);
  snapshot_data = (void **)calloc(n ? n : 1, sizeof(void *));
  for (i = 0; i < n; ++i) {
    snapshot_data[i] = malloc(g[i].size ? g[i].size : 1);
    memcpy(snapshot_data[i], g[i].address, g[i].size);
  }
}

static void restore_snapshot(void) {
  uint32_t n, i;
  const mosaic_global *g = mosaic_rt_unit_globals(&n);
  for (i = 0; i < n; ++i) memcpy(g[i].address, snapshot_data[i], g[i].size);
}

/* In the child: the sandbox, then one test, or (persistent) test after test
 * as the server says "run". Never returns. */
static void child(server *s, const mosaic_request *req, int out, int cmd, int done) {
  mosaic_trace_header *t = s->trace;
  int rc;
  setpgid(0, 0);
  dup2(s->devnull, 0);
  dup2(out, 1);
  dup2(out, 2);
  if (cmd >= 0) {
    /* Keep the two pipes to the server at fixed numbers past stdio. */
    dup2(cmd, 3);
    dup2(done, 4);
    cmd = 3, done = 4;
  }
  syscall(SYS_close_range, cmd >= 0 ? 5u : 3u, ~0u, 0u);
  if (chdir(s->scratch) != 0) _exit(MOSAIC_EXIT_HARNESS_ERROR);
  set_limit(RLIMIT_CORE, 0);
  if (req->memory_mb) set_limit(RLIMIT_AS, (uint64_t)req->memory_mb << 20);
  if (req->file_size_mb) set_limit(RLIMIT_FSIZE, (uint64_t)req->file_size_mb << 20);
  if (req->max_processes) set_limit(RLIMIT_NPROC, req->max_processes);
  signal(SIGPIPE, SIG_DFL);
  signal(SIGXFSZ, SIG_DFL);
  setvbuf(stdout, NULL, _IONBF, 0);
  mosaic_rt_install_observe_guard();
  if (cmd < 0) {
    rc = mosaic_rt_run_test((const uint8_t *)t + t->input_off, t->input_len);
    fflush(NULL);
    if (rc == 0) t->finished = 1;
    _exit(rc);
  }
  for (;;) {
    char go;
    if (read(cmd, &go, 1) != 1) _exit(0);
    restore_snapshot();
    mosaic_rt_reset_scopes();
    errno = 0;
    rc = mosaic_rt_run_test((const uint8_t *)t + t->input_off, t->input_len);
    fflush(NULL);
    if (rc == 0) t->finished = 1;
    if (write(done, &rc, sizeof rc) != (ssize_t)sizeof rc) _exit(rc);
  }
}

/* Appends what the child printed to the trace's output area (bounded). */
static int pump_output(server *s, int fd) {
  mosaic_trace_header *t = s->trace;
  char sink[4096];
  for (;;) {
    ssize_t n;
    const uint32_t room = MOSAIC_OUTPUT_BYTES - t->output_len;
    if (room > 0) n = read(fd, (char *)t + t->output_off + t->output_len, room);
    else n = read(fd, sink, sizeof sink);
    if (n > 0) {
      if (room > 0) t->output_len += (uint32_t)n;
      else t->output_dropped += (uint32_t)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n == 0 ? 0 : (errno == EAGAIN ? 1 : 0); /* 0: closed, 1: more may come */
  }
}

static int pidfd_open_(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

/* Starts a child (persistent or for one test). */
static int start_child(server *s, const mosaic_request *req, int persistent) {
  child_proc *c = &s->child;
  int out[2], cmd[2] = {-1, -1}, done[2] = {-1, -1};
  if (pipe2(out, O_CLOEXEC) != 0) return -1;
  if (persistent && (pipe2(cmd, O_CLOEXEC) != 0 || pipe2(done, O_CLOEXEC) != 0)) {
    close(out[0]);
    close(out[1]);
    return -1;
  }
  c->pid = fork();
  if (c->pid == 0) child(s, req, out[1], cmd[0], done[1]);
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
  c->persistent = persistent;
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
  cgroup_kill_all(s);
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
  pump_output(s, c->out);
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
  mosaic_trace_header *t = s->trace;
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
    else if (code == MOSAIC_EXIT_SANITIZER && memmem((char *)t + t->output_off, t->output_len, "Sanitizer", 9) != NULL)
      reply->outcome = MOSAIC_OUTCOME_SANITIZER;
    else reply->outcome = MOSAIC_OUTCOME_EXIT;
  }
}

static mosaic_reply run_one(server *s, const mosaic_request *req) {
  mosaic_trace_header *t = s->trace;
  child_proc *c = &s->child;
  mosaic_reply reply;
  int status = 0, timed_out = 0, done_rc = -1, open_out = 1;
  const int persistent = (req->flags & MOSAIC_REQ_PERSISTENT) && !(req->flags & MOSAIC_REQ_ISOLATE) &&
                         (s->features & MOSAIC_FEATURE_PERSISTENT);
  uint64_t start, deadline, wall_end;
  int64_t cpu_start = 0;
  const uint32_t timeout_ms = req->timeout_ms ? req->timeout_ms : 1000u;
  const int64_t cpu_limit = (int64_t)timeout_ms * 1000;
  memset(&reply, 0, sizeof reply);
  reply.magic = MOSAIC_PROTOCOL_MAGIC;
  reply.statement = -1;
  t->output_len = t->output_dropped = 0;
  cgroup_set_limit(s, req->max_processes);
  start = now_us();
  if (c->pid > 0 && (!persistent || c->persistent != persistent)) retire_child(s);
  if (c->pid <= 0) {
    if (start_child(s, req, persistent) != 0) {
      reply.outcome = MOSAIC_OUTCOME_HARNESS_ERROR;
      return reply;
    }
    reply.fresh = 1;
  }
  if (persistent) {
    char go = 'r';
    if (write(c->cmd, &go, 1) != 1) { /* it died between tests: a fresh one */
      end_child(s, &status);
      if (start_child(s, req, 1) != 0 || write(c->cmd, &go, 1) != 1) {
        reply.outcome = MOSAIC_OUTCOME_HARNESS_ERROR;
        return reply;
      }
      reply.fresh = 1;
    }
  }
  /* A child that was already running counts its CPU time from here; a
   * fresh one from its fork. The first look is when the limit has passed
   * in wall-clock time, which it cannot have passed in CPU time before. */
  if (!reply.fresh) cpu_start = cpu_us(c->pid);
  deadline = start + (uint64_t)cpu_limit;
  wall_end = start + MOSAIC_WALL_LIMIT_MS(timeout_ms) * 1000u;

  for (;;) {
    struct pollfd fds[3];
    int nfds = 0, wait_ms, i_done = -1, i_pid = -1, i_out = -1;
    const uint64_t now = now_us();
    if (now >= deadline) {
      const int64_t cpu = cpu_us(c->pid);
      const int64_t used = cpu - cpu_start;
      if (cpu < 0 || cpu_start < 0 || used >= cpu_limit || now >= wall_end) {
        timed_out = 1;
        break;
      }
      /* Look again when the rest of its CPU time could have been used. */
      deadline = now + (uint64_t)(cpu_limit - used);
      if (deadline > wall_end) deadline = wall_end;
    }
    wait_ms = (int)((deadline - now + 999u) / 1000u);
    if (c->pidfd >= 0) {
      i_pid = nfds;
      fds[nfds].fd = c->pidfd, fds[nfds].events = POLLIN, fds[nfds].revents = 0, ++nfds;
    } else if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
      c->pid = -c->pid; /* reaped */
      break;
    } else if (wait_ms > 1) {
      wait_ms = 1; /* no pidfd: look at the child every millisecond */
    }
    if (c->done >= 0) {
      i_done = nfds;
      fds[nfds].fd = c->done, fds[nfds].events = POLLIN, fds[nfds].revents = 0, ++nfds;
    }
    if (open_out) {
      i_out = nfds;
      fds[nfds].fd = c->out, fds[nfds].events = POLLIN, fds[nfds].revents = 0, ++nfds;
    }
    if (poll(fds, (nfds_t)nfds, wait_ms) < 0 && errno != EINTR) break;
    if (i_out >= 0 && (fds[i_out].revents & (POLLIN | POLLHUP))) open_out = pump_output(s, c->out);
    if (i_done >= 0 && (fds[i_done].revents & POLLIN)) {
      if (read(c->done, &done_rc, sizeof done_rc) == (ssize_t)sizeof done_rc) break;
      done_rc = -1; /* the pipe closed: the child is gone; its status tells */
    }
    if (i_pid >= 0 && (fds[i_pid].revents & POLLIN)) break;
  }
  reply.statement = t->current_stmt;

  if (done_rc >= 0) {
    /* A persistent child finished the test and waits for the next. */
    pump_output(s, c->out);
    reply.outcome = done_rc == 0 ? MOSAIC_OUTCOME_OK : MOSAIC_OUTCOME_HARNESS_ERROR;
    reply.duration_us = (uint32_t)(now_us() - start);
    if (++c->tests >= MOSAIC_PERSISTENT_TESTS || cgroup_extra_processes(s)) retire_child(s);
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
    classify(s, status, timed_out, &reply);
  }
  clean_scratch(s);
  return reply;
}

int mosaic_rt_serve(int shm_fd, int ctl_fd, int status_fd) {
  server s;
  struct stat st;
  mosaic_hello hello;
  mosaic_request req;
  const char *scratch = getenv(MOSAIC_ENV_SCRATCH);
  void *mem;
  memset(&s, 0, sizeof s);
  s.ctl = ctl_fd;
  s.status = status_fd;
  if (fstat(shm_fd, &st) != 0 || (size_t)st.st_size < sizeof(mosaic_trace_header)) return 2;
  mem = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
  if (mem == MAP_FAILED) return 2;
  s.trace = (mosaic_trace_header *)mem;
  if (s.trace->magic != MOSAIC_TRACE_MAGIC || s.trace->version != MOSAIC_TRACE_VERSION ||
      s.trace->total_size > (uint64_t)st.st_size)
    return 2;
  mosaic_rt_use_trace(s.trace);

  signal(SIGPIPE, SIG_IGN);
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  if (unshare(CLONE_NEWNET) == 0) s.features |= MOSAIC_FEATURE_NET_NAMESPACE;
  {
    int fd = pidfd_open_(getpid());
    if (fd >= 0) {
      s.features |= MOSAIC_FEATURE_PIDFD;
      close(fd);
    }
  }
  setup_cgroup(&s);
  s.child.pid = -1;
  s.child.pidfd = s.child.out = s.child.cmd = s.child.done = -1;
  /* A persistent child needs globals it can put back: none owning heap
   * memory through C++ constructors, none per thread. */
  if (!(mosaic_rt_unit_flags() & (MOSAIC_UNIT_DYNAMIC_INIT | MOSAIC_UNIT_THREAD_LOCAL))) {
    take_snapshot();
    s.features |= MOSAIC_FEATURE_PERSISTENT;
  }
  s.devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (scratch && *scratch) {
    snprintf(s.scratch, sizeof s.scratch, "%s", scratch);
    mkdir(s.scratch, 0700);
  } else {
    snprintf(s.scratch, sizeof s.scratch, "%s/mosaic-scratch-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(s.scratch)) return 2;
  }

  memset(&hello, 0, sizeof hello);
  hello.magic = MOSAIC_PROTOCOL_MAGIC;
  hello.version = MOSAIC_PROTOCOL_VERSION;
  hello.trace_version = MOSAIC_TRACE_VERSION;
  hello.features = s.features;
  hello.unit_blocks = mosaic_rt_unit_blocks();
  hello.unit_sides = mosaic_rt_unit_sides();
  hello.pid = (int32_t)getpid();
  if (write_all(status_fd, &hello, sizeof hello) != 0) return 2;

  while (read_all(ctl_fd, &req, sizeof req) == 0 && req.magic == MOSAIC_PROTOCOL_MAGIC &&
         req.command == MOSAIC_CMD_RUN) {
    mosaic_reply reply = run_one(&s, &req);
    if (write_all(status_fd, &reply, sizeof reply) != 0) break;
  }
  retire_child(&s);
  s.scratch_mtime.tv_sec = -1;
  clean_scratch(&s);
  if (!scratch || !*scratch) rmdir(s.scratch);
  if (s.cgroup[0]) {
    cgroup_kill_all(&s);
    rmdir(s.cgroup);
  }
  return 0;
}

/* A running test watched (server.h): its CPU and wall-clock time, its
 * output, and whether its process can never run again by itself. */
#define _GNU_SOURCE
#include "internal.h"
#include "server.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* CPU time a process has used, in microseconds; -1 when it cannot be read
 * (the process is gone). */
int64_t mosaic_rt_cpu_us(const child_proc *c) {
  struct timespec ts;
  if (c->pid <= 0 || !c->has_clock || clock_gettime(c->clock, &ts) != 0) return -1;
  return (int64_t)ts.tv_sec * 1000000 + (int64_t)ts.tv_nsec / 1000;
}

/* Appends what the child printed to the output area of the current slot
 * (bounded): all there is, or (`once`) what one read returns. */
int mosaic_rt_pump_output(server *s, int fd, int once) {
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
int mosaic_rt_wait_child(server *s, uint64_t start, int64_t cpu_start, int64_t cpu_limit, uint64_t wall_end, int *status,
                      done_record *done_rc) {
  child_proc *c = &s->child;
  int open_out = 1, open_done = 1;
  uint64_t deadline = start + ((uint64_t)cpu_limit < STUCK_LOOK_US ? (uint64_t)cpu_limit : STUCK_LOOK_US);
  for (;;) {
    struct pollfd fds[4];
    int nfds = 0, wait_ms, i_done = -1, i_pid = -1, i_out = -1, i_ctl = -1;
    const uint64_t now = mosaic_rt_now_us();
    if (now >= deadline) {
      const int64_t cpu = mosaic_rt_cpu_us(c);
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
      if (mosaic_rt_read_all(c->done, done_rc, sizeof *done_rc) == 0) {
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
    if (i_out >= 0 && (fds[i_out].revents & (POLLIN | POLLHUP))) open_out = mosaic_rt_pump_output(s, c->out, 1);
    if (i_ctl >= 0 && (fds[i_ctl].revents & (POLLIN | POLLHUP))) {
      /* Only a cut comes while a request runs; anything else, or the pipe
       * closing, ends the request too (the main loop sees the rest). */
      mosaic_request cut;
      s->cut = 1;
      if (mosaic_rt_read_all(s->ctl, &cut, sizeof cut) != 0 || cut.magic != MOSAIC_PROTOCOL_MAGIC || cut.command != MOSAIC_CMD_CUT)
        s->host_gone = 1;
    }
    if (i_pid >= 0 && (fds[i_pid].revents & POLLIN)) return 0;
  }
}

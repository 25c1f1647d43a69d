/* bench/machine/costs: what the machine charges for the kernel work a fork
 * server does per test, so that a speed figure can be read against the
 * machine it was measured on (bench/results/speed-2026-11-30c found a VM
 * where a page fault cost 11 us, fifty times a bare-metal one).
 *
 *   cc -O2 bench/machine/costs.c -o /tmp/costs && /tmp/costs
 *
 * Each line: one operation, its mean cost in microseconds. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static sigjmp_buf at;
static void on_segv(int sig) { siglongjmp(at, sig); }

/* The mean cost per page of touching `pages` pages of the shared mapping
 * `m` in a forked child (a fork server's child writing its trace slots),
 * after `populate` (0: none; 1: MADV_POPULATE_WRITE). */
static double child_touch(char *m, int pages, int populate) {
  int p[2];
  double d = 0;
  pid_t pid;
  if (pipe(p) != 0) return -1;
  pid = fork();
  if (pid == 0) {
    double a = now(), b;
    int i;
    if (populate) madvise(m, (size_t)pages * 4096, MADV_POPULATE_WRITE);
    for (i = 0; i < pages; ++i) m[(size_t)i * 4096] = 2;
    b = now();
    d = (b - a) / pages * 1e6;
    if (write(p[1], &d, sizeof d) != sizeof d) _exit(1);
    _exit(0);
  }
  if (read(p[0], &d, sizeof d) != sizeof d) d = -1;
  waitpid(pid, NULL, 0);
  close(p[0]);
  close(p[1]);
  return d;
}

int main(void) {
  enum { kPages = 4096, kShared = 256 };
  struct sigaction sa;
  struct timespec ts;
  double t0;
  int i, n;
  char *anon, *shared;
  int fd;

  n = 100000;
  t0 = now();
  for (i = 0; i < n; ++i) syscall(SYS_getppid);
  printf("syscall (getppid)                  %8.2f us\n", (now() - t0) / n * 1e6);
  t0 = now();
  for (i = 0; i < n; ++i) clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  printf("process CPU clock read             %8.2f us\n", (now() - t0) / n * 1e6);

  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_segv;
  sa.sa_flags = SA_NODEFER;
  sigaction(SIGSEGV, &sa, NULL);
  n = 20000;
  t0 = now();
  for (i = 0; i < n; ++i)
    if (sigsetjmp(at, 1) == 0) *(volatile int *)0 = 1;
  printf("null store, SIGSEGV, siglongjmp    %8.2f us\n", (now() - t0) / n * 1e6);

  anon = mmap(NULL, (size_t)kPages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  t0 = now();
  for (i = 0; i < kPages; ++i) anon[(size_t)i * 4096] = 1;
  printf("anonymous page fault               %8.2f us\n", (now() - t0) / kPages * 1e6);

  n = 200;
  t0 = now();
  for (i = 0; i < n; ++i) {
    pid_t pid = fork();
    if (pid == 0) _exit(0);
    waitpid(pid, NULL, 0);
  }
  printf("fork, exit, wait (16 MiB touched)  %8.2f us\n", (now() - t0) / n * 1e6);

  fd = memfd_create("costs", 0);
  if (fd < 0 || ftruncate(fd, (off_t)kShared * 4096) != 0) return 1;
  shared = mmap(NULL, (size_t)kShared * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  memset(shared, 0, (size_t)kShared * 4096);
  printf("shared page, child's first write   %8.2f us\n", child_touch(shared, kShared, 0));
  printf("  after MADV_POPULATE_WRITE        %8.2f us\n", child_touch(shared, kShared, 1));
  return 0;
}

/* The mutation runtime: what a unit built with mutant schemata links with
 * (`mosaic mutate`; Hooks.h). Which mutant runs, read once from the
 * environment, and which mutation sites a process reached, appended to a
 * file when it exits. Independent of the harness's runtime: the two are
 * never linked together. */
#define _GNU_SOURCE
#include "mosaic/abi/Hooks.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint32_t __mosaic_active_mutant = 0xffffffffu;

/* Per site, by its first mutant id: how many mutants it has (0: not reached). */
static uint32_t *reached;
static uint32_t reached_size;
static const char *reached_file;

static void dump_reached(void) {
  char line[32];
  char *buf;
  size_t len = 0, cap = 4096;
  uint32_t i;
  int fd;
  if (!reached_file || !reached) return;
  buf = (char *)malloc(cap);
  if (!buf) return;
  for (i = 0; i < reached_size; ++i) {
    int n;
    if (!reached[i]) continue;
    n = snprintf(line, sizeof line, "%u %u\n", i, reached[i]);
    if (len + (size_t)n > cap) {
      char *grown = (char *)realloc(buf, cap * 2);
      if (!grown) break;
      buf = grown;
      cap *= 2;
    }
    memcpy(buf + len, line, (size_t)n);
    len += (size_t)n;
  }
  /* One write with O_APPEND: processes of one test run (ctest runs a test
   * per process) never interleave their lines. */
  fd = open(reached_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd >= 0) {
    ssize_t w = write(fd, buf, len);
    (void)w;
    close(fd);
  }
  free(buf);
}

__attribute__((constructor(101))) static void mosaic_mutate_init(void) {
  const char *m = getenv(MOSAIC_ENV_MUTANT);
  if (m && *m) __mosaic_active_mutant = (uint32_t)strtoul(m, NULL, 10);
  reached_file = getenv(MOSAIC_ENV_MUTANT_REACHED);
  if (reached_file && *reached_file) atexit(dump_reached);
  else reached_file = NULL;
}

void __mosaic_mutant_reached(uint32_t first, uint32_t n) {
  if (!reached_file) return;
  if (first >= reached_size) {
    uint32_t size = reached_size ? reached_size : 256;
    uint32_t *grown;
    while (size <= first) size *= 2;
    grown = (uint32_t *)realloc(reached, size * sizeof *reached);
    if (!grown) return;
    memset(grown + reached_size, 0, (size - reached_size) * sizeof *grown);
    reached = grown;
    reached_size = size;
  }
  reached[first] = n;
}

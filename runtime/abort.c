/* The program's own abort() and assert() failures, in a persistent child:
 * the executable defines abort and __assert_fail, so the calls the unit and
 * the project's code make (through the PLT) come here, while libc's own
 * calls (malloc's "double free" with its arena locked, std::terminate in
 * libstdc++) still reach libc's. A call the child can go on past
 * (mosaic_rt_recover_abort) ends the test as a SIGABRT would, with the same
 * stack and message, without the fork a dead child costs: http_parser.c's
 * assertions were a third of a random search's time. Anything else is
 * handed to libc's functions, found once before the first test. */
#define _GNU_SOURCE
#include "internal.h"

#include <dlfcn.h>
#include <errno.h> /* program_invocation_short_name */
#include <stdio.h>
#include <stdlib.h>

typedef void (*abort_fn)(void);
typedef void (*assert_fn)(const char *, const char *, unsigned int, const char *);

static abort_fn libc_abort;
static assert_fn libc_assert_fail;

void mosaic_rt_abort_init(void) {
  libc_abort = (abort_fn)dlsym(RTLD_NEXT, "abort");
  libc_assert_fail = (assert_fn)dlsym(RTLD_NEXT, "__assert_fail");
}

/* When libc's is unknown (never, with glibc): what abort does. */
static void __attribute__((noreturn)) abort_anyway(void) {
  sigset_t set;
  signal(SIGABRT, SIG_DFL);
  sigemptyset(&set);
  sigaddset(&set, SIGABRT);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  raise(SIGABRT);
  _exit(128 + SIGABRT);
}

void abort(void) {
  const uintptr_t caller = (uintptr_t)__builtin_return_address(0);
  if (mosaic_rt_abort_recoverable(caller)) mosaic_rt_recover_abort(caller, (uintptr_t)libc_abort);
  if (libc_abort) libc_abort();
  abort_anyway();
}

void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function) {
  const uintptr_t caller = (uintptr_t)__builtin_return_address(0);
  if (mosaic_rt_abort_recoverable(caller)) {
    /* glibc's message, word for word (assert/assert.c). */
    fprintf(stderr, "%s%s%s:%u: %s%sAssertion `%s' failed.\n", program_invocation_short_name,
            program_invocation_short_name[0] ? ": " : "", file, line, function ? function : "", function ? ": " : "",
            assertion);
    fflush(stderr);
    mosaic_rt_recover_abort(caller, (uintptr_t)libc_abort);
  }
  if (libc_assert_fail) libc_assert_fail(assertion, file, line, function);
  abort_anyway();
}

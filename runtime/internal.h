/* Declarations shared by the runtime's own files (not part of the ABI). */
#ifndef MOSAIC_RUNTIME_INTERNAL_H
#define MOSAIC_RUNTIME_INTERNAL_H

#include "mosaic/abi/Hooks.h"
#include "mosaic/abi/Trace.h"

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* The trace this process writes: the host's shared memory, or a private
 * copy laid out the same way (plain execution). */
extern mosaic_trace_header *mosaic_rt_trace;

/* Points the hooks at `trace` (its blocks and sides areas). */
void mosaic_rt_use_trace(mosaic_trace_header *trace);
/* What the unit registered (Hooks.h). */
uint32_t mosaic_rt_unit_blocks(void);
uint32_t mosaic_rt_unit_sides(void);
uint32_t mosaic_rt_unit_mutants(void);
uint32_t mosaic_rt_unit_flags(void);
const mosaic_global *mosaic_rt_unit_globals(uint32_t *n);
/* `v` cut to its low `width` bits. */
static inline uint64_t mosaic_rt_mask(uint64_t v, unsigned width) {
  return width >= 64 ? v : v & ((1ull << width) - 1);
}
/* The low `width` bits of `v` read as a signed integer. */
static inline int64_t mosaic_rt_sign_extend(uint64_t v, unsigned width) {
  if (width >= 64 || width == 0) return (int64_t)v;
  {
    const uint64_t m = 1ull << (width - 1);
    v &= (m << 1) - 1;
    return (int64_t)((v ^ m) - m);
  }
}
/* A slot of a branch side or a mutant holds 1 + the least distance seen
 * (0 = never reached): records `d` in slot `i` of `slots` (`n` of them). */
static inline void mosaic_rt_least(double *slots, uint32_t n, uint32_t i, double d) {
  const double v = d + 1.0;
  if (i < n && (slots[i] == 0.0 || v < slots[i])) slots[i] = v;
}

/* Forgets the call scopes of a test that ended inside one. */
void mosaic_rt_reset_scopes(void);
/* Before each statement: the test's own code runs at call depth 0, however
 * the last statement left the unit (Hooks.h: __mosaic_enter). */
void mosaic_rt_reset_depth(void);
/* Before each test: the mutant it runs, from the trace (a schemata harness). */
void mosaic_rt_select_mutant(const mosaic_trace_header *t);

/* Runs one encoded test in this process; returns 0, or
 * MOSAIC_EXIT_HARNESS_ERROR when the input is malformed. */
int mosaic_rt_run_test(const uint8_t *data, uint32_t len);
/* After a fault a persistent child went on past (mosaic_rt_recover_arm):
 * the test's variables are forgotten, not destroyed (a destructor could
 * meet what the fault left half done); what they own leaks until the child
 * is replaced. */
void mosaic_rt_abandon_test(void);
/* Installs the fault handler that observations rely on. */
void mosaic_rt_install_observe_guard(void);

/* The stack at a failure (stack.c). init once in the server, before it
 * forks; install in each child, after the observe guard, with the actions
 * that guard replaced for SIGSEGV and SIGBUS; record from a handler (the
 * signal's ucontext, or NULL); chain: record, then hand the signal on to
 * the action installed before. */
void mosaic_rt_stack_init(void);
void mosaic_rt_stack_install(const struct sigaction *segv_previous, const struct sigaction *bus_previous);
void mosaic_rt_stack_record(const void *uctx);
void mosaic_rt_stack_chain(int sig, siginfo_t *info, void *uctx);
/* A C++ throw's stack, noted (in this process only) at every throw; kept in
 * the trace when the exception leaves the unit (__mosaic_threw), unless a
 * failure already recorded one. */
void mosaic_rt_stack_note_throw(void);
/* A persistent child's way past a clean fault: while `at` is armed (not
 * NULL), a SIGSEGV or SIGBUS at an address below the kernel's lowest
 * mappable one, or a SIGFPE, raised by an instruction of the executable
 * (the unit, the project's code, the harness; not libc, which may hold a
 * lock) and with no handler of the program's or a sanitizer's behind
 * mosaic's, jumps to `at` with the signal's number, its stack recorded,
 * instead of ending the process. Only the thread that armed it jumps (not
 * a thread or a process the test started). Disarmed by the jump. */
void mosaic_rt_recover_arm(sigjmp_buf *at);
/* The same way past the program's own call of abort() (abort.c):
 * recoverable when a fault would be recovered now, the call's return
 * address `caller` is a call site in the executable, and the test left
 * SIGABRT to mosaic's handler; recover records the stack (`marker`, libc's
 * abort, standing for the frames a real abort has above the caller) and
 * jumps. abort_init finds libc's abort and __assert_fail (in the server,
 * once: called by mosaic_rt_stack_init). */
void mosaic_rt_abort_init(void);
int mosaic_rt_abort_recoverable(uintptr_t caller);
void mosaic_rt_recover_abort(uintptr_t caller, uintptr_t marker) __attribute__((noreturn));
void mosaic_rt_stack_keep_throw(void);

/* What symbolic.c lends its models of the C library (symmodels.c). Each
 * returns 0 (no node: the value stays concrete) once the region is full or
 * when no region is attached. */
int mosaic_rt_sym_on(void);
uint32_t mosaic_rt_sym_node(uint8_t op, uint32_t width, uint32_t a, uint32_t b, uint32_t c, uint64_t value);
uint32_t mosaic_rt_sym_width(uint32_t e);
/* The expression of the byte at `address` (0: concrete). */
uint32_t mosaic_rt_sym_byte(uintptr_t address);
/* Records a constraint: `condition` (width 1) held when `taken`. */
void mosaic_rt_sym_constrain(uint32_t condition, uint32_t taken, uint32_t side);
void mosaic_rt_sym_count_concretized(void);

/* The fork server; returns the process exit code. */
int mosaic_rt_serve(int shm_fd, int ctl_fd, int status_fd);

#endif

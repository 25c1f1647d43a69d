/* The stack at a failure: when the unit crashes, aborts or traps, the
 * frames are written into the trace (mosaic_trace_header.stack) before the
 * signal takes its course, so that the host can tell failures apart by
 * where they happened and show where (it symbolises the frames it keeps).
 *
 * Frames are addresses as the harness executable's file names them (its
 * load bias taken off), or the raw address with MOSAIC_STACK_EXTERNAL set
 * for code outside it (libc, libffi). Every handler runs on an alternate
 * stack, so that a stack overflow is recorded too. */
#define _GNU_SOURCE
#include "internal.h"

#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* The executable's load bias and the range of its code (set once, in the
 * server before it forks). */
static uintptr_t exe_bias, exe_lo, exe_hi;

/* 64 KiB: backtrace() and the unwinder on a stack of their own (ours;
 * several times glibc's SIGSTKSZ). Inherited by every child (fork copies it). */
static char alt_stack[1 << 16];

static struct sigaction previous[NSIG];

static int find_executable(struct dl_phdr_info *info, size_t size, void *data) {
  int i;
  (void)size, (void)data;
  /* The first object dl_iterate_phdr reports is the program itself. */
  exe_bias = (uintptr_t)info->dlpi_addr;
  exe_lo = UINTPTR_MAX;
  exe_hi = 0;
  for (i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
    if (exe_bias + ph->p_vaddr < exe_lo) exe_lo = exe_bias + ph->p_vaddr;
    if (exe_bias + ph->p_vaddr + ph->p_memsz > exe_hi) exe_hi = exe_bias + ph->p_vaddr + ph->p_memsz;
  }
  return 1;
}

/* Whether `pc` lies in the executable's code. */
static int in_executable(uintptr_t pc) { return pc >= exe_lo && pc < exe_hi; }

/* The instruction a fault happened at, from the signal's context; 0 when
 * this platform's context is not read here. */
static uintptr_t fault_pc(const void *uctx) {
  const ucontext_t *uc = (const ucontext_t *)uctx;
  if (!uc) return 0;
#if defined(__x86_64__)
  return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  return (uintptr_t)uc->uc_mcontext.pc;
#else
  return 0;
#endif
}

/* Writes pcs[from, n) into the trace's stack, as the host reads frames:
 * addresses in the executable with its load bias taken off, others raw and
 * marked MOSAIC_STACK_EXTERNAL. */
static void store_frames(mosaic_trace_header *t, void *const *pcs, int from, int n) {
  uint32_t kept = 0;
  int i;
  for (i = from; i < n && kept < MOSAIC_STACK_CAPACITY; ++i) {
    const uintptr_t a = (uintptr_t)pcs[i];
    t->stack[kept++] = in_executable(a) ? (uint64_t)(a - exe_bias) : ((uint64_t)a | MOSAIC_STACK_EXTERNAL);
  }
  t->stack_count = kept;
}

void mosaic_rt_stack_record(const void *uctx) {
  mosaic_trace_header *t = mosaic_rt_trace;
  void *pcs[MOSAIC_STACK_CAPACITY + 16];
  int n, first = -1, i;
  const uintptr_t pc = fault_pc(uctx);
  static volatile sig_atomic_t recording;
  /* The first failure of a test is the one that counts; a fault while
   * unwinding (a smashed stack) records nothing more. */
  if (!t || t->stack_count || recording) return;
  recording = 1;
  n = backtrace(pcs, (int)(sizeof pcs / sizeof *pcs));
  /* The frames above the interrupted code are this handler's and the
   * kernel's signal trampoline: start at the interrupted instruction. */
  for (i = 0; i < n && pc; ++i)
    if ((uintptr_t)pcs[i] == pc) {
      first = i;
      break;
    }
  if (first < 0) first = n > 2 ? 2 : 0; /* mosaic_rt_stack_record and the handler */
  store_frames(t, pcs, first, n);
  recording = 0;
}

/* The last throw's frames (ours: the stack's capacity). */
static void *throw_pcs[MOSAIC_STACK_CAPACITY + 1];
static int throw_count;

void mosaic_rt_stack_note_throw(void) {
  throw_count = backtrace(throw_pcs, (int)(sizeof throw_pcs / sizeof *throw_pcs));
}

void mosaic_rt_stack_keep_throw(void) {
  mosaic_trace_header *t = mosaic_rt_trace;
  if (!t || t->stack_count || throw_count == 0) return;
  /* Frame 0 is in the noting function itself: start at the throw
   * wrapper's, so that the thrower's, after it, is read by the host as a
   * return address (in the call), like every frame after the first. */
  store_frames(t, throw_pcs, 1, throw_count);
  throw_count = 0;
}

/* Where a clean fault sends a persistent child (mosaic_rt_recover_arm),
 * and the thread that armed it: a fault in a thread or a process the test
 * started never jumps onto the child's loop. */
static sigjmp_buf *recover_at;
static long recover_tid;

void mosaic_rt_recover_arm(sigjmp_buf *at) {
  /* Read once per child (a fork starts from the server's 0): the thread
   * that runs tests does not change, and this is on every test's path. */
  if (at && !recover_tid) recover_tid = syscall(SYS_gettid);
  recover_at = at;
}

/* The lowest address a process can map: vm.mmap_min_addr's default on
 * Linux (65536), so a fault below it is a null pointer or a field of one,
 * never memory the test corrupted. As far below null, at the top of the
 * address space (the kernel's half: never the process's), is a null
 * pointer's word before it: the header an allocator keeps before a block
 * (pugixml's allocator given a null block reads at null - 8). */
#define LOWEST_MAPPABLE ((uintptr_t)65536u)

/* Whether a fault reported at `addr` (with `code`) is at a null pointer, a
 * field of one, or the word before it. A general protection fault (a
 * non-canonical address: garbage) is reported as SI_KERNEL with no
 * address: never null. */
static int null_address(int code, uintptr_t addr) {
  if (code == SI_KERNEL) return 0;
  return addr < LOWEST_MAPPABLE || addr > UINTPTR_MAX - LOWEST_MAPPABLE;
}

/* Where a call through a bad pointer came from: the return address it
 * left (x86-64: on the top of the stack; AArch64: in the link register);
 * 0 when unknown. Read only when the fault was fetching the instruction at
 * the pc itself, so the call was the last thing that ran. */
static uintptr_t call_site(const void *uctx) {
  const ucontext_t *uc = (const ucontext_t *)uctx;
  if (!uc) return 0;
#if defined(__x86_64__)
  return *(const uintptr_t *)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
  return (uintptr_t)uc->uc_mcontext.regs[30];
#else
  return 0;
#endif
}

/* Whether `ret` is a return address in the executable: the instruction
 * before it there is a call (x86-64: direct, through the GOT or a
 * register, or through a pointer at a register plus displacement;
 * AArch64: BL or BLR). A word on the stack that merely points into the
 * code (a saved function pointer) is not one. */
static int called_from_executable(uintptr_t ret) {
#if defined(__x86_64__)
  const unsigned char *c = (const unsigned char *)ret;
  if (!in_executable(ret) || ret - 6 < exe_lo) return 0;
  return c[-5] == 0xe8 || (c[-6] == 0xff && c[-5] == 0x15) || (c[-2] == 0xff && (c[-1] & 0xf8) == 0xd0) ||
         (c[-3] == 0xff && (c[-2] & 0xf8) == 0x50) || (c[-6] == 0xff && (c[-5] & 0xf8) == 0x90);
#elif defined(__aarch64__)
  uint32_t insn;
  if (!in_executable(ret) || ret - 4 < exe_lo) return 0;
  memcpy(&insn, (const void *)(ret - 4), sizeof insn);
  return (insn & 0xfc000000u) == 0x94000000u || (insn & 0xfffffc1fu) == 0xd63f0000u;
#else
  (void)ret;
  return 0;
#endif
}

/* Whether the process may go on past this fault (mosaic_rt_recover_arm):
 * a division by zero or a load or store at a null pointer in the
 * executable's code; a call from it through a pointer to no code, null
 * included (the fault is the fetch of the first instruction: nothing ran
 * there); or a load or store at a null pointer in a library function the
 * executable called that has not yet touched its stack (memcpy, strlen:
 * the return address is still on top, so it called nothing and took no
 * lock of libc's that a later test would wait on). */
static int recoverable(int sig, const siginfo_t *info, const void *uctx) {
  const uintptr_t pc = fault_pc(uctx);
  int null_access;
  if (!info || info->si_code <= 0) return 0; /* sent (raise, kill), not a fault */
  null_access = (sig == SIGSEGV || sig == SIGBUS) && null_address(info->si_code, (uintptr_t)info->si_addr);
  if (previous[sig].sa_handler != SIG_DFL) return 0;
  if (sig == SIGSEGV && pc == (uintptr_t)info->si_addr && !in_executable(pc))
    return called_from_executable(call_site(uctx));
  if (!in_executable(pc)) return null_access && called_from_executable(call_site(uctx));
  if (sig == SIGFPE) return 1;
  return null_access;
}

/* Whether a jump back is armed, and for this thread. */
static int armed_here(void) { return recover_at && syscall(SYS_gettid) == recover_tid; }

/* Disarms and jumps back to the child's loop with `sig`. */
static void __attribute__((noreturn)) jump_back(int sig) {
  sigjmp_buf *at = recover_at;
  recover_at = NULL;
  siglongjmp(*at, sig);
}

static void on_failure_signal(int sig, siginfo_t *info, void *uctx);

int mosaic_rt_abort_recoverable(uintptr_t caller) {
  struct sigaction now;
  if (!armed_here() || previous[SIGABRT].sa_handler != SIG_DFL) return 0;
  if (!called_from_executable(caller)) return 0;
  /* A handler the test installed (or SIG_IGN) must see the signal. */
  return sigaction(SIGABRT, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_failure_signal;
}

void mosaic_rt_recover_abort(uintptr_t caller, uintptr_t marker) {
  mosaic_trace_header *t = mosaic_rt_trace;
  if (t && !t->stack_count) {
    void *pcs[MOSAIC_STACK_CAPACITY + 16];
    const int n = backtrace(pcs, (int)(sizeof pcs / sizeof *pcs));
    int i;
    /* As a real abort's: libc's frame first (external, dropped by the
     * host's symboliser), then the caller's return address on. */
    for (i = 1; i < n; ++i)
      if ((uintptr_t)pcs[i] == caller) {
        pcs[i - 1] = (void *)marker;
        store_frames(t, pcs, i - 1, n);
        break;
      }
  }
  jump_back(SIGABRT);
}

static void on_failure_signal(int sig, siginfo_t *info, void *uctx) {
  mosaic_rt_stack_record(uctx);
  if (armed_here() && recoverable(sig, info, uctx)) jump_back(sig);
  /* Then as if this handler had never been there: the previous action
   * (the default, or a sanitizer's) takes over. A fault the kernel raised
   * happens again when the instruction is retried; a signal sent (abort's
   * raise, kill) is sent again. */
  sigaction(sig, &previous[sig], NULL);
  if (!info || info->si_code <= 0) raise(sig);
}

void mosaic_rt_stack_chain(int sig, siginfo_t *info, void *uctx) { on_failure_signal(sig, info, uctx); }


void mosaic_rt_stack_init(void) {
  void *prime[2];
  stack_t ss;
  dl_iterate_phdr(find_executable, NULL);
  mosaic_rt_abort_init();
  /* The first backtrace() loads the unwinder (dlopen): not in a handler. */
  backtrace(prime, 2);
  memset(&ss, 0, sizeof ss);
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  sigaltstack(&ss, NULL);
}

void mosaic_rt_stack_install(const struct sigaction *segv_previous, const struct sigaction *bus_previous) {
  static const int sigs[] = {SIGABRT, SIGFPE, SIGILL, SIGTRAP};
  struct sigaction sa;
  size_t i;
  if (segv_previous) previous[SIGSEGV] = *segv_previous;
  if (bus_previous) previous[SIGBUS] = *bus_previous;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_failure_signal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  for (i = 0; i < sizeof sigs / sizeof *sigs; ++i) sigaction(sigs[i], &sa, &previous[sigs[i]]);
}

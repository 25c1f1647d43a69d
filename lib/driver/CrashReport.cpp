// A crash of mosaic itself: a sentence naming the signal, LLVM's stack dump,
// exit code 3 (CrashReport.h).
#include "mosaic/driver/CrashReport.h"

#include "mosaic/driver/Options.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Signals.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MOSAIC_UNDER_ASAN 1
#endif
#endif

namespace mosaic::driver {

#ifndef MOSAIC_UNDER_ASAN
namespace {

// The signals that mean mosaic's own code failed. LLVM handles more
// (SIGQUIT, SIGXCPU, ...); those still get its stack, under a plainer line.
struct Fatal {
  int signal;
  const char *name;
};
constexpr Fatal kFatal[] = {
    {SIGSEGV, "SIGSEGV (invalid memory access)"}, {SIGBUS, "SIGBUS (bus error)"},
    {SIGILL, "SIGILL (illegal instruction)"},     {SIGFPE, "SIGFPE (arithmetic error)"},
    {SIGABRT, "SIGABRT (abort)"},                 {SIGTRAP, "SIGTRAP (trap)"},
    {SIGSYS, "SIGSYS (bad system call)"},
};
constexpr size_t kFatalCount = sizeof kFatal / sizeof kFatal[0];

// What the handler reads: state of static storage, set before any signal.
struct sigaction llvmAction[kFatalCount];
volatile std::sig_atomic_t fatalIndex = -1;

// Signal-handler code from here on: write(2) and _exit(2) only, both
// async-signal-safe.
void say(const char *text) {
  ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

// LLVM's first callback: the sentence, before its stack.
void announce(void *) {
  say("mosaic: internal error: mosaic itself crashed");
  if (fatalIndex >= 0) {
    say(" with ");
    say(kFatal[fatalIndex].name);
  }
  say(" (a bug of mosaic, not of the code under test, which runs in other processes); please report it with "
      "the command and the stack below\n");
}

// LLVM's last callback, after its stack.
void finish(void *) { _exit(kExitInternal); }

// Records which signal came, then runs LLVM's handler (the callbacks above
// and its stack). Should that return (a signal LLVM passes on), the exit is
// the same.
void onFatal(int sig, siginfo_t *info, void *context) {
  for (size_t i = 0; i < kFatalCount; ++i) {
    if (kFatal[i].signal != sig) continue;
    fatalIndex = static_cast<std::sig_atomic_t>(i);
    const struct sigaction &llvm = llvmAction[i];
    if (llvm.sa_flags & SA_SIGINFO)
      llvm.sa_sigaction(sig, info, context);
    else if (llvm.sa_handler != SIG_DFL && llvm.sa_handler != SIG_IGN)
      llvm.sa_handler(sig);
    break;
  }
  _exit(kExitInternal);
}

} // namespace
#endif

void installCrashReport(const char *argv0) {
#ifndef MOSAIC_UNDER_ASAN
  // LLVM looks for llvm-symbolizer on PATH, where Debian installs it only
  // with a version suffix: name the toolchain's own, unless the user did.
  setenv("LLVM_SYMBOLIZER_PATH", MOSAIC_LLVM_SYMBOLIZER, /*overwrite=*/0);
  llvm::sys::AddSignalHandler(announce, nullptr);
  llvm::sys::PrintStackTraceOnErrorSignal(argv0); // installs LLVM's handlers, adds its stack dump
  llvm::sys::AddSignalHandler(finish, nullptr);
  // In front of LLVM's handler for the fatal signals, with its flags (its
  // alternate stack, so a stack overflow is reported too).
  for (size_t i = 0; i < kFatalCount; ++i) {
    if (sigaction(kFatal[i].signal, nullptr, &llvmAction[i]) != 0) continue;
    struct sigaction mine = llvmAction[i];
    mine.sa_flags |= SA_SIGINFO;
    mine.sa_sigaction = onFatal;
    sigaction(kFatal[i].signal, &mine, nullptr);
  }
#else
  (void)argv0;
#endif
}

} // namespace mosaic::driver

// What mosaic prints when it crashes itself (not the code under test, which
// runs in other processes).
#pragma once

namespace mosaic::driver {

// Installs, once and before anything else handles signals, a report for a
// fatal signal of mosaic's own process (SIGSEGV, SIGBUS, SIGILL, SIGFPE,
// SIGABRT, ...): a line saying that mosaic itself failed, with which signal,
// and how to report it, then the stack of the thread that failed, symbolised
// by the toolchain's llvm-symbolizer, on stderr; then exit code 3 (internal
// error), as for any other failure of mosaic itself.
//
// SIGINT and SIGTERM keep their default action until an InterruptGuard
// takes them. In a build with AddressSanitizer nothing is installed: its
// own handler reports a crash with a symbolised stack already.
void installCrashReport(const char *argv0);

} // namespace mosaic::driver

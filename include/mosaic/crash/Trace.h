// A crash's stack trace as a C or C++ developer has it (issue 21): an
// AddressSanitizer, UndefinedBehaviorSanitizer, MemorySanitizer or
// ThreadSanitizer report, a libFuzzer crash log, a gdb or lldb `bt`, glibc's
// backtrace_symbols() output, a std::terminate message followed by any of
// those. Read into what failed (the kind) and the frames of the failing
// stack, innermost first. The crash's search (`mosaic reproduce`) matches a
// test's failure against both.
#pragma once

#include "mosaic/exec/Stack.h"
#include "mosaic/support/Expected.h"

#include <string>
#include <string_view>
#include <vector>

namespace mosaic::crash {

/// What kind of failure a trace reports.
enum class FailureClass {
  Unknown,     ///< the trace names no kind (a bare backtrace): any failure matches
  Signal,      ///< a fatal signal (SIGSEGV, SIGABRT, ...), a sanitizer's SEGV included
  Sanitizer,   ///< a sanitizer's error class (heap-buffer-overflow, signed integer overflow, data race)
  Exception,   ///< an uncaught C++ exception (std::terminate)
  Timeout,     ///< libFuzzer's timeout
  OutOfMemory, ///< libFuzzer's out-of-memory, a sanitizer's allocation-size-too-big
};

struct FailureKind {
  FailureClass cls = FailureClass::Unknown;
  /// SIGSEGV; heap-buffer-overflow; "signed integer overflow" (UBSan's
  /// message up to its colon, numbers as N); std::out_of_range.
  std::string name;
  /// The sanitizer that reported it (AddressSanitizer, ...), "" when none.
  std::string tool;
  /// "SIGSEGV", "AddressSanitizer: heap-buffer-overflow", "uncaught std::out_of_range".
  std::string str() const;
};

/// How the frames were printed.
enum class TraceFormat { Sanitizer, LibFuzzer, Gdb, Lldb, BacktraceSymbols };
std::string_view formatName(TraceFormat format);

struct TraceFrame {
  /// Function (demangled; "" when the trace names none), file as printed
  /// (maybe relative, maybe another machine's path; "" when none), line,
  /// column (0 when not printed).
  exec::Frame frame;
  /// The binary or library, when the trace names it (`/lib/.../libc.so.6`, `seg`).
  std::string module;
};

struct StackTrace {
  TraceFormat format = TraceFormat::Sanitizer;
  FailureKind kind;
  /// The failing stack, innermost first (a sanitizer report's first stack:
  /// where it failed, not where the memory was allocated or freed).
  std::vector<TraceFrame> frames;
};

/// Reads `text`; an Input error naming what was expected when it holds no
/// frame (and, for a UBSan report without a stack, no `file:line:col:
/// runtime error` either, which is then the one frame).
Expected<StackTrace> parseTrace(std::string_view text);

} // namespace mosaic::crash

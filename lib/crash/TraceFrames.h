// One frame line of each trace format (Trace.cpp decides which format a
// trace is in and which of its lines make the failing stack).
#pragma once

#include "mosaic/crash/Trace.h"

#include <optional>
#include <string>
#include <string_view>

namespace mosaic::crash::frames {

/// "#3 0x4f1a2 in f(int) /src/a.c:12:5", "#5 0x55 in _start (/bin/x+0x2c3)
/// (BuildId: ..)", "#0 0x7f (/lib/libc.so.6+0x1234)"; ThreadSanitizer's "#0
/// f /src/a.c:3:26 (x+0xe4598)".
std::optional<TraceFrame> sanitizer(std::string_view line);
/// "#0  0x55 in f (c=0x7ff) at seg.c:3", "#6  0x7f in std::terminate() ()
/// from /lib/libstdc++.so.6", "#0  f (x=1) at a.c:3".
std::optional<TraceFrame> gdb(std::string_view line);
/// "  * frame #0: 0x55 seg`name_length(c=0x7ff) at seg.c:3:60", "frame #5:
/// 0x55 seg`_start + 37".
std::optional<TraceFrame> lldb(std::string_view line);
/// "./prog(f+0x1a)[0x55]", "./prog(_Z4pickRKSt6vectorIiSaIiEEm+0x3d) [0x55]",
/// "/lib/libc.so.6(+0x3c050) [0x7f]".
std::optional<TraceFrame> backtraceSymbols(std::string_view line);

/// A symbol as a person reads it: `_Z4pickRKSt6vectorIiSaIiEEm` ->
/// `pick(std::vector<int, std::allocator<int> > const&, unsigned long)`;
/// other names unchanged.
std::string demangle(const std::string &symbol);

} // namespace mosaic::crash::frames

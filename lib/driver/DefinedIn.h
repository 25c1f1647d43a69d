// Files for a trace's frames that name a function but no file (glibc's
// backtrace_symbols, a binary without debug information): the unit of the
// compile database that defines the function, found by its definition's
// text (a line that starts with the function's declarator and does not end
// a declaration). A function defined in more than one unit, or in none,
// keeps no file.
#pragma once

#include "mosaic/crash/Trace.h"

#include <string>
#include <vector>

namespace mosaic::driver {

/// Sets frame.file of `trace`'s frames without one to the unit (absolute,
/// from `units`) that defines their function, leaving frame.line 0 (any
/// line of it); the frames it placed, "function -> file", for the report.
std::vector<std::string> fileFramesByDefinition(crash::StackTrace &trace, const std::vector<std::string> &units);

} // namespace mosaic::driver

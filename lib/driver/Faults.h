// Fault injection for mosaic's own tests: every step of `run` and
// `generate` can be made to throw, to check that no exception escapes main
// (exit code 3 and a message, never an abort).
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mosaic::driver {

/// Throws when the environment variable MOSAIC_FAULT names `where` (a step:
/// session, search, reduce, minimise, extend, observe, minimise-failures,
/// write, report). Read-only and inert unless set.
inline void faultPoint(std::string_view where) {
  const char *fault = std::getenv("MOSAIC_FAULT");
  if (fault && where == fault) throw std::runtime_error("a fault injected at '" + std::string(where) + "' (MOSAIC_FAULT)");
}

} // namespace mosaic::driver

// Where mosaic's own build put the pass plugin, the runtime and the ABI
// headers (configured by CMake into the driver).
#pragma once

#include "mosaic/harness/Build.h"

namespace mosaic::driver {

inline harness::Toolchain toolchain() {
  harness::Toolchain t;
  t.clang = MOSAIC_CLANG;
  t.clangxx = MOSAIC_CLANGXX;
  t.passPlugin = MOSAIC_PASS_PLUGIN;
  t.runtime = MOSAIC_RUNTIME_LIB;
  t.abiInclude = MOSAIC_ABI_INCLUDE;
  return t;
}

} // namespace mosaic::driver

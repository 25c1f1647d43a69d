// Where mosaic's own build put the pass plugin, the runtime and the ABI
// headers: the one place that knows (configured by CMake into the driver).
#pragma once

#include "mosaic/harness/Build.h"

namespace mosaic::driver {

/// The compilers, pass plugin, runtime library and ABI headers this build of
/// mosaic uses for harnesses.
harness::Toolchain toolchain();

} // namespace mosaic::driver

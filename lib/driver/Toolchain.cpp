// The toolchain of this build (paths configured by CMake).
#include "mosaic/driver/Toolchain.h"

namespace mosaic::driver {

harness::Toolchain toolchain() {
  harness::Toolchain t;
  t.clang = MOSAIC_CLANG;
  t.clangxx = MOSAIC_CLANGXX;
  t.passPlugin = MOSAIC_PASS_PLUGIN;
  t.runtime = MOSAIC_RUNTIME_LIB;
  t.mutateRuntime = MOSAIC_MUTATE_RUNTIME_LIB;
  t.abiInclude = MOSAIC_ABI_INCLUDE;
  t.llvmProfdata = MOSAIC_LLVM_PROFDATA;
  t.llvmCov = MOSAIC_LLVM_COV;
  t.llvmSymbolizer = MOSAIC_LLVM_SYMBOLIZER;
  return t;
}

} // namespace mosaic::driver
